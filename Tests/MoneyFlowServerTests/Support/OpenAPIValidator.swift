import Foundation

/// A JSON value as the validator sees it: integers stay exact (ids, counts) and booleans never
/// pass for numbers, which `JSONSerialization`'s NSNumber cannot promise on Linux.
enum JSONValue: Decodable, Equatable, Sendable {
    case null, bool(Bool), int(Int64), number(Double), string(String), array([JSONValue]), object([String: JSONValue])

    init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let b = try? c.decode(Bool.self) {
            self = .bool(b)
        } else if let i = try? c.decode(Int64.self) {
            self = .int(i)
        } else if let d = try? c.decode(Double.self) {
            self = .number(d)
        } else if let s = try? c.decode(String.self) {
            self = .string(s)
        } else if let a = try? c.decode([JSONValue].self) {
            self = .array(a)
        } else {
            self = .object(try c.decode([String: JSONValue].self))
        }
    }

    static func parse(_ data: Data) throws -> JSONValue { try JSONDecoder().decode(JSONValue.self, from: data) }
    static func parse(_ text: String) throws -> JSONValue { try parse(Data(text.utf8)) }

    subscript(key: String) -> JSONValue? { if case .object(let o) = self { return o[key] } else { return nil } }
    var string: String? { if case .string(let s) = self { return s } else { return nil } }
    var array: [JSONValue]? { if case .array(let a) = self { return a } else { return nil } }
    var object: [String: JSONValue]? { if case .object(let o) = self { return o } else { return nil } }

    /// The JSON Schema type names this value satisfies ("integer" values are "number"s too).
    var schemaTypes: Set<String> {
        switch self {
        case .null: return ["null"]
        case .bool: return ["boolean"]
        case .int: return ["integer", "number"]
        case .number(let d): return d.rounded() == d ? ["integer", "number"] : ["number"]
        case .string: return ["string"]
        case .array: return ["array"]
        case .object: return ["object"]
        }
    }

    var numeric: Double? {
        switch self {
        case .int(let i): return Double(i)
        case .number(let d): return d
        default: return nil
        }
    }
}

/// One way a response breaks the document, at a JSON path such as `$.transactions[3].amount`.
struct Violation: CustomStringConvertible, Equatable, Sendable {
    var path: String
    var message: String
    var description: String { "\(path): \(message)" }
}

/// Checks responses against the OpenAPI 3.1 document: finds the operation of a concrete request
/// (`POST /v1/batches/7/undo`) and validates the status and JSON body against the response's
/// schema. It covers the JSON Schema keywords our document uses (type and type arrays, const,
/// enum, properties/required/additionalProperties, items, min/max(Items/Length), pattern,
/// minimum/maximum, $ref, allOf/anyOf/oneOf) and reports an unknown keyword instead of
/// skipping it, so a schema the validator cannot read never passes silently.
struct OpenAPIValidator {
    let document: JSONValue

    static let handledKeywords: Set<String> = [
        "type", "const", "enum", "properties", "required", "additionalProperties", "items", "minItems", "maxItems",
        "minLength", "maxLength", "pattern", "minimum", "maximum", "$ref", "allOf", "anyOf", "oneOf",
        // Annotations: no effect on validity.
        "description", "format", "default", "title", "examples",
    ]

    init(data: Data) throws { document = try JSONValue.parse(data) }

    /// The repository's document (Sources/MoneyFlowServer/OpenAPI/openapi.json).
    static func repositoryDocument() throws -> OpenAPIValidator {
        try OpenAPIValidator(data: Data(contentsOf: documentURL))
    }
    static var documentURL: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/MoneyFlowServer/OpenAPI/openapi.json")
    }

    /// The path template and operation object for `method` on a concrete path (query ignored).
    /// A literal segment beats a `{parameter}` segment, as OpenAPI requires.
    func operation(method: String, path: String) -> (template: String, operation: JSONValue)? {
        let concrete = path.split(separator: "?", maxSplits: 1).first.map(String.init) ?? path
        let parts = concrete.split(separator: "/", omittingEmptySubsequences: false)
        var best: (template: String, operation: JSONValue, literals: Int)?
        for (template, item) in document["paths"]?.object ?? [:] {
            let t = template.split(separator: "/", omittingEmptySubsequences: false)
            guard t.count == parts.count else { continue }
            var literals = 0
            var matches = true
            for (a, b) in zip(t, parts) {
                if a.hasPrefix("{") && a.hasSuffix("}") {
                    if b.isEmpty { matches = false; break }
                } else if a == b {
                    literals += 1
                } else {
                    matches = false; break
                }
            }
            guard matches, let op = item[method.lowercased()], literals > (best?.literals ?? -1) else { continue }
            best = (template, op, literals)
        }
        return best.map { ($0.template, $0.operation) }
    }

    /// Everything wrong with a response: an unknown operation or status, a missing or extra
    /// body, or a body that breaks the response's JSON schema.
    func validateResponse(method: String, path: String, status: Int, body: Data?) -> [Violation] {
        guard let (template, op) = operation(method: method, path: path) else {
            return [Violation(path: "$", message: "no operation for \(method.uppercased()) \(path)")]
        }
        guard var response = op["responses"]?[String(status)] ?? op["responses"]?["\(status / 100)XX"] ?? op["responses"]?["default"]
        else {
            return [Violation(path: "$", message: "status \(status) is not documented for \(method.uppercased()) \(template)")]
        }
        if let r = response["$ref"]?.string {
            guard let target = resolve(r) else { return [Violation(path: "$", message: "unresolved $ref \(r)")] }
            response = target
        }
        guard let schema = response["content"]?["application/json"]?["schema"] else {
            return body.map { $0.isEmpty } ?? true
                ? [] : [Violation(path: "$", message: "status \(status) of \(template) documents no JSON body, got one")]
        }
        guard let body, !body.isEmpty else { return [Violation(path: "$", message: "expected a JSON body")] }
        guard let value = try? JSONValue.parse(body) else {
            // A route that also answers in another media type (an export's text) may send that.
            let others = (response["content"]?.object?.keys).map { $0.filter { $0 != "application/json" } } ?? []
            return others.isEmpty ? [Violation(path: "$", message: "the body is not JSON")] : []
        }
        return validate(value, against: schema)
    }

    /// Validates `value` against `#/components/schemas/<name>`.
    func validate(_ value: JSONValue, component name: String) -> [Violation] {
        validate(value, against: .object(["$ref": .string("#/components/schemas/\(name)")]))
    }

    func validate(_ value: JSONValue, against schema: JSONValue, at path: String = "$") -> [Violation] {
        var out: [Violation] = []
        check(value, schema, path, &out)
        return out
    }

    /// The value a local reference (`#/components/...`) points to.
    func resolve(_ ref: String) -> JSONValue? {
        guard ref.hasPrefix("#/") else { return nil }
        var node: JSONValue? = document
        for raw in ref.dropFirst(2).split(separator: "/") {
            let key = raw.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            node = node?[key]
        }
        return node
    }

    private func check(_ value: JSONValue, _ schema: JSONValue, _ path: String, _ out: inout [Violation]) {
        if case .bool(let allowed) = schema {
            if !allowed { out.append(Violation(path: path, message: "no value is allowed here")) }
            return
        }
        guard let s = schema.object else { return out.append(Violation(path: path, message: "schema is not an object")) }
        for key in s.keys where !Self.handledKeywords.contains(key) {
            out.append(Violation(path: path, message: "the validator does not handle keyword \(key)"))
        }
        if let r = s["$ref"]?.string {
            guard let target = resolve(r) else { return out.append(Violation(path: path, message: "unresolved $ref \(r)")) }
            check(value, target, path, &out)
        }
        if let type = s["type"] {
            let allowed = type.string.map { [$0] } ?? type.array?.compactMap(\.string) ?? []
            if value.schemaTypes.isDisjoint(with: allowed) {
                // A wrong type makes every other keyword's complaint noise.
                return out.append(Violation(path: path, message: "expected \(allowed.joined(separator: " or ")), got \(describe(value))"))
            }
        }
        if let c = s["const"], c != value { out.append(Violation(path: path, message: "expected \(describe(c)), got \(describe(value))")) }
        if let e = s["enum"]?.array, !e.contains(value) {
            out.append(Violation(path: path, message: "\(describe(value)) is not one of \(e.map(describe).joined(separator: ", "))"))
        }
        checkComposition(value, s, path, &out)
        switch value {
        case .object(let o): checkObject(o, s, path, &out)
        case .array(let a):
            if let min = s["minItems"]?.numeric, Double(a.count) < min {
                out.append(Violation(path: path, message: "fewer than \(Int(min)) items"))
            }
            if let max = s["maxItems"]?.numeric, Double(a.count) > max {
                out.append(Violation(path: path, message: "more than \(Int(max)) items"))
            }
            if let items = s["items"] { for (i, v) in a.enumerated() { check(v, items, "\(path)[\(i)]", &out) } }
        case .string(let str):
            if let min = s["minLength"]?.numeric, Double(str.count) < min {
                out.append(Violation(path: path, message: "shorter than \(Int(min))"))
            }
            if let max = s["maxLength"]?.numeric, Double(str.count) > max {
                out.append(Violation(path: path, message: "longer than \(Int(max))"))
            }
            if let p = s["pattern"]?.string {
                if let regex = try? Regex(p) {
                    if (try? regex.firstMatch(in: str)) == nil {
                        out.append(Violation(path: path, message: "\(describe(value)) does not match \(p)"))
                    }
                } else {
                    out.append(Violation(path: path, message: "unreadable pattern \(p)"))
                }
            }
        case .int, .number:
            let n = value.numeric!
            if let min = s["minimum"]?.numeric, n < min {
                out.append(Violation(path: path, message: "\(describe(value)) is below \(describe(s["minimum"]!))"))
            }
            if let max = s["maximum"]?.numeric, n > max {
                out.append(Violation(path: path, message: "\(describe(value)) is above \(describe(s["maximum"]!))"))
            }
        case .null, .bool: break
        }
    }

    private func checkComposition(_ value: JSONValue, _ s: [String: JSONValue], _ path: String, _ out: inout [Violation]) {
        for sub in s["allOf"]?.array ?? [] { check(value, sub, path, &out) }
        if let any = s["anyOf"]?.array {
            let failures = any.map { validate(value, against: $0, at: path) }
            if !failures.contains(where: \.isEmpty) {
                out.append(
                    Violation(
                        path: path,
                        message: "matches none of anyOf: " + failures.map { $0.first?.description ?? "" }.joined(separator: " | ")))
            }
        }
        if let one = s["oneOf"]?.array {
            let passing = one.filter { validate(value, against: $0, at: path).isEmpty }.count
            if passing != 1 {
                out.append(Violation(path: path, message: "matches \(passing) of oneOf's \(one.count) schemas, not exactly 1"))
            }
        }
    }

    private func checkObject(_ o: [String: JSONValue], _ s: [String: JSONValue], _ path: String, _ out: inout [Violation]) {
        let props = s["properties"]?.object ?? [:]
        for key in s["required"]?.array?.compactMap(\.string) ?? [] where o[key] == nil {
            out.append(Violation(path: "\(path).\(key)", message: "required key is missing"))
        }
        for (key, v) in o.sorted(by: { $0.key < $1.key }) {
            if let p = props[key] {
                check(v, p, "\(path).\(key)", &out)
            } else if let extra = s["additionalProperties"] {
                if case .bool(false) = extra {
                    out.append(Violation(path: "\(path).\(key)", message: "key is not in the schema (additionalProperties: false)"))
                } else {
                    check(v, extra, "\(path).\(key)", &out)
                }
            }
        }
    }

    private func describe(_ v: JSONValue) -> String {
        switch v {
        case .null: return "null"
        case .bool(let b): return String(b)
        case .int(let i): return String(i)
        case .number(let d): return String(d)
        case .string(let s): return "\"\(s.prefix(60))\""
        case .array(let a): return "an array of \(a.count)"
        case .object: return "an object"
        }
    }
}
