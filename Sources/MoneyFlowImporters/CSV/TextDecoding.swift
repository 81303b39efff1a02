import Foundation
import MoneyFlowCore

/// Text encodings found in bank exports.
public enum TextEncodingName: String, Sendable, Codable, CaseIterable {
    case utf8 = "utf-8"
    case utf16LE = "utf-16le"
    case utf16BE = "utf-16be"
    case gb18030 = "gb18030"

    public init?(label: String) {
        switch label.lowercased().replacingOccurrences(of: "_", with: "-") {
        case "utf-8", "utf8", "utf-8-sig": self = .utf8
        case "utf-16", "utf-16le", "utf16le", "utf16": self = .utf16LE
        case "utf-16be", "utf16be": self = .utf16BE
        case "gb18030", "gbk", "gb2312", "cp936": self = .gb18030
        default: return nil
        }
    }

    /// Foundation encoding for GB 18030 (CFStringEncoding 0x0632 as an NSStringEncoding).
    static let gb18030Foundation = String.Encoding(rawValue: 0x8000_0632)
}

/// Why bytes are not text in any supported encoding.
public struct TextDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    public var line: Int
    public var message: String
    public var description: String { "line \(line): \(message)" }
}

/// Decodes bank-export bytes: BOMs (UTF-8, UTF-16 LE/BE), else UTF-8, else GB18030.
public enum TextDecoder {
    public static func decode(_ data: Data, forced: TextEncodingName? = nil) throws(TextDecodingError) -> (String, TextEncodingName) {
        // Fast path for the common case, validated straight from the input (no byte-array copy
        // of a large export).
        if let start = utf8TextStart(data, forced: forced) {
            return (String(decoding: data[(data.startIndex + start)...], as: UTF8.self), .utf8)
        }
        let bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            return (try utf8(Array(bytes.dropFirst(3)), lineOffset: 0), .utf8)
        }
        if bytes.starts(with: [0xFF, 0xFE]) { return (try utf16(Array(bytes.dropFirst(2)), littleEndian: true), .utf16LE) }
        if bytes.starts(with: [0xFE, 0xFF]) { return (try utf16(Array(bytes.dropFirst(2)), littleEndian: false), .utf16BE) }
        switch forced {
        case .utf8?: return (try utf8(bytes, lineOffset: 0), .utf8)
        case .utf16LE?: return (try utf16(bytes, littleEndian: true), .utf16LE)
        case .utf16BE?: return (try utf16(bytes, littleEndian: false), .utf16BE)
        case .gb18030?: try refuseMixedEncodings(bytes); return (try gb18030(bytes), .gb18030)
        case nil: break
        }
        if let s = String(validating: bytes, as: UTF8.self) { return (s, .utf8) }
        try refuseMixedEncodings(bytes)
        // UTF-16 without BOM: many NULs in alternating positions.
        if bytes.count >= 4 {
            let sample = bytes.prefix(400)
            let evenNul = stride(from: 0, to: sample.count, by: 2).filter { sample[$0] == 0 }.count
            let oddNul = stride(from: 1, to: sample.count, by: 2).filter { sample[$0] == 0 }.count
            if oddNul > sample.count / 4 { return (try utf16(bytes, littleEndian: true), .utf16LE) }
            if evenNul > sample.count / 4 { return (try utf16(bytes, littleEndian: false), .utf16BE) }
        }
        if let s = try? gb18030(bytes) { return (s, .gb18030) }
        let bad = firstInvalidUTF8(bytes)
        throw TextDecodingError(line: lineNumber(bytes, at: bad), message: "not valid UTF-8, UTF-16 or GB18030 text (byte \(bad))")
    }

    /// Where the text starts in `data` (after a UTF-8 byte-order mark) when ``decode(_:forced:)``
    /// reads it as UTF-8 without converting it: no UTF-16 mark, no other encoding forced, and
    /// valid UTF-8 from there on. Checked in place (no String is built), so a reader of a large
    /// export can scan the file's own bytes instead of a copy of them.
    public static func utf8TextStart(_ data: Data, forced: TextEncodingName? = nil) -> Int? {
        let hasUTF16BOM = data.starts(with: [0xFF, 0xFE]) || data.starts(with: [0xFE, 0xFF])
        guard !hasUTF16BOM && (forced == nil || forced == .utf8) else { return nil }
        let start = data.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        let valid: Bool = data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            let bytes = UnsafeBufferPointer(rebasing: raw.bindMemory(to: UInt8.self)[start...])
            return (try? UTF8Span(validating: Span(_unsafeElements: bytes))) != nil
        }
        return valid ? start : nil
    }

    static func utf8(_ bytes: [UInt8], lineOffset: Int) throws(TextDecodingError) -> String {
        if let s = String(validating: bytes, as: UTF8.self) { return s }
        let bad = firstInvalidUTF8(bytes)
        throw TextDecodingError(line: lineNumber(bytes, at: bad), message: "invalid UTF-8 byte sequence (the file is marked UTF-8)")
    }

    static func utf16(_ bytes: [UInt8], littleEndian: Bool) throws(TextDecodingError) -> String {
        guard bytes.count % 2 == 0 else { throw TextDecodingError(line: 1, message: "odd number of bytes in UTF-16 text") }
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var i = 0
        while i < bytes.count {
            units.append(littleEndian ? UInt16(bytes[i]) | UInt16(bytes[i + 1]) << 8 : UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1]))
            i += 2
        }
        var out = String.UnicodeScalarView()
        var line = 1
        var iterator = units.makeIterator()
        var decoder = UTF16()
        loop: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let s): if s == "\n" { line += 1 }; out.append(s)
            case .emptyInput: break loop
            case .error: throw TextDecodingError(line: line, message: "invalid UTF-16 sequence")
            }
        }
        return String(out)
    }

    static func gb18030(_ bytes: [UInt8]) throws(TextDecodingError) -> String {
        // Decode line by line so an error can name its line.
        var result = ""
        result.reserveCapacity(bytes.count)
        var start = 0
        var line = 1
        while start < bytes.count {
            var end = start
            while end < bytes.count && bytes[end] != 0x0A { end += 1 }
            let chunkEnd = min(end + 1, bytes.count)
            let chunk = Data(bytes[start..<chunkEnd])
            guard let s = String(data: chunk, encoding: TextEncodingName.gb18030Foundation) else {
                throw TextDecodingError(line: line, message: "invalid GB18030 byte sequence")
            }
            result += s
            start = chunkEnd; line += 1
        }
        return result
    }

    /// Refuses a file whose lines are in different encodings (rows pasted together from a UTF-8
    /// and a GB18030 export). Decoded as one encoding, the other lines would be stored as
    /// mojibake without a word. A line counts as UTF-8 when it is valid UTF-8 and holds a
    /// three- or four-byte sequence (CJK text in UTF-8); GB18030 text essentially never is.
    static func refuseMixedEncodings(_ bytes: [UInt8]) throws(TextDecodingError) {
        var firstKind: (utf8: Bool, line: Int)?
        var start = 0
        var line = 1
        while start < bytes.count {
            var end = start
            var nonASCII = false, wide = false
            while end < bytes.count && bytes[end] != 0x0A {
                if bytes[end] >= 0x80 { nonASCII = true; if bytes[end] >= 0xE0 { wide = true } }
                end += 1
            }
            if nonASCII {
                let isUTF8 = wide && String(validating: bytes[start..<end], as: UTF8.self) != nil
                if let first = firstKind, first.utf8 != isUTF8 {
                    let (this, other) = isUTF8 ? ("UTF-8", "GB18030/another encoding") : ("not UTF-8 (GB18030?)", "UTF-8")
                    throw TextDecodingError(
                        line: line,
                        message:
                            "text encodings mixed in one file: this line is \(this) but line \(first.line) is \(other); re-save the file in one encoding"
                    )
                }
                if firstKind == nil { firstKind = (isUTF8, line) }
            }
            start = end + 1; line += 1
        }
    }

    /// Offset of the first byte that starts an invalid UTF-8 sequence.
    static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int {
        var i = 0
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            let len: Int
            if b < 0x80 {
                len = 1
            } else if b >= 0xC2 && b <= 0xDF {
                len = 2
            } else if b >= 0xE0 && b <= 0xEF {
                len = 3
            } else if b >= 0xF0 && b <= 0xF4 {
                len = 4
            } else {
                return i
            }
            if i + len > n { return i }
            for k in 1..<max(1, len) where bytes[i + k] & 0xC0 != 0x80 { return i }
            if String(validating: bytes[i..<(i + len)], as: UTF8.self) == nil { return i }
            i += len
        }
        return n
    }

    static func lineNumber(_ bytes: [UInt8], at offset: Int) -> Int {
        var line = 1
        for b in bytes.prefix(offset) where b == 0x0A { line += 1 }
        return line
    }
}
