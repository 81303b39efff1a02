import Foundation
import Hummingbird

/// Each request's context: who is calling (set by ``BearerAuthMiddleware`` before any /v1
/// handler runs; nil only on the unauthenticated routes).
struct ServerRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    var user: ServerUser?
    /// The web app's session and form (set by `WebSessionMiddleware` on the pages only).
    var web: WebRequest?
    /// The peer's IP address (the web sign-in's rate limit counts per address).
    let clientAddress: String?

    /// The most a JSON body decoded by `request.decode(as:context:)` may hold (links, edits,
    /// renames); uploads have their own cap (`--max-body-mib`).
    var maxUploadSize: Int { 1 << 16 }

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        clientAddress = source.channel.remoteAddress?.ipAddress
    }

    /// The caller; handlers behind the auth middleware can rely on it.
    func requireUser() throws -> ServerUser {
        guard let user else { throw APIError.unauthorized }
        return user
    }
}
