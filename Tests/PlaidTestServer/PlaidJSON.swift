/// A JSON value that keeps every number as its source text.
///
/// Deliberately not MoneyFlowImporters' `JSONValue`: the test server depends on no MoneyFlow
/// module, so a parsing mistake in the code under test cannot hide itself here.
///
/// Why not `JSONSerialization`: it turns numbers into `Double`/`NSNumber`, so `1234.12` could
/// leave the server as `1234.1199999` and an `"count": 7.0` could pass as an integer. Plaid's
/// amounts must go out exactly as the test wrote them, and the validator must see the request's
/// number text as sent.
public enum PlaidJSON: Equatable, Sendable {
    case null
    case bool(Bool)
    /// The number's text as written (JSON number grammar checked on parse).
    case number(String)
    case string(String)
    case array([PlaidJSON])
    case object([String: PlaidJSON])

    public subscript(key: String) -> PlaidJSON? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    public var arrayValue: [PlaidJSON]? {
        if case .array(let a) = self { return a }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// The number's text, for exact comparison (`"1234.12"`).
    public var numberText: String? {
        if case .number(let n) = self { return n }
        return nil
    }

    /// The number as an `Int` when its text is an integer literal.
    public var intValue: Int? {
        if case .number(let n) = self { return Int(n) }
        return nil
    }

    /// JSON text with object keys sorted, numbers written from their text.
    public func serialized() -> String {
        var out = ""
        write(to: &out)
        return out
    }

    private func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): out += n
        case .string(let s): Self.writeString(s, to: &out)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (i, key) in members.keys.sorted().enumerated() {
                if i > 0 { out += "," }
                Self.writeString(key, to: &out)
                out += ":"
                members[key]!.write(to: &out)
            }
            out += "}"
        }
    }

    private static func writeString(_ s: String, to out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}

/// Strict RFC 8259 parser for request bodies (UTF-8), rejecting duplicate keys and trailing data.
public struct PlaidJSONError: Error, Equatable, Sendable {
    public let offset: Int
    public let reason: String
}

extension PlaidJSON {
    public static func parse(_ bytes: [UInt8]) throws(PlaidJSONError) -> PlaidJSON {
        var parser = Parser(bytes: bytes)
        parser.skipSpace()
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.at == bytes.count else { throw parser.fail("trailing data after the JSON value") }
        return value
    }

    public static func parse(_ text: String) throws(PlaidJSONError) -> PlaidJSON {
        try parse(Array(text.utf8))
    }
}

private struct Parser {
    let bytes: [UInt8]
    var at = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    func fail(_ reason: String) -> PlaidJSONError { PlaidJSONError(offset: at, reason: reason) }

    var peek: UInt8? { at < bytes.count ? bytes[at] : nil }

    mutating func skipSpace() {
        while let b = peek, b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { at += 1 }
    }

    mutating func expect(_ literal: String, _ value: PlaidJSON) throws(PlaidJSONError) -> PlaidJSON {
        for b in literal.utf8 {
            guard peek == b else { throw fail("invalid literal") }
            at += 1
        }
        return value
    }

    mutating func value(depth: Int) throws(PlaidJSONError) -> PlaidJSON {
        guard depth < 64 else { throw fail("nesting deeper than 64") }
        switch peek {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try expect("true", .bool(true))
        case UInt8(ascii: "f"): return try expect("false", .bool(false))
        case UInt8(ascii: "n"): return try expect("null", .null)
        case .some(let b) where b == UInt8(ascii: "-") || (b >= 0x30 && b <= 0x39): return try number()
        default: throw fail("expected a JSON value")
        }
    }

    mutating func object(depth: Int) throws(PlaidJSONError) -> PlaidJSON {
        at += 1
        var members: [String: PlaidJSON] = [:]
        skipSpace()
        if peek == UInt8(ascii: "}") { at += 1; return .object(members) }
        while true {
            skipSpace()
            guard peek == UInt8(ascii: "\"") else { throw fail("expected a member name") }
            let key = try string()
            guard members[key] == nil else { throw fail("duplicate member \(key)") }
            skipSpace()
            guard peek == UInt8(ascii: ":") else { throw fail("expected ':'") }
            at += 1
            skipSpace()
            members[key] = try value(depth: depth + 1)
            skipSpace()
            if peek == UInt8(ascii: ",") { at += 1; continue }
            if peek == UInt8(ascii: "}") { at += 1; return .object(members) }
            throw fail("expected ',' or '}'")
        }
    }

    mutating func array(depth: Int) throws(PlaidJSONError) -> PlaidJSON {
        at += 1
        var items: [PlaidJSON] = []
        skipSpace()
        if peek == UInt8(ascii: "]") { at += 1; return .array(items) }
        while true {
            skipSpace()
            items.append(try value(depth: depth + 1))
            skipSpace()
            if peek == UInt8(ascii: ",") { at += 1; continue }
            if peek == UInt8(ascii: "]") { at += 1; return .array(items) }
            throw fail("expected ',' or ']'")
        }
    }

    mutating func number() throws(PlaidJSONError) -> PlaidJSON {
        let start = at
        func digits(_ p: inout Parser) -> Int {
            let s = p.at
            while let b = p.peek, b >= 0x30 && b <= 0x39 { p.at += 1 }
            return p.at - s
        }
        if peek == UInt8(ascii: "-") { at += 1 }
        if peek == UInt8(ascii: "0") {
            at += 1
        } else if digits(&self) == 0 {
            throw fail("invalid number")
        }
        if peek == UInt8(ascii: ".") {
            at += 1
            guard digits(&self) > 0 else { throw fail("invalid number fraction") }
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            at += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { at += 1 }
            guard digits(&self) > 0 else { throw fail("invalid number exponent") }
        }
        return .number(String(decoding: bytes[start..<at], as: UTF8.self))
    }

    mutating func string() throws(PlaidJSONError) -> String {
        at += 1
        var scalars = String.UnicodeScalarView()
        var runStart = at
        func flush(_ p: Parser, _ end: Int, into s: inout String.UnicodeScalarView) throws(PlaidJSONError) {
            guard end > runStart else { return }
            guard let run = String(validating: p.bytes[runStart..<end], as: UTF8.self) else {
                throw p.fail("invalid UTF-8 in string")
            }
            s.append(contentsOf: run.unicodeScalars)
        }
        while true {
            guard let b = peek else { throw fail("unterminated string") }
            if b == UInt8(ascii: "\"") {
                try flush(self, at, into: &scalars)
                at += 1
                return String(scalars)
            }
            if b < 0x20 { throw fail("control character in string") }
            if b != UInt8(ascii: "\\") { at += 1; continue }
            try flush(self, at, into: &scalars)
            at += 1
            guard let e = peek else { throw fail("unterminated escape") }
            at += 1
            switch e {
            case UInt8(ascii: "\""): scalars.append("\"")
            case UInt8(ascii: "\\"): scalars.append("\\")
            case UInt8(ascii: "/"): scalars.append("/")
            case UInt8(ascii: "b"): scalars.append("\u{08}")
            case UInt8(ascii: "f"): scalars.append("\u{0C}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "u"):
                var code = try hex4()
                if (0xD800..<0xDC00).contains(code) {
                    guard peek == UInt8(ascii: "\\") else { throw fail("lone surrogate") }
                    at += 1
                    guard peek == UInt8(ascii: "u") else { throw fail("lone surrogate") }
                    at += 1
                    let low = try hex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw fail("lone surrogate") }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let scalar = Unicode.Scalar(code) else { throw fail("invalid \\u escape") }
                scalars.append(scalar)
            default: throw fail("invalid escape")
            }
            runStart = at
        }
    }

    mutating func hex4() throws(PlaidJSONError) -> UInt32 {
        guard at + 4 <= bytes.count, let v = UInt32(String(decoding: bytes[at..<at + 4], as: UTF8.self), radix: 16)
        else { throw fail("invalid \\u escape") }
        at += 4
        return v
    }
}
