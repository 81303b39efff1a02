import Foundation
import HTTPTypes
import Hummingbird

/// What the web middleware found for a page request: the signed-in session and, for a POST,
/// its form (already checked for the session's CSRF token).
struct WebRequest: Sendable {
    var session: WebSession
    var form: WebForm
}

/// Every page and form of the web app goes through this: without a valid session cookie a
/// page sends the browser to `/signin` and a form post is refused (403); a form post without
/// the session's CSRF token is refused (403) before its handler runs. Errors become HTML pages
/// (the API's JSON errors stay the API's).
struct WebSessionMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext
    let accounts: WebAccounts
    let maxBodyBytes: Int
    let paths: ServerPaths

    static let cookieName = "mf_session"

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            let accounts = self.accounts
            let cookie = request.cookies[Self.cookieName]?.value
            let session = try await cookie.asyncMap { c in try await accounts.perform { try $0.session(cookie: c) } } ?? nil
            guard let session else {
                if request.method == .get || request.method == .head { return WebPage.redirect("/signin") }
                throw WebError.forbidden("your session has ended; sign in again")
            }
            var form = WebForm()
            var request = request
            if request.method == .post {
                form = try await WebForm.read(request, limit: maxBodyBytes)
                request = Request(head: request.head, body: .init(buffer: .init()))
                guard session.accepts(csrf: form.fields["csrf"]) else {
                    throw WebError.forbidden("this form is out of date (no valid CSRF token); reload the page and try again")
                }
            }
            var context = context
            context.user = session.user
            context.web = WebRequest(session: session, form: form)
            return try await next(request, context)
        } catch {
            return WebPage.error(error, session: context.web?.session, paths: paths, logger: context.logger)
        }
    }
}

/// A page's problem, shown as an HTML page with its status.
enum WebError: Error {
    case forbidden(String)
    case badForm(String)
    case notFound(String)
    case tooManyAttempts(retryAfter: TimeInterval)
}

extension Optional {
    func asyncMap<T>(_ body: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let self else { return nil }
        return try await body(self)
    }
}
