import Foundation

/// Reads a few members of a JSON object straight from its UTF-8 bytes: the members asked for
/// become ``Value``s, every other member is checked and skipped without being built. For
/// ``PlaidRecordFields``, which reads 4 of a Plaid transaction's ~30 members from every Plaid
/// record a write touches (100,000 of them when a Plaid file is imported), where
/// `JSONSerialization` builds every member as Foundation objects and was a tenth of the import.
///
/// It answers as `JSONSerialization.jsonObject(with:)` then a dictionary lookup would, so the
/// categories read from a record do not depend on which of the two read it:
/// - nil for anything `JSONSerialization` refuses or that is not an object: JSON's grammar, with
///   what Foundation's reader also allows (one UTF-8 byte order mark first, one trailing comma in
///   an object or array) and what it also refuses (nesting deeper than 512, a number beyond
///   `Double`'s range, a lone surrogate `\uD800`, a control character inside a string);
/// - a key that appears twice: the last one counts; keys are compared as Swift strings
///   (`"merchant\u005fname"` is `merchant_name`);
/// - bytes that are not UTF-8 inside a string read as U+FFFD, as in the `String` the store
///   reads a column into.
/// The string reading (escapes, surrogate pairs) is this reader's own: the importers' strict
/// parser (`MoneyFlowImporters`' `JSONParser`) is not a dependency of the categories, and
/// refuses what Foundation accepts (a trailing comma, a duplicate key).
enum JSONMemberReader {
    /// A member's value, as far as it is read: strings, arrays and objects in full (an object's
    /// repeated key keeps its last value); numbers, booleans and null only checked.
    indirect enum Value: Equatable, Sendable {
        case string(String)
        case array([Value])
        case object([String: Value])
        case scalar
    }

    /// The values of members `names` of the JSON object in `bytes` (nil where absent), in
    /// `names` order; nil when `bytes` is not a JSON object.
    static func members(_ names: [StaticString], of bytes: UnsafeRawBufferPointer) -> [Value?]? {
        var reader = Reader(b: bytes)
        return try? reader.document(names)
    }

    /// Nesting `JSONSerialization` refuses beyond (the outermost object counts 1).
    static let maxDepth = 512
}

private struct Invalid: Error {}

private struct Reader {
    let b: UnsafeRawBufferPointer
    var i = 0

    static let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")

    // MARK: structure

    mutating func document(_ names: [StaticString]) throws(Invalid) -> [JSONMemberReader.Value?] {
        if b.count >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF { i = 3 }
        skipWhitespace()
        guard i < b.count, b[i] == UInt8(ascii: "{") else { throw Invalid() }
        var found = [JSONMemberReader.Value?](repeating: nil, count: names.count)
        try members(depth: 1, close: UInt8(ascii: "}")) { (r: inout Reader) throws(Invalid) in
            let wanted = try r.key(names)
            try r.colon()
            let v = try r.value(depth: 1, keep: wanted != nil)
            if let wanted { found[wanted] = v }
        }
        skipWhitespace()
        guard i == b.count else { throw Invalid() }
        return found
    }

    /// The elements of the object or array at `i` (its opening byte), each read by `element`;
    /// one trailing comma is allowed before `close`, as Foundation allows it.
    mutating func members(depth: Int, close: UInt8, _ element: (inout Reader) throws(Invalid) -> Void) throws(Invalid) {
        guard depth <= JSONMemberReader.maxDepth else { throw Invalid() }
        i += 1
        skipWhitespace()
        if i < b.count && b[i] == close { i += 1; return }
        while true {
            skipWhitespace()
            try element(&self)
            skipWhitespace()
            guard i < b.count else { throw Invalid() }
            if b[i] == close { i += 1; return }
            guard b[i] == UInt8(ascii: ",") else { throw Invalid() }
            i += 1
            skipWhitespace()
            if i < b.count && b[i] == close { i += 1; return }
        }
    }

    /// A value inside `depth` containers; built only when `keep`.
    mutating func value(depth: Int, keep: Bool) throws(Invalid) -> JSONMemberReader.Value {
        skipWhitespace()
        guard i < b.count else { throw Invalid() }
        switch b[i] {
        case UInt8(ascii: "{"):
            var object: [String: JSONMemberReader.Value] = [:]
            try members(depth: depth + 1, close: UInt8(ascii: "}")) { (r: inout Reader) throws(Invalid) in
                guard r.i < r.b.count, r.b[r.i] == Self.quote else { throw Invalid() }
                r.i += 1
                let k = try r.string(keep: keep)
                try r.colon()
                let v = try r.value(depth: depth + 1, keep: keep)
                if keep { object[k] = v }
            }
            return keep ? .object(object) : .scalar
        case UInt8(ascii: "["):
            var array: [JSONMemberReader.Value] = []
            try members(depth: depth + 1, close: UInt8(ascii: "]")) { (r: inout Reader) throws(Invalid) in
                let v = try r.value(depth: depth + 1, keep: keep)
                if keep { array.append(v) }
            }
            return keep ? .array(array) : .scalar
        case Self.quote:
            i += 1
            let s = try string(keep: keep)
            return keep ? .string(s) : .scalar
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        default: try number()
        }
        return .scalar
    }

    /// The key at `i`: the index of the name in `names` it is, or nil.
    mutating func key(_ names: [StaticString]) throws(Invalid) -> Int? {
        guard i < b.count, b[i] == Self.quote else { throw Invalid() }
        i += 1
        let start = i
        while i < b.count, b[i] != Self.quote, b[i] != Self.backslash, b[i] >= 0x20, b[i] < 0x80 { i += 1 }
        if i < b.count, b[i] == Self.quote {
            // Plain ASCII (nearly every key): compared byte for byte.
            let text = UnsafeRawBufferPointer(rebasing: b[start..<i])
            i += 1
            return names.firstIndex { n in n.utf8CodeUnitCount == text.count && memcmp(n.utf8Start, text.baseAddress!, text.count) == 0 }
        }
        // Escapes or other scalars: compared as Swift strings, as a dictionary lookup would.
        i = start
        let s = try string(keep: true)
        return names.firstIndex { n in n.description == s }
    }

    mutating func colon() throws(Invalid) {
        skipWhitespace()
        guard i < b.count, b[i] == UInt8(ascii: ":") else { throw Invalid() }
        i += 1
    }

    mutating func skipWhitespace() {
        while i < b.count {
            switch b[i] {
            case 0x20, 0x0A, 0x0D, 0x09: i += 1
            default: return
            }
        }
    }

    mutating func literal(_ word: StaticString) throws(Invalid) {
        let n = word.utf8CodeUnitCount
        guard b.count - i >= n, memcmp(b.baseAddress! + i, word.utf8Start, n) == 0 else { throw Invalid() }
        i += n
    }

    /// JSON's number grammar, then `Double`'s range (Foundation refuses `1e400`); only a number
    /// with an exponent or of 300 characters or more can leave that range.
    mutating func number() throws(Invalid) {
        let start = i
        func digits(_ r: inout Reader) -> Int {
            let s = r.i
            while r.i < r.b.count, r.b[r.i] >= 0x30, r.b[r.i] <= 0x39 { r.i += 1 }
            return r.i - s
        }
        if i < b.count && b[i] == UInt8(ascii: "-") { i += 1 }
        guard i < b.count, b[i] >= 0x30, b[i] <= 0x39 else { throw Invalid() }
        if b[i] == 0x30 { i += 1 } else { _ = digits(&self) }
        if i < b.count && b[i] == UInt8(ascii: ".") {
            i += 1
            guard digits(&self) > 0 else { throw Invalid() }
        }
        var exponent = false
        if i < b.count && (b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E")) {
            exponent = true
            i += 1
            if i < b.count && (b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-")) { i += 1 }
            guard digits(&self) > 0 else { throw Invalid() }
        }
        if exponent || i - start >= 300 {
            guard let d = Double(String(decoding: UnsafeRawBufferPointer(rebasing: b[start..<i]), as: UTF8.self)), d.isFinite
            else { throw Invalid() }
        }
    }

    // MARK: strings

    /// The rest of a string after its opening quote, unescaped when `keep` ("" otherwise).
    mutating func string(keep: Bool) throws(Invalid) -> String {
        let start = i
        while i < b.count, b[i] != Self.quote, b[i] != Self.backslash {
            guard b[i] >= 0x20 else { throw Invalid() }
            i += 1
        }
        guard i < b.count else { throw Invalid() }
        if b[i] == Self.quote {
            i += 1
            return keep ? String(decoding: UnsafeRawBufferPointer(rebasing: b[start..<i - 1]), as: UTF8.self) : ""
        }
        // Escapes: the bytes so far, then byte by byte. An escape writes a whole UTF-8 sequence,
        // so bytes that are not UTF-8 around it read as U+FFFD exactly as in the whole text.
        var out: [UInt8] = []
        if keep { out.append(contentsOf: UnsafeRawBufferPointer(rebasing: b[start..<i])) }
        while true {
            guard i < b.count else { throw Invalid() }
            let c = b[i]
            if c == Self.quote { i += 1; break }
            guard c >= 0x20 else { throw Invalid() }
            guard c == Self.backslash else {
                if keep { out.append(c) }
                i += 1
                continue
            }
            i += 1
            guard i < b.count else { throw Invalid() }
            let e = b[i]
            i += 1
            let scalar: UInt32
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalar = UInt32(e)
            case UInt8(ascii: "b"): scalar = 0x08
            case UInt8(ascii: "f"): scalar = 0x0C
            case UInt8(ascii: "n"): scalar = 0x0A
            case UInt8(ascii: "r"): scalar = 0x0D
            case UInt8(ascii: "t"): scalar = 0x09
            case UInt8(ascii: "u"): scalar = try unicodeEscape()
            default: throw Invalid()
            }
            if keep, let s = Unicode.Scalar(scalar) { out.append(contentsOf: UTF8.encode(s)!) }
        }
        return keep ? String(decoding: out, as: UTF8.self) : ""
    }

    /// The scalar of `\uXXXX` (after its `u`), joined with the `\uXXXX` that follows a high
    /// surrogate; a lone surrogate is refused.
    mutating func unicodeEscape() throws(Invalid) -> UInt32 {
        let u = try hex4()
        switch u {
        case 0xD800...0xDBFF:
            guard b.count - i >= 2, b[i] == Self.backslash, b[i + 1] == UInt8(ascii: "u") else { throw Invalid() }
            i += 2
            let low = try hex4()
            guard (0xDC00...0xDFFF).contains(low) else { throw Invalid() }
            return 0x10000 + ((u - 0xD800) << 10) + (low - 0xDC00)
        case 0xDC00...0xDFFF: throw Invalid()
        default: return u
        }
    }

    mutating func hex4() throws(Invalid) -> UInt32 {
        guard b.count - i >= 4 else { throw Invalid() }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = b[i]
            let d: UInt8
            switch c {
            case 0x30...0x39: d = c - 0x30
            case 0x41...0x46: d = c - 0x41 + 10
            case 0x61...0x66: d = c - 0x61 + 10
            default: throw Invalid()
            }
            v = v << 4 | UInt32(d)
            i += 1
        }
        return v
    }
}
