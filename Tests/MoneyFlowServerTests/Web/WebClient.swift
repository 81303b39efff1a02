import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting

@testable import MoneyFlowServer

/// A browser against the in-process router: keeps the session cookie, reads each page's CSRF
/// token, posts forms (URL-encoded or multipart) the way a browser does.
final class WebClient: @unchecked Sendable {
    let server: InProcessServer
    var cookie: String?
    var csrf: String?
    var headers: [String: String] = [:]

    init(_ server: InProcessServer) { self.server = server }

    struct Page {
        var status: Int
        var html: String
        var headers: HTTPFields
        var location: String? { headers[.location] }
    }

    func get(_ path: String) async throws -> Page {
        try await send(.get, path, body: nil, contentType: nil)
    }

    /// Posts `fields` URL-encoded; the page's CSRF token is added unless `csrf: false`.
    func post(_ path: String, _ fields: [(String, String)], csrf addToken: Bool = true) async throws -> Page {
        var all = fields
        if addToken, let csrf { all.append(("csrf", csrf)) }
        let body = all.map { k, v in
            k + "=" + (v.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
        }.joined(separator: "&")
        return try await send(.post, path, body: Data(body.utf8), contentType: "application/x-www-form-urlencoded")
    }

    /// Posts a multipart form with one file, as `<input type=file>` does.
    func upload(_ path: String, file: String, data: Data, fields: [(String, String)]) async throws -> Page {
        let boundary = "----moneyflowtest\(UUID().uuidString)"
        var body = Data()
        var all = fields
        if let csrf { all.append(("csrf", csrf)) }
        for (k, v) in all {
            body += Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(k)\"\r\n\r\n\(v)\r\n".utf8)
        }
        body += Data(
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"\(file)\"\r\nContent-Type: text/csv\r\n\r\n".utf8)
        body += data
        body += Data("\r\n--\(boundary)--\r\n".utf8)
        return try await send(.post, path, body: body, contentType: "multipart/form-data; boundary=\(boundary)")
    }

    private func send(_ method: HTTPRequest.Method, _ path: String, body: Data?, contentType: String?) async throws -> Page {
        var fields = HTTPFields()
        if let cookie { fields[.cookie] = "\(WebSessionMiddleware.cookieName)=\(cookie)" }
        if let contentType { fields[.contentType] = contentType }
        for (k, v) in headers { fields[HTTPField.Name(k)!] = v }
        let response = try await server.client.execute(
            uri: path, method: method, headers: fields, body: body.map { ByteBuffer(bytes: $0) })
        let html = String(decoding: response.body.readableBytesView, as: UTF8.self)
        if let set = response.headers[.setCookie], let value = set.split(separator: ";").first?.split(separator: "=", maxSplits: 1).last {
            cookie = value.isEmpty ? nil : String(value)
        }
        if let token = Self.csrf(in: html) { csrf = token }
        return Page(status: Int(response.status.code), html: html, headers: response.headers)
    }

    static func csrf(in html: String) -> String? {
        guard let r = html.range(of: #"name="csrf" value=""#) else { return nil }
        return String(html[r.upperBound...].prefix { $0 != "\"" })
    }

    /// Signs in with the user's API token (the sign-in page's one-field way).
    func signIn(token: String) async throws {
        let page = try await post("/signin", [("password", token)], csrf: false)
        guard page.status == 303, cookie != nil else { throw HarnessError("sign-in failed: \(page.status) \(page.html)") }
    }

    /// How often `needle` occurs in `html`.
    static func count(_ needle: String, in html: String) -> Int { html.components(separatedBy: needle).count - 1 }
}
