import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// How a page is answered: rendered from its template with the layout's values, with headers
/// that keep other sites and injected markup out (a strict Content-Security-Policy: scripts
/// only from this server, and Plaid's on the connect page; no framing; forms post here only).
enum WebPage {
    static func render(
        _ template: String, title: String, session: WebSession?, status: HTTPResponse.Status = .ok, _ values: [String: Any] = [:],
        scriptSources: [String] = [], extraScript: String? = nil
    ) -> Response {
        var object = values
        if let extraScript { object["extraScript"] = extraScript }
        object["title"] = title
        object["page"] = template
        if let session {
            object["session"] = true
            object["csrf"] = session.csrf
            object["user"] = session.user.name
        }
        let html = WebTemplates.library.render(object, withTemplate: template) ?? ""
        var buffer = ByteBuffer()
        buffer.writeString(html)
        var headers: HTTPFields = [.contentType: "text/html; charset=utf-8"]
        headers[.cacheControl] = "no-store"
        headers[.contentSecurityPolicy] =
            "default-src 'self'; script-src 'self' \(scriptSources.joined(separator: " ")); style-src 'self'; img-src 'self' data:; "
            + "connect-src 'self' \(scriptSources.joined(separator: " ")); frame-src \(scriptSources.isEmpty ? "'none'" : scriptSources.joined(separator: " ")); frame-ancestors 'none'; form-action 'self'; base-uri 'none'"
        headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        headers[HTTPField.Name("Referrer-Policy")!] = "same-origin"
        return Response(status: status, headers: headers, body: .init(byteBuffer: buffer))
    }

    /// 303 to `location` (a page after a form post, or the sign-in page).
    static func redirect(_ location: String, cookie: String? = nil) -> Response {
        var headers: HTTPFields = [.location: location, .cacheControl: "no-store"]
        if let cookie { headers[.setCookie] = cookie }
        return Response(status: .seeOther, headers: headers)
    }

    /// The error page for anything a page or form let through; a message never names a file of
    /// the server (``ServerPaths``), and a failure of the server itself is logged in full.
    static func error(_ error: any Error, session: WebSession?, paths: ServerPaths? = nil, logger: Logger? = nil) -> Response {
        let (status, message): (HTTPResponse.Status, String)
        switch error {
        case WebError.forbidden(let m): (status, message) = (.forbidden, m)
        case WebError.badForm(let m): (status, message) = (.badRequest, m)
        case WebError.notFound(let m): (status, message) = (.notFound, m)
        case WebError.tooManyAttempts(let wait):
            (status, message) = (.tooManyRequests, "too many failed sign-ins; try again in \(Int(wait.rounded(.up))) seconds")
        default:
            if let api = APIError.from(error) {
                (status, message) = (api.status, paths?.hidden(in: api.message) ?? api.message)
                if api.status.code >= 500 { logger?.error("web page: \(api.code): \(api.logDetail ?? api.message)") }
            } else {
                (status, message) = (.internalServerError, "the server failed; see its log")
                logger?.error("web page failed: \(String(describing: error))")
            }
        }
        return render("error", title: status.code >= 500 ? "Something went wrong" : "That did not work", session: session, status: status, [
            "problem": message
        ])
    }

    /// A page address with its query (`/transactions?account=...`), each value percent-encoded.
    static func link(_ path: String, _ query: [(String, String?)]) -> String {
        let parts = query.compactMap { k, v -> String? in
            guard let v, !v.isEmpty else { return nil }
            return k + "=" + (v.addingPercentEncoding(withAllowedCharacters: .urlQueryValue) ?? "")
        }
        return parts.isEmpty ? path : path + "?" + parts.joined(separator: "&")
    }
}

extension CharacterSet {
    /// Characters left as they are in a query value (`&`, `=`, `+`, `#` are encoded).
    static let urlQueryValue = CharacterSet.urlQueryAllowed.subtracting(CharacterSet(charactersIn: "&=+#?/"))
}
