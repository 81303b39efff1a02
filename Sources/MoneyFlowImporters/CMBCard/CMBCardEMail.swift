import Foundation
import MoneyFlowCore

/// The HTML of a saved e-mail (`.eml`, RFC 5322 + MIME) or of a saved page, as text.
///
/// CMB sends the e-statement as a `text/html` part, usually GB2312/GBK in base64, sometimes
/// UTF-8 or quoted-printable, often inside `multipart/alternative` or `multipart/related`. Only
/// what that needs is read: header unfolding, `Content-Type` (type, `boundary`, `charset`),
/// `Content-Transfer-Encoding`, nested multiparts. Text is decoded by the CSV importer's
/// ``TextDecoder`` (GB2312 and GBK read as their superset GB 18030).
enum CMBCardEMail {
    struct Part {
        var headers: [String: String] // lower-cased names, unfolded values
        var body: ArraySlice<UInt8>
    }

    /// True when the bytes start like a stored e-mail: header lines, one of them `Content-Type`,
    /// and a `MIME-Version` or `From`/`Subject` line.
    static func looksLikeEMail(_ data: Data) -> Bool {
        let head = [UInt8](data.prefix(16 * 1024))
        guard let first = head.first, first != UInt8(ascii: "<"), first != UInt8(ascii: " ") else { return false }
        let part = split(head[...])
        guard let type = part.headers["content-type"], !type.isEmpty else { return false }
        return part.headers["mime-version"] != nil || part.headers["from"] != nil || part.headers["subject"] != nil
    }

    /// Headers and body of one message or part (the body starts after the first empty line).
    static func split(_ bytes: ArraySlice<UInt8>) -> Part {
        var headers: [String: String] = [:]
        var i = bytes.startIndex
        var lastName: String? = nil
        while i < bytes.endIndex {
            var end = i
            while end < bytes.endIndex && bytes[end] != 0x0A { end += 1 }
            var line = bytes[i..<end]
            if line.last == 0x0D { line = line.dropLast() }
            i = min(end + 1, bytes.endIndex)
            if line.isEmpty { return Part(headers: headers, body: bytes[i...]) }
            let text = String(decoding: line, as: UTF8.self)
            if let f = line.first, f == 0x20 || f == 0x09, let name = lastName {
                headers[name, default: ""] += " " + text.trimmingCharacters(in: .whitespaces)
            } else if let colon = text.firstIndex(of: ":") {
                let name = text[..<colon].lowercased()
                guard !name.isEmpty, !name.contains(" ") else { return Part(headers: headers, body: bytes[bytes.endIndex...]) }
                headers[name] = String(text[text.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
                lastName = name
            } else {
                return Part(headers: headers, body: bytes[bytes.endIndex...]) // not a header block
            }
        }
        return Part(headers: headers, body: bytes[bytes.endIndex...])
    }

    /// `text/html; charset="gb2312"` as (`text/html`, [`charset`: `gb2312`]).
    static func contentType(_ value: String?) -> (type: String, params: [String: String]) {
        let pieces = (value ?? "text/plain").split(separator: ";")
        var params: [String: String] = [:]
        for p in pieces.dropFirst() {
            guard let eq = p.firstIndex(of: "=") else { continue }
            let key = p[..<eq].trimmingCharacters(in: .whitespaces).lowercased()
            var v = p[p.index(after: eq)...].trimmingCharacters(in: .whitespaces)
            if v.count >= 2, v.hasPrefix("\""), v.hasSuffix("\"") { v = String(v.dropFirst().dropLast()) }
            params[key] = v
        }
        return ((pieces.first.map(String.init) ?? "").trimmingCharacters(in: .whitespaces).lowercased(), params)
    }

    /// The first `text/html` part, depth first: its decoded bytes and its charset label.
    static func htmlPart(_ bytes: ArraySlice<UInt8>, depth: Int = 0) -> (bytes: Data, charset: String?)? {
        guard depth < 8 else { return nil }
        let part = split(bytes)
        let (type, params) = contentType(part.headers["content-type"])
        if type.hasPrefix("multipart/"), let boundary = params["boundary"], !boundary.isEmpty {
            for sub in parts(part.body, boundary: boundary) {
                if let found = htmlPart(sub, depth: depth + 1) { return found }
            }
            return nil
        }
        guard type == "text/html" else { return nil }
        let encoding = (part.headers["content-transfer-encoding"] ?? "").trimmingCharacters(in: .whitespaces).lowercased()
        let body: Data
        switch encoding {
        case "base64": body = Data(base64Encoded: Data(part.body), options: .ignoreUnknownCharacters) ?? Data()
        case "quoted-printable": body = quotedPrintable(part.body)
        default: body = Data(part.body)
        }
        return (body, params["charset"])
    }

    /// The parts between `--boundary` lines (up to `--boundary--`).
    static func parts(_ body: ArraySlice<UInt8>, boundary: String) -> [ArraySlice<UInt8>] {
        let marker = Array(("--" + boundary).utf8)
        var out: [ArraySlice<UInt8>] = []
        var start: Int? = nil
        var i = body.startIndex
        while i < body.endIndex {
            var end = i
            while end < body.endIndex && body[end] != 0x0A { end += 1 }
            let line = body[i..<end]
            if line.starts(with: marker) {
                if let s = start { out.append(body[s..<max(s, i - 1)]) }
                let rest = line.dropFirst(marker.count)
                if rest.starts(with: [UInt8(ascii: "-"), UInt8(ascii: "-")]) { return out }
                start = min(end + 1, body.endIndex)
            }
            i = min(end + 1, body.endIndex)
        }
        if let s = start { out.append(body[s...]) }
        return out
    }

    /// Quoted-printable: `=XX` bytes, `=` at a line end joins lines.
    static func quotedPrintable(_ b: ArraySlice<UInt8>) -> Data {
        var out = Data()
        out.reserveCapacity(b.count)
        var i = b.startIndex
        func hex(_ c: UInt8) -> UInt8? {
            switch c {
            case 48...57: return c - 48
            case 65...70: return c - 55
            case 97...102: return c - 87
            default: return nil
            }
        }
        while i < b.endIndex {
            let c = b[i]
            if c == UInt8(ascii: "=") {
                if i + 1 < b.endIndex && b[i + 1] == 0x0A { i += 2; continue }
                if i + 2 < b.endIndex && b[i + 1] == 0x0D && b[i + 2] == 0x0A { i += 3; continue }
                if i + 2 < b.endIndex, let h = hex(b[i + 1]), let l = hex(b[i + 2]) { out.append(h << 4 | l); i += 3; continue }
            }
            out.append(c); i += 1
        }
        return out
    }

    /// `charset=` of a `<meta>` near the top of an HTML page.
    static func metaCharset(_ data: Data) -> String? {
        let head = String(decoding: data.prefix(4096), as: UTF8.self).lowercased()
        guard let r = head.range(of: "charset=") else { return nil }
        let value = head[r.upperBound...].drop { $0 == "\"" || $0 == "'" || $0 == " " }
        let label = value.prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
        return label.isEmpty ? nil : String(label)
    }

    /// Bytes as text in the named charset (nil = detect: UTF-8, else GB 18030).
    static func decode(_ data: Data, charset: String?, file: String) throws(ImportError) -> String {
        var forced: TextEncodingName? = nil
        if let charset {
            guard let name = TextEncodingName(label: charset) else {
                throw ImportError(
                    .unrecognized, file: file,
                    problem: "unsupported charset '\(charset)' (CMB e-statements are GB2312/GBK/GB18030 or UTF-8): save the page again as UTF-8")
            }
            forced = name
        }
        do { return try TextDecoder.decode(data, forced: forced).0 } catch {
            throw ImportError(
                .malformed, file: file, problem: "the HTML is not valid \(charset ?? "UTF-8 or GB18030") text (\(error.description)): save the e-mail again")
        }
    }
}
