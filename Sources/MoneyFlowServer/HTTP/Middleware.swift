import Foundation
import Hummingbird
import Logging

/// Turns every error into the API's JSON error body (Hummingbird's own 404 and 413 too), and
/// logs the unexpected ones (without request headers: they carry tokens and passwords).
/// The reply names no file of the server (``ServerPaths``); the log keeps the full message.
struct JSONErrorMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext
    let paths: ServerPaths

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            if var api = APIError.from(error) {
                if api.status.code >= 500 {
                    context.logger.error("\(request.method) \(request.uri.path): \(api.code): \(api.logDetail ?? api.message)")
                }
                api.message = paths.hidden(in: api.message)
                return api.response
            }
            context.logger.error("\(request.method) \(request.uri.path) failed: \(String(describing: error))")
            return APIError(.internalServerError, "internal", "the server failed; see its log").response
        }
    }
}

/// `Authorization: Bearer <token>` on every /v1 route: the token's user is put in the
/// context, and the handler only ever opens that user's ledger. A refused login is logged
/// (what was missing or wrong, the route and the peer; never the token).
struct BearerAuthMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext
    let users: UserDirectory

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        func refuse(_ why: String) -> APIError {
            context.logger.notice(
                "login refused: \(why) for \(request.method) \(request.uri.path) from \(context.peer ?? "an unknown address")")
            return APIError.unauthorized
        }
        guard let header = request.headers[.authorization], header.lowercased().hasPrefix("bearer ") else {
            throw refuse("no bearer token")
        }
        let token = String(header.dropFirst("bearer ".count)).trimmingCharacters(in: .whitespaces)
        let users = self.users
        guard !token.isEmpty, let user = try await users.authenticate(token: token) else {
            throw refuse("unknown token")
        }
        var context = context
        context.user = user
        return try await next(request, context)
    }
}
