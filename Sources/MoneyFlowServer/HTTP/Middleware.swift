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
/// context, and the handler only ever opens that user's ledger.
struct BearerAuthMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext
    let users: UserDirectory

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let header = request.headers[.authorization], header.lowercased().hasPrefix("bearer ") else { throw APIError.unauthorized }
        let token = String(header.dropFirst("bearer ".count)).trimmingCharacters(in: .whitespaces)
        let users = self.users
        guard !token.isEmpty, let user = try await users.authenticate(token: token) else {
            throw APIError.unauthorized
        }
        var context = context
        context.user = user
        return try await next(request, context)
    }
}
