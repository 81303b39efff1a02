import Foundation

/// Plaid's request and response schemas for the eight endpoints, and a validator over them.
///
/// The schemas are `plaid_schemas.json`, extracted mechanically from plaid/plaid-openapi
/// `2020-09-14.yml` (see `extract_schemas.py` beside it), so what is required, typed, bounded or
/// enumerated comes from the spec, not from hand-written checks. The server checks every request
/// body against its endpoint's request schema; the tests check every answer against the response
/// schema (or `PlaidError`). The OpenAPI subset read: `type`, `properties`, `required`, `enum`,
/// `nullable`, `items`, `minimum`, `maximum`, `minLength`, `maxLength`, `minItems`, `maxItems`,
/// `allOf`, `additionalProperties`, `format: date`. Fields not in `properties` are rejected
/// unless `additionalProperties` is true (Plaid answers `UNKNOWN_FIELDS`).
struct PlaidSchemas: Sendable {
    private let requestByPath: [String: String]
    private let responseByPath: [String: String]
    private let errorSchema: String
    private let schemas: [String: PlaidJSON]

    static let spec: PlaidSchemas = {
        guard let doc = try? PlaidJSON.parse(PackageResources.plaid_schemas_json),
            case .object(let requests)? = doc["requests"], case .object(let responses)? = doc["responses"],
            let error = doc["error"]?.stringValue, case .object(let schemas)? = doc["schemas"]
        else { fatalError("plaid_schemas.json is not the extracted schema document") }
        return PlaidSchemas(
            requestByPath: requests.compactMapValues(\.stringValue), responseByPath: responses.compactMapValues(\.stringValue),
            errorSchema: error, schemas: schemas)
    }()

    /// The endpoints the server implements.
    var paths: [String] { requestByPath.keys.sorted() }

    /// The first problem Plaid would report for request `body` on `path`, by Plaid's precedence:
    /// missing fields, then unknown fields, then an invalid value; nil when the body conforms.
    func problem(in body: PlaidJSON, path: String) -> PlaidAPIError? {
        guard let name = requestByPath[path] else { return nil }
        let found = findings(body, schemaNamed: name)
        if !found.missing.isEmpty { return .missingFields(found.missing) }
        if !found.unknown.isEmpty { return .unknownFields(found.unknown) }
        if let first = found.invalid.first { return .invalidField(first) }
        return nil
    }

    /// Every way an answer on `path` departs from the spec: the 200 response schema, or
    /// `PlaidError` for any other status. Empty when it conforms.
    func responseProblems(in body: PlaidJSON, path: String, status: Int) -> [String] {
        guard let name = status == 200 ? responseByPath[path] : errorSchema else { return ["no schema for \(path)"] }
        let found = findings(body, schemaNamed: name)
        return found.missing.map { "missing \($0)" } + found.unknown.map { "unknown \($0)" } + found.invalid
    }

    private func findings(_ value: PlaidJSON, schemaNamed name: String) -> Findings {
        var found = Findings()
        check(value, against: .object(["$ref": .string(name)]), at: "", into: &found)
        return found
    }

    private struct Findings {
        var missing: [String] = []
        var unknown: [String] = []
        var invalid: [String] = []
    }

    /// The schema with `$ref` followed and `allOf` members merged (properties and required
    /// united), which is how the spec uses `allOf` in request bodies.
    private func resolved(_ schema: PlaidJSON) -> [String: PlaidJSON] {
        guard case .object(var members) = schema else { return [:] }
        if let ref = members["$ref"]?.stringValue, let target = schemas[ref] {
            var merged = resolved(target)
            for (k, v) in members where k != "$ref" { merged[k] = v }
            members = merged
        }
        guard let parts = members.removeValue(forKey: "allOf")?.arrayValue else { return members }
        var properties: [String: PlaidJSON] = [:]
        var required: [PlaidJSON] = []
        for part in parts.map(resolved) + [members] {
            if case .object(let p)? = part["properties"] { properties.merge(p) { a, _ in a } }
            required += part["required"]?.arrayValue ?? []
            for (k, v) in part where k != "properties" && k != "required" && members[k] == nil { members[k] = v }
        }
        if !properties.isEmpty { members["properties"] = .object(properties) }
        if !required.isEmpty { members["required"] = .array(required) }
        return members
    }

    private func check(_ value: PlaidJSON, against rawSchema: PlaidJSON, at field: String, into found: inout Findings) {
        let schema = resolved(rawSchema)
        let name = field.isEmpty ? "body" : field
        if value == .null {
            if schema["nullable"] != .bool(true) { found.invalid.append("\(name) must not be null") }
            return
        }
        if let type = schema["type"]?.stringValue, !Self.value(value, hasType: type) {
            found.invalid.append("\(name) must be of type \(type)")
            return
        }
        if let allowed = schema["enum"]?.arrayValue, !allowed.contains(value) {
            let list = allowed.compactMap(\.stringValue).joined(separator: ", ")
            found.invalid.append("\(name) must be one of [\(list)]")
        }
        switch value {
        case .object(let members):
            checkObject(members, schema: schema, at: field, into: &found)
        case .array(let items):
            if let min = schema["minItems"]?.intValue, items.count < min {
                found.invalid.append("\(name) must have at least \(min) items")
            }
            if let max = schema["maxItems"]?.intValue, items.count > max {
                found.invalid.append("\(name) must have at most \(max) items")
            }
            if let itemSchema = schema["items"] {
                for (i, item) in items.enumerated() { check(item, against: itemSchema, at: "\(name)[\(i)]", into: &found) }
            }
        case .string(let s):
            if let min = schema["minLength"]?.intValue, s.count < min {
                found.invalid.append("\(name) must be at least \(min) characters")
            }
            if let max = schema["maxLength"]?.intValue, s.count > max {
                found.invalid.append("\(name) must be at most \(max) characters")
            }
            if schema["format"]?.stringValue == "date", PlaidDay(iso: s) == nil {
                found.invalid.append("\(name) must be a date formatted YYYY-MM-DD")
            }
        case .number(let text):
            let number = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
            if let min = schema["minimum"]?.numberText.flatMap({ Decimal(string: $0) }), let number, number < min {
                found.invalid.append("\(name) must be at least \(min)")
            }
            if let max = schema["maximum"]?.numberText.flatMap({ Decimal(string: $0) }), let number, number > max {
                found.invalid.append("\(name) must be at most \(max)")
            }
        case .null, .bool:
            break
        }
    }

    private func checkObject(_ members: [String: PlaidJSON], schema: [String: PlaidJSON], at field: String, into found: inout Findings) {
        let prefix = field.isEmpty ? "" : field + "."
        let properties: [String: PlaidJSON]
        if case .object(let p)? = schema["properties"] { properties = p } else { properties = [:] }
        for required in schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? [] where members[required] == nil {
            found.missing.append(prefix + required)
        }
        let open = schema["additionalProperties"] == .bool(true) || schema["properties"] == nil
        for key in members.keys.sorted() {
            if let propertySchema = properties[key] {
                check(members[key]!, against: propertySchema, at: prefix + key, into: &found)
            } else if !open {
                found.unknown.append(prefix + key)
            }
        }
    }

    private static func value(_ value: PlaidJSON, hasType type: String) -> Bool {
        switch (type, value) {
        case ("string", .string), ("boolean", .bool), ("array", .array), ("object", .object): return true
        case ("number", .number): return true
        case ("integer", .number(let text)): return Int(text) != nil
        default: return false
        }
    }
}
