import Foundation
import Hummingbird

/// A submitted form: its text fields and (for `multipart/form-data`) its uploaded file. The
/// pages read forms only through this, so every POST's CSRF field is checked in one place
/// (``WebSessionMiddleware``) before a handler sees it.
struct WebForm: Sendable {
    var fields: [String: String] = [:]
    var file: (name: String, data: Data)?

    subscript(_ name: String) -> String? {
        guard let v = fields[name]?.trimmingCharacters(in: .whitespacesAndNewlines), !v.isEmpty else { return nil }
        return v
    }

    /// Reads the request's body as a form (at most `limit` bytes).
    static func read(_ request: Request, limit: Int) async throws -> WebForm {
        var request = request
        let buffer = try await request.collectBody(upTo: limit)
        let body = Data(buffer.readableBytesView)
        let type = request.headers[.contentType] ?? ""
        if type.lowercased().hasPrefix("multipart/form-data") {
            guard let boundary = Self.parameter("boundary", of: type) else { throw WebError.badForm("the upload names no boundary") }
            return try multipart(body, boundary: boundary)
        }
        return WebForm(fields: urlEncoded(String(decoding: body, as: UTF8.self)))
    }

    static func urlEncoded(_ text: String) -> [String: String] {
        var out: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ s: Substring) -> String { s.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? "" }
            guard let key = parts.first else { continue }
            out[decode(key)] = parts.count > 1 ? decode(parts[1]) : ""
        }
        return out
    }

    static func parameter(_ name: String, of header: String) -> String? {
        for part in header.split(separator: ";").dropFirst() {
            let kv = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if kv.count == 2, kv[0].lowercased() == name {
                return kv[1].hasPrefix("\"") && kv[1].hasSuffix("\"") && kv[1].count >= 2 ? String(kv[1].dropFirst().dropLast()) : kv[1]
            }
        }
        return nil
    }

    /// `multipart/form-data` (RFC 7578): text parts become fields, the part with a file name the file.
    static func multipart(_ body: Data, boundary: String) throws -> WebForm {
        let delimiter = Data(("--" + boundary).utf8)
        let headerEnd = Data("\r\n\r\n".utf8)
        var form = WebForm()
        var cursor = body.startIndex
        guard let first = body.range(of: delimiter, in: cursor..<body.endIndex) else { throw WebError.badForm("the upload is not a form") }
        cursor = first.upperBound
        while true {
            // After a delimiter: `--` ends the form, CRLF starts a part.
            if body[cursor...].starts(with: Data("--".utf8)) { break }
            guard body[cursor...].starts(with: Data("\r\n".utf8)) else { throw WebError.badForm("the upload is cut short") }
            let partStart = cursor + 2
            guard let headEnd = body.range(of: headerEnd, in: partStart..<body.endIndex),
                let next = body.range(of: Data("\r\n".utf8) + delimiter, in: headEnd.upperBound..<body.endIndex)
            else { throw WebError.badForm("the upload is cut short") }
            let head = String(decoding: body[partStart..<headEnd.lowerBound], as: UTF8.self)
            let content = body[headEnd.upperBound..<next.lowerBound]
            let disposition =
                head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-disposition:") }.map(String.init) ?? ""
            if let name = parameter("name", of: disposition) {
                if let filename = parameter("filename", of: disposition) {
                    if !filename.isEmpty || !content.isEmpty { form.file = (filename, Data(content)) }
                } else {
                    form.fields[name] = String(decoding: content, as: UTF8.self)
                }
            }
            cursor = next.upperBound
        }
        return form
    }
}
