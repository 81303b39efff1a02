import Foundation

/// The one JSON string writer (quotes included), used by the CLI's JSON output and by the raw
/// audit fields importers store.
///
/// U+2028 and U+2029 are legal inside JSON strings (RFC 8259) but end a line in JavaScript
/// before ES2019, so the CLI's output escapes them, while stored raw fields keep them literal:
/// both are correct JSON, and each caller keeps the exact bytes it always wrote (raw fields
/// are stored and compared, so changing them would make re-imports look like edits).
public enum JSONString {
    public enum LineSeparators: Sendable { case literal, escaped }

    /// `s` as a JSON string literal: `"` `\` and C0 controls escaped (`\n` `\r` `\t` short,
    /// others `\u00XX`), U+2028/2029 as `lineSeparators` says, everything else as is.
    public static func quoted(_ s: String, lineSeparators: LineSeparators) -> String {
        // Most text needs no escaping at all.
        let escapesLS = lineSeparators == .escaped
        if s.utf8.allSatisfy({ $0 >= 0x20 && $0 != 0x22 && $0 != 0x5C && !(escapesLS && $0 == 0xE2) }) { return "\"" + s + "\"" }
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 || (escapesLS && (u.value == 0x2028 || u.value == 0x2029)) {
                    let hex = String(u.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out + "\""
    }

    /// Appends ``quoted(_:lineSeparators:)`` of `s` to `out` as UTF-8: text that needs no
    /// escaping is copied straight from its bytes (an importer writes every cell of every row).
    public static func appendQuoted(_ s: String, lineSeparators: LineSeparators, to out: inout [UInt8]) {
        var s = s
        s.withUTF8 { appendQuoted(utf8: $0, lineSeparators: lineSeparators, to: &out) }
    }

    /// ``appendQuoted(_:lineSeparators:to:)`` of the text whose valid UTF-8 is `bytes` (a cell
    /// read in place from a file's bytes, without a String of its own).
    public static func appendQuoted(utf8 bytes: UnsafeBufferPointer<UInt8>, lineSeparators: LineSeparators, to out: inout [UInt8]) {
        guard !needsEscaping(utf8: bytes, lineSeparators: lineSeparators) else {
            out.append(contentsOf: quoted(String(decoding: bytes, as: UTF8.self), lineSeparators: lineSeparators).utf8)
            return
        }
        out.append(0x22); out.append(contentsOf: bytes); out.append(0x22)
    }

    /// False when ``quoted(_:lineSeparators:)`` of the text whose UTF-8 is `bytes` is the bytes
    /// themselves between two quotes (a writer may then copy them as they are).
    public static func needsEscaping(utf8 bytes: UnsafeBufferPointer<UInt8>, lineSeparators: LineSeparators) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        let escapesLS = lineSeparators == .escaped
        // Eight bytes at a time (every cell of every row of an import is asked): a byte below
        // 0x20, or equal to `"` `\` (or 0xE2), makes one of these words have a zero byte.
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        func hasZero(_ x: UInt64) -> Bool { (x &- ones) & ~x & highs != 0 }
        func hasBelow0x20(_ x: UInt64) -> Bool { (x &- ones &* 0x20) & ~x & highs != 0 }
        var i = 0
        while i + 8 <= bytes.count {
            let w = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
            if hasBelow0x20(w) || hasZero(w ^ (ones &* 0x22)) || hasZero(w ^ (ones &* 0x5C)) || (escapesLS && hasZero(w ^ (ones &* 0xE2))) {
                return true
            }
            i += 8
        }
        while i < bytes.count {
            let b = bytes[i]
            if b < 0x20 || b == 0x22 || b == 0x5C || (escapesLS && b == 0xE2) { return true }
            i += 1
        }
        return false
    }
}
