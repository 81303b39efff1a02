import Foundation

// The strings of a JSON document: escapes, surrogate pairs and UTF-8 checked byte by byte.
extension JSONParsing {
    mutating func string() throws(JSONParseError) -> String {
        i += 1 // opening quote
        let start = i
        // Fast path: no escapes.
        while i < b.count {
            let c = b[i]
            if c == Self.quote {
                let s = String(decoding: UnsafeBufferPointer(rebasing: b[start..<i]), as: UTF8.self)
                i += 1
                return s
            }
            if c == Self.backslash { break }
            if c < 0x20 {
                throw fail(
                    "unescaped control character (byte 0x\(Self.hex(c))) in a string", at: i)
            }
            if c < 0x80 { i += 1 } else { try skipUTF8Sequence() }
        }
        guard i < b.count else { throw fail("unterminated string", at: b.count) }
        // Slow path: copy what we have and decode escapes.
        var buf: [UInt8] = Array(UnsafeBufferPointer(rebasing: b[start..<i]))
        while i < b.count {
            let c = b[i]
            if c == Self.quote {
                i += 1
                return String(decoding: buf, as: UTF8.self)
            }
            if c == Self.backslash {
                let escStart = i
                i += 1
                guard i < b.count else { throw fail("unterminated string", at: b.count) }
                let e = b[i]
                i += 1
                switch e {
                case Self.quote: buf.append(Self.quote)
                case Self.backslash: buf.append(Self.backslash)
                case UInt8(ascii: "/"): buf.append(UInt8(ascii: "/"))
                case UInt8(ascii: "b"): buf.append(0x08)
                case UInt8(ascii: "f"): buf.append(0x0C)
                case UInt8(ascii: "n"): buf.append(0x0A)
                case UInt8(ascii: "r"): buf.append(0x0D)
                case UInt8(ascii: "t"): buf.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if scalar >= 0xD800 && scalar <= 0xDBFF {
                        guard i + 1 < b.count, b[i] == Self.backslash, b[i + 1] == UInt8(ascii: "u") else {
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
                    "unescaped control character (byte 0x\(Self.hex(c))) in a string", at: i)
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

    /// A byte as two upper-case hex digits, for messages (`0A`).
    static func hex(_ c: UInt8) -> String {
        let digits = String(c, radix: 16, uppercase: true)
        return digits.count >= 2 ? digits : "0" + digits
    }
}
