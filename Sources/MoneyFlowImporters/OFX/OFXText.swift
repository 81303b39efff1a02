import Foundation
import MoneyFlowCore

/// Turns the bytes of an OFX file into text, choosing the character set the way banks use it.
///
/// OFX 1.x declares it in its `KEY:VALUE` header (`ENCODING:USASCII|UTF-8`, `CHARSET:1252|NONE`):
/// `CHARSET:1252` (or `ISO-8859-1`) means Windows-1252 bytes, whatever `ENCODING` says. OFX 2.x
/// is XML: UTF-8 unless `<?xml encoding="...">` names 1252/Latin-1. A file that claims ASCII but
/// holds bytes above 0x7F (common) is read as Windows-1252, a superset of ASCII, with a warning.
enum OFXText {
    struct Decoded {
        var text: String
        /// Header fields of an OFX 1.x file (`VERSION` → `102`), or the `<?OFX ...?>` attributes.
        var header: [String: String]
        var warning: String?
    }

    static func decode(_ data: Data, fileName: String) throws -> Decoded {
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        let head = String(decoding: bytes.prefix(2048).map { $0 < 0x80 ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
        let header = headerFields(head)
        let charset = (header["CHARSET"] ?? "").uppercased()
        let encoding = (header["ENCODING"] ?? header["encoding"] ?? "").uppercased()
        let wants1252 =
            ["1252", "WINDOWS-1252", "CP1252", "ISO-8859-1", "8859-1", "LATIN1", "ISO8859-1"].contains(charset)
            || ["WINDOWS-1252", "CP1252", "ISO-8859-1", "LATIN1"].contains(encoding)
        if wants1252 { return Decoded(text: windows1252(bytes), header: header) }
        if let s = String(validating: bytes, as: UTF8.self) { return Decoded(text: s, header: header) }
        if encoding == "UTF-8" || encoding == "UTF8" {
            let line = firstInvalidUTF8Line(bytes)
            throw ImportError(
                .malformed, file: fileName, locator: Locator(line: line),
                problem: "the header says ENCODING:UTF-8 but this line is not valid UTF-8; re-download the file or fix its header")
        }
        return Decoded(
            text: windows1252(bytes), header: header,
            warning: "the file is not UTF-8 and declares no character set; read as Windows-1252")
    }

    /// `KEY:VALUE` lines before the first `<` (OFX 1.x) and `KEY="VALUE"` pairs of `<?OFX ...?>`
    /// and `<?xml ...?>` (OFX 2.x).
    static func headerFields(_ head: String) -> [String: String] {
        var out: [String: String] = [:]
        let sgmlPart = head.prefix { $0 != "<" }
        for line in sgmlPart.split(whereSeparator: \.isNewline) {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let key = line[..<colon].trimmed(.whitespaces).uppercased()
            out[key] = line[line.index(after: colon)...].trimmed(.whitespaces)
        }
        var rest = Substring(head)
        while let open = rest.range(of: "<?") {
            guard let close = rest[open.upperBound...].range(of: "?>") else { break }
            let pi = rest[open.upperBound..<close.lowerBound]
            var scanner = pi.drop { !$0.isWhitespace }
            while let eq = scanner.firstIndex(of: "=") {
                let key = scanner[..<eq].trimmed(.whitespaces).uppercased()
                var after = scanner[scanner.index(after: eq)...].drop { $0.isWhitespace }
                guard let quote = after.first, quote == "\"" || quote == "'" else { break }
                after = after.dropFirst()
                guard let end = after.firstIndex(of: quote) else { break }
                if key == "ENCODING" { out["encoding"] = String(after[..<end]) } else { out[key] = String(after[..<end]) }
                scanner = after[after.index(after: end)...]
            }
            rest = rest[close.upperBound...]
        }
        return out
    }

    static func firstInvalidUTF8Line(_ bytes: [UInt8]) -> Int {
        var line = 1
        var start = 0
        for (i, b) in bytes.enumerated() where b == 0x0A {
            if String(validating: bytes[start..<i], as: UTF8.self) == nil { return line }
            line += 1; start = i + 1
        }
        return line
    }

    /// Windows-1252: Latin-1 except 0x80...0x9F, which hold typographic characters.
    static func windows1252(_ bytes: [UInt8]) -> String {
        var out = String.UnicodeScalarView()
        for b in bytes {
            if b >= 0x80 && b <= 0x9F, let s = Unicode.Scalar(cp1252High[Int(b - 0x80)]) {
                out.append(s)
            } else {
                out.append(Unicode.Scalar(b))
            }
        }
        return String(out)
    }

    /// 0x80...0x9F; undefined positions keep their C1 code (as Windows' own decoder does).
    static let cp1252High: [UInt32] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D, 0x017D, 0x8F,
        0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
    ]
}
