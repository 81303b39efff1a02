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
            var p = JSONParsing(b: bytes, maxDepth: maxDepth)
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

/// One parse: the bytes, the position, and the stacks that build the value (its strings are
/// read in JSONParsing+Strings.swift).
struct JSONParsing {
    static let quote = UInt8(ascii: "\"")
    static let backslash = UInt8(ascii: "\\")

    let b: UnsafeBufferPointer<UInt8>
    let maxDepth: Int
    var i = 0
    var memberStack: [JSONMember] = []
    /// FNV-1a hashes of the keys on `memberStack` (duplicate detection without string compares).
    var keyHashStack: [UInt64] = []
    var valueStack: [JSONValue] = []
    /// Interned object keys: a document repeats the same few keys many times.
    var keyCache: [UInt64: String] = [:]
    /// Arrays whose object elements are left in the bytes (``JSONLazyDocument``): the value of
    /// one of these keys, at any depth, and the top-level array when `lazyTopLevel`.
    var lazyKeys: Set<String> = []
    var lazyTopLevel = false
    /// Start offsets of the elements left in the bytes.
    var elided: Set<Int> = []
    /// Sees each element left in the bytes, parsed, before it is dropped.
    var visit: ((JSONObject) -> Void)?

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
        return "byte 0x" + Self.hex(c)
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
        let v = try value(depth: 0, lazy: lazyTopLevel)
        skipWhitespace()
        if i < b.count { throw fail("unexpected \(describeByte(at: i)) after the end of the JSON value", at: i) }
        return v
    }

    /// The one value that starts at `offset` (an earlier parse of the same bytes found it
    /// there), without looking at what follows it.
    mutating func value(at offset: Int) throws(JSONParseError) -> JSONValue {
        i = offset
        return try value(depth: 0)
    }

    @inline(__always)
    mutating func skipWhitespace() {
        while i < b.count {
            let c = b[i]
            if c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 { i += 1 } else { return }
        }
    }

    /// `lazy`: an array's object elements are left in the bytes.
    mutating func value(depth: Int, lazy: Bool = false) throws(JSONParseError) -> JSONValue {
        guard i < b.count else { throw unexpected("a value") }
        switch b[i] {
        case UInt8(ascii: "{"): return .object(try object(depth: depth + 1))
        case UInt8(ascii: "["): return try array(depth: depth + 1, lazy: lazy)
        case Self.quote: return .string(try string())
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
            guard i < b.count, b[i] == Self.quote else { throw unexpected("a string key") }
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
            let lazy = !lazyKeys.isEmpty && i < b.count && b[i] == UInt8(ascii: "[") && lazyKeys.contains(key)
            let v = try value(depth: depth, lazy: lazy)
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

    mutating func array(depth: Int, lazy: Bool) throws(JSONParseError) -> JSONValue {
        if depth > maxDepth { throw fail("nesting deeper than \(maxDepth) levels", at: i) }
        i += 1 // [
        skipWhitespace()
        if i < b.count && b[i] == UInt8(ascii: "]") { i += 1; return .array([]) }
        let base = valueStack.count
        defer { valueStack.removeSubrange(base...) }
        while true {
            skipWhitespace()
            let start = i
            let v = try value(depth: depth)
            if lazy, case .object(let o) = v {
                // Seen once, then only its place is kept: an empty object at its offset.
                visit?(o)
                elided.insert(start)
                valueStack.append(.object(JSONObject([], offset: start)))
            } else {
                valueStack.append(v)
            }
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
            if c == Self.quote {
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
            if c == Self.backslash || c < 0x20 || c >= 0x80 { break }
            h = (h ^ UInt64(c)) &* 0x100_0000_01b3
            k += 1
        }
        let key = try string()
        return (key, JSONParsing.fnv1a(key.utf8))
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
}

extension String {
    /// At most 60 characters, for messages.
    var jsonExcerpt: String { count <= 60 ? self : String(prefix(57)) + "..." }
}
