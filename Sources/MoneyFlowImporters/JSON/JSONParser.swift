import Foundation

/// Why bytes are not a JSON document. `offset` is the 0-based byte offset of the offending
/// byte (the input length for a truncated document); `line` and `column` are 1-based
/// (column counted in bytes).
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    public var offset: Int
    public var line: Int
    public var column: Int
    public var message: String

    public init(offset: Int, line: Int, column: Int, message: String) {
        self.offset = offset; self.line = line; self.column = column; self.message = message
    }

    public var description: String { "malformed JSON at byte \(offset) (line \(line), column \(column)): \(message)" }
}

/// A strict RFC 8259 JSON parser over UTF-8 bytes.
///
/// - numbers keep their source text (``JSONValue/number(_:)``), never pass through `Double`;
/// - objects keep member order; a duplicate key is an error;
/// - nesting deeper than `maxDepth` arrays/objects is an error (no stack exhaustion);
/// - invalid UTF-8, unescaped control characters, lone surrogates, leading zeros, trailing
///   commas, comments, `NaN`/`Infinity` and trailing content are errors;
/// - one leading UTF-8 byte order mark is skipped (RFC 8259 §8.1 allows ignoring it).
public struct JSONParser: Sendable {
    public static let defaultMaxDepth = 256
    public var maxDepth: Int

    public init(maxDepth: Int = JSONParser.defaultMaxDepth) { self.maxDepth = maxDepth }

    public func parse(_ data: Data) throws(JSONParseError) -> JSONValue {
        let result: Result<JSONValue, JSONParseError> = data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var p = Parsing(b: bytes, maxDepth: maxDepth)
            do throws(JSONParseError) { return .success(try p.document()) } catch { return .failure(error) }
        }
        return try result.get()
    }

    public func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try parse(Data(text.utf8))
    }

    /// Parses with the default depth limit.
    public static func parse(_ data: Data) throws(JSONParseError) -> JSONValue {
        try JSONParser().parse(data)
    }

    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try JSONParser().parse(text)
    }
}

private let quote = UInt8(ascii: "\"")
private let backslash = UInt8(ascii: "\\")

private struct Parsing {
    let b: UnsafeBufferPointer<UInt8>
    let maxDepth: Int
    var i = 0
    var memberStack: [JSONMember] = []
    /// FNV-1a hashes of the keys on `memberStack` (duplicate detection without string compares).
    var keyHashStack: [UInt64] = []
    var valueStack: [JSONValue] = []
    /// Interned object keys: a document repeats the same few keys many times.
    var keyCache: [UInt64: String] = [:]

    init(b: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.b = b; self.maxDepth = maxDepth
        memberStack.reserveCapacity(256)
        keyHashStack.reserveCapacity(256)
        valueStack.reserveCapacity(256)
    }

    // MARK: errors

    func fail(_ message: String, at offset: Int) -> JSONParseError {
        let end = min(offset, b.count)
        var line = 1
        var lineStart = 0
        var k = 0
        while k < end {
            if b[k] == 0x0A { line += 1; lineStart = k + 1 }
            k += 1
        }
        return JSONParseError(offset: offset, line: line, column: offset - lineStart + 1, message: message)
    }

    func describeByte(at k: Int) -> String {
        guard k < b.count else { return "end of input" }
        let c = b[k]
        if c >= 0x21 && c < 0x7F { return "'\(Character(Unicode.Scalar(c)))'" }
        if c == 0x20 { return "a space" }
        return "byte 0x" + String(c, radix: 16, uppercase: true).jsonLeftPadded(2)
    }

    func unexpected(_ expected: String) -> JSONParseError {
        if i >= b.count { return fail("unexpected end of input, expected \(expected)", at: b.count) }
        return fail("unexpected \(describeByte(at: i)), expected \(expected)", at: i)
    }

    // MARK: structure

    mutating func document() throws(JSONParseError) -> JSONValue {
        if b.count >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF { i = 3 }
        skipWhitespace()
        if i >= b.count { throw fail("empty document", at: i) }
        let v = try value(depth: 0)
        skipWhitespace()
        if i < b.count { throw fail("unexpected \(describeByte(at: i)) after the end of the JSON value", at: i) }
        return v
    }

    @inline(__always)
    mutating func skipWhitespace() {
        while i < b.count {
            let c = b[i]
            if c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 { i += 1 } else { return }
        }
    }

    mutating func value(depth: Int) throws(JSONParseError) -> JSONValue {
        guard i < b.count else { throw unexpected("a value") }
        switch b[i] {
        case UInt8(ascii: "{"): return .object(try object(depth: depth + 1))
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case quote: return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw unexpected("a value")
        }
    }

    mutating func literal(_ word: StaticString) throws(JSONParseError) {
        let start = i
        let n = word.utf8CodeUnitCount
        let w = word.utf8Start
        for k in 0..<n {
            guard i < b.count, b[i] == w[k] else {
                throw fail("invalid literal, expected '\(word)'", at: i < b.count ? i : start)
            }
            i += 1
        }
    }

    mutating func object(depth: Int) throws(JSONParseError) -> JSONObject {
        let start = i
        if depth > maxDepth { throw fail("nesting deeper than \(maxDepth) levels", at: start) }
        i += 1 // {
        skipWhitespace()
        if i < b.count && b[i] == UInt8(ascii: "}") { i += 1; return JSONObject([], offset: start) }
        // Members are gathered on a stack shared by all objects (no per-object regrowth).
        let base = memberStack.count
        var seen: Set<String>? = nil
        defer {
            memberStack.removeSubrange(base...)
            keyHashStack.removeSubrange(base...)
        }
        while true {
            skipWhitespace()
            guard i < b.count, b[i] == quote else { throw unexpected("a string key") }
            let keyOffset = i
            let (key, hash) = try objectKey()
            // Duplicate keys: hashes first for ordinary objects, a set for big ones.
            if keyHashStack.count - base < 32 {
                var k = base
                while k < keyHashStack.count {
                    if keyHashStack[k] == hash && memberStack[k].key == key {
                        throw fail("duplicate key \"\(key.jsonExcerpt)\"", at: keyOffset)
                    }
                    k += 1
                }
            } else {
                if seen == nil {
                    seen = Set(minimumCapacity: 64)
                    for k in base..<memberStack.count { seen!.insert(memberStack[k].key) }
                }
                if !seen!.insert(key).inserted {
                    throw fail("duplicate key \"\(key.jsonExcerpt)\"", at: keyOffset)
                }
            }
            skipWhitespace()
            guard i < b.count, b[i] == UInt8(ascii: ":") else { throw unexpected("':' after an object key") }
            i += 1
            skipWhitespace()
            let v = try value(depth: depth)
            // Pushed together, after the value (a nested object uses the stacks meanwhile).
            memberStack.append(JSONMember(key: key, value: v))
            keyHashStack.append(hash)
            skipWhitespace()
            guard i < b.count else { throw unexpected("',' or '}'") }
            if b[i] == UInt8(ascii: ",") { i += 1; continue }
            if b[i] == UInt8(ascii: "}") {
                i += 1
                return JSONObject(Array(memberStack[base...]), offset: start)
            }
            throw unexpected("',' or '}'")
        }
    }

    mutating func array(depth: Int) throws(JSONParseError) -> JSONValue {
        if depth > maxDepth { throw fail("nesting deeper than \(maxDepth) levels", at: i) }
        i += 1 // [
        skipWhitespace()
        if i < b.count && b[i] == UInt8(ascii: "]") { i += 1; return .array([]) }
        let base = valueStack.count
        defer { valueStack.removeSubrange(base...) }
        while true {
            skipWhitespace()
            let v = try value(depth: depth)
            valueStack.append(v)
            skipWhitespace()
            guard i < b.count else { throw unexpected("',' or ']'") }
            if b[i] == UInt8(ascii: ",") { i += 1; continue }
            if b[i] == UInt8(ascii: "]") {
                i += 1
                return .array(Array(valueStack[base...]))
            }
            throw unexpected("',' or ']'")
        }
    }

    static func fnv1a<C: Sequence>(_ bytes: C) -> UInt64 where C.Element == UInt8 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for c in bytes { h = (h ^ UInt64(c)) &* 0x100_0000_01b3 }
        return h
    }

    /// An object key and its hash; keys without escapes are interned.
    mutating func objectKey() throws(JSONParseError) -> (String, UInt64) {
        let open = i
        var k = i + 1
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        while k < b.count {
            let c = b[k]
            if c == quote {
                let slice = UnsafeBufferPointer(rebasing: b[(open + 1)..<k])
                if let cached = keyCache[h], cached.utf8.count == slice.count,
                    cached.utf8.withContiguousStorageIfAvailable({ c in
                        slice.isEmpty || memcmp(c.baseAddress!, slice.baseAddress!, slice.count) == 0
                    }) == true
                {
                    i = k + 1
                    return (cached, h)
                }
                let key = try string() // validates UTF-8, reports errors at the right offset
                if keyCache.count < 4096 { keyCache[h] = key }
                return (key, h)
            }
            if c == backslash || c < 0x20 || c >= 0x80 { break }
            h = (h ^ UInt64(c)) &* 0x100_0000_01b3
            k += 1
        }
        let key = try string()
        return (key, Parsing.fnv1a(key.utf8))
    }

    // MARK: numbers

    mutating func number() throws(JSONParseError) -> String {
        let start = i
        if b[i] == UInt8(ascii: "-") { i += 1 }
        guard i < b.count, isDigit(b[i]) else { throw unexpected("a digit") }
        if b[i] == UInt8(ascii: "0") {
            i += 1
            if i < b.count && isDigit(b[i]) { throw fail("leading zero in a number", at: i - 1) }
        } else {
            while i < b.count && isDigit(b[i]) { i += 1 }
        }
        if i < b.count && b[i] == UInt8(ascii: ".") {
            i += 1
            guard i < b.count, isDigit(b[i]) else { throw unexpected("a digit after the decimal point") }
            while i < b.count && isDigit(b[i]) { i += 1 }
        }
        if i < b.count && (b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E")) {
            i += 1
            if i < b.count && (b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-")) { i += 1 }
            guard i < b.count, isDigit(b[i]) else { throw unexpected("a digit in the exponent") }
            while i < b.count && isDigit(b[i]) { i += 1 }
        }
        return String(decoding: UnsafeBufferPointer(rebasing: b[start..<i]), as: UTF8.self)
    }

    @inline(__always) func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }

    // MARK: strings

    mutating func string() throws(JSONParseError) -> String {
        i += 1 // opening quote
        let start = i
        // Fast path: no escapes.
        while i < b.count {
            let c = b[i]
            if c == quote {
                let s = String(decoding: UnsafeBufferPointer(rebasing: b[start..<i]), as: UTF8.self)
                i += 1
                return s
            }
            if c == backslash { break }
            if c < 0x20 {
                throw fail(
                    "unescaped control character (byte 0x\(String(c, radix: 16, uppercase: true).jsonLeftPadded(2))) in a string", at: i)
            }
            if c < 0x80 { i += 1 } else { try skipUTF8Sequence() }
        }
        guard i < b.count else { throw fail("unterminated string", at: b.count) }
        // Slow path: copy what we have and decode escapes.
        var buf: [UInt8] = Array(UnsafeBufferPointer(rebasing: b[start..<i]))
        while i < b.count {
            let c = b[i]
            if c == quote {
                i += 1
                return String(decoding: buf, as: UTF8.self)
            }
            if c == backslash {
                let escStart = i
                i += 1
                guard i < b.count else { throw fail("unterminated string", at: b.count) }
                let e = b[i]
                i += 1
                switch e {
                case quote: buf.append(quote)
                case backslash: buf.append(backslash)
                case UInt8(ascii: "/"): buf.append(UInt8(ascii: "/"))
                case UInt8(ascii: "b"): buf.append(0x08)
                case UInt8(ascii: "f"): buf.append(0x0C)
                case UInt8(ascii: "n"): buf.append(0x0A)
                case UInt8(ascii: "r"): buf.append(0x0D)
                case UInt8(ascii: "t"): buf.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if scalar >= 0xD800 && scalar <= 0xDBFF {
                        guard i + 1 < b.count, b[i] == backslash, b[i + 1] == UInt8(ascii: "u") else {
                            throw fail("lone high surrogate \\u\(String(scalar, radix: 16, uppercase: true)) in a string", at: escStart)
                        }
                        i += 2
                        let low = try hex4()
                        guard low >= 0xDC00 && low <= 0xDFFF else {
                            throw fail("high surrogate not followed by a low surrogate", at: escStart)
                        }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if scalar >= 0xDC00 && scalar <= 0xDFFF {
                        throw fail("lone low surrogate \\u\(String(scalar, radix: 16, uppercase: true)) in a string", at: escStart)
                    }
                    appendUTF8(scalar, to: &buf)
                default:
                    throw fail("invalid escape \\\(describeByte(at: i - 1)) in a string", at: escStart)
                }
                continue
            }
            if c < 0x20 {
                throw fail(
                    "unescaped control character (byte 0x\(String(c, radix: 16, uppercase: true).jsonLeftPadded(2))) in a string", at: i)
            }
            if c < 0x80 {
                buf.append(c); i += 1
            } else {
                let s = i
                try skipUTF8Sequence()
                buf.append(contentsOf: UnsafeBufferPointer(rebasing: b[s..<i]))
            }
        }
        throw fail("unterminated string", at: b.count)
    }

    mutating func hex4() throws(JSONParseError) -> UInt32 {
        var v: UInt32 = 0
        for _ in 0..<4 {
            guard i < b.count else { throw fail("unterminated \\u escape", at: b.count) }
            let c = b[i]
            let d: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - 0x30)
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(c - 0x61 + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(c - 0x41 + 10)
            default: throw fail("invalid hex digit \(describeByte(at: i)) in a \\u escape", at: i)
            }
            v = v << 4 | d
            i += 1
        }
        return v
    }

    func appendUTF8(_ v: UInt32, to buf: inout [UInt8]) {
        switch v {
        case 0..<0x80: buf.append(UInt8(v))
        case 0x80..<0x800:
            buf.append(UInt8(0xC0 | (v >> 6))); buf.append(UInt8(0x80 | (v & 0x3F)))
        case 0x800..<0x10000:
            buf.append(UInt8(0xE0 | (v >> 12))); buf.append(UInt8(0x80 | ((v >> 6) & 0x3F)))
            buf.append(UInt8(0x80 | (v & 0x3F)))
        default:
            buf.append(UInt8(0xF0 | (v >> 18))); buf.append(UInt8(0x80 | ((v >> 12) & 0x3F)))
            buf.append(UInt8(0x80 | ((v >> 6) & 0x3F))); buf.append(UInt8(0x80 | (v & 0x3F)))
        }
    }

    /// Validates one multi-byte UTF-8 sequence starting at `i` (a byte >= 0x80) and skips it.
    mutating func skipUTF8Sequence() throws(JSONParseError) {
        let c0 = b[i]
        let len: Int
        var lo: UInt8 = 0x80, hi: UInt8 = 0xBF
        switch c0 {
        case 0xC2...0xDF: len = 2
        case 0xE0: len = 3; lo = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: len = 3
        case 0xED: len = 3; hi = 0x9F // no UTF-16 surrogates
        case 0xF0: len = 4; lo = 0x90
        case 0xF1...0xF3: len = 4
        case 0xF4: len = 4; hi = 0x8F
        default: throw fail("invalid UTF-8 byte 0x\(String(c0, radix: 16, uppercase: true))", at: i)
        }
        guard i + len <= b.count else { throw fail("truncated UTF-8 sequence", at: i) }
        let c1 = b[i + 1]
        guard c1 >= lo && c1 <= hi else { throw fail("invalid UTF-8 sequence", at: i) }
        for k in 2..<len {
            guard b[i + k] & 0xC0 == 0x80 else { throw fail("invalid UTF-8 sequence", at: i) }
        }
        i += len
    }
}

extension String {
    fileprivate func jsonLeftPadded(_ n: Int) -> String { count >= n ? self : String(repeating: "0", count: n - count) + self }
    /// At most 60 characters, for messages.
    var jsonExcerpt: String { count <= 60 ? self : String(prefix(57)) + "..." }
}
