/// A JSON value as parsed by ``JSONParser``.
///
/// Numbers keep their exact source text (`72.10` stays `"72.10"`, never a `Double`), objects
/// keep their members in source order (duplicate keys are rejected by the parser).
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    /// The number exactly as written in the source (RFC 8259 grammar), e.g. `-12.5e3`.
    case number(String)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// Short name of the value's kind, for messages (`string`, `number`, ...).
    public var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }

    public var isNull: Bool { if case .null = self { return true } else { return false } }

    public var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }
    public var boolValue: Bool? { if case .bool(let b) = self { return b } else { return nil } }
    /// Source text of a number.
    public var numberText: String? { if case .number(let n) = self { return n } else { return nil } }
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { return a } else { return nil } }
    public var objectValue: JSONObject? { if case .object(let o) = self { return o } else { return nil } }

    /// Member `key` of an object (nil for other kinds or a missing key).
    public subscript(key: String) -> JSONValue? { objectValue?[key] }
}

/// One `"key": value` member of a JSON object.
public struct JSONMember: Sendable, Hashable {
    public var key: String
    public var value: JSONValue
    public init(key: String, value: JSONValue) { self.key = key; self.value = value }
}

/// A JSON object: members in source order, unique keys.
///
/// `offset` is the byte offset of its `{` in the parsed document (or -1 when built in code);
/// it is not part of equality.
public struct JSONObject: Sendable, Hashable {
    public var members: [JSONMember]
    public var offset: Int

    public init(_ members: [JSONMember] = [], offset: Int = -1) {
        self.members = members; self.offset = offset
    }

    public init(_ pairs: KeyValuePairs<String, JSONValue>) {
        self.init(pairs.map { JSONMember(key: $0.key, value: $0.value) })
    }

    public var keys: [String] { members.map(\.key) }
    public var count: Int { members.count }
    public var isEmpty: Bool { members.isEmpty }

    public subscript(key: String) -> JSONValue? {
        get {
            let n = key.utf8.count
            for m in members where m.key.utf8.count == n && m.key == key { return m.value }
            return nil
        }
        set {
            if let i = members.firstIndex(where: { $0.key == key }) {
                if let newValue { members[i].value = newValue } else { members.remove(at: i) }
            } else if let newValue {
                members.append(JSONMember(key: key, value: newValue))
            }
        }
    }

    public func contains(_ key: String) -> Bool { members.contains { $0.key == key } }

    public static func == (a: JSONObject, b: JSONObject) -> Bool { a.members == b.members }
    public func hash(into h: inout Hasher) { h.combine(members) }
}

// MARK: - Serialisation

extension JSONValue {
    /// Compact JSON text (no insignificant whitespace), members in order, numbers as their
    /// original text. `redact` is asked about every object key; when it answers true a
    /// non-null value is replaced by the string `[REDACTED]`, at any depth.
    public func serialized(redact: (String) -> Bool = { _ in false }) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(2048)
        JSONValue.write(self, into: &out, redact: redact)
        return String(decoding: out, as: UTF8.self)
    }

    private static let redactedMarker: JSONValue = .string("[REDACTED]")

    static func write(_ v: JSONValue, into out: inout [UInt8], redact: (String) -> Bool) {
        switch v {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .number(let n): out.append(contentsOf: n.utf8)
        case .string(let s): writeString(s, into: &out)
        case .array(let a):
            out.append(UInt8(ascii: "["))
            for (i, e) in a.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                write(e, into: &out, redact: redact)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let o):
            out.append(UInt8(ascii: "{"))
            for (i, m) in o.members.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                writeString(m.key, into: &out)
                out.append(UInt8(ascii: ":"))
                if !m.value.isNull && redact(m.key) {
                    write(redactedMarker, into: &out, redact: redact)
                } else {
                    write(m.value, into: &out, redact: redact)
                }
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    static func writeString(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        let utf8 = s.utf8
        let done: Bool? = utf8.withContiguousStorageIfAvailable { buf in
            for b in buf where b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") { return false }
            out.append(contentsOf: buf)
            return true
        }
        if done == true {
            out.append(UInt8(ascii: "\""))
            return
        }
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        for b in utf8 {
            switch b {
            case UInt8(ascii: "\""): out.append(UInt8(ascii: "\\")); out.append(b)
            case UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\")); out.append(b)
            case 0x0A: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "n"))
            case 0x0D: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "r"))
            case 0x09: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "t"))
            case 0x08: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "b"))
            case 0x0C: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "f"))
            case 0..<0x20:
                out.append(contentsOf: "\\u00".utf8)
                out.append(hex[Int(b >> 4)]); out.append(hex[Int(b & 0xF)])
            default: out.append(b)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}

extension JSONObject {
    /// Compact JSON text of this object; see ``JSONValue/serialized(redact:)``.
    public func serialized(redact: (String) -> Bool = { _ in false }) -> String {
        JSONValue.object(self).serialized(redact: redact)
    }
}
