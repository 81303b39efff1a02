import Foundation
import Hummingbird
import NIOCore

/// Each request's context: who is calling (set by ``BearerAuthMiddleware`` before any /v1
/// handler runs; nil only on the unauthenticated routes).
struct ServerRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    var user: ServerUser?
    /// The request's place in its user's share (set by ``FairShareMiddleware``): a handler
    /// that waits for the network lets go of its turn meanwhile (``FairPass/outsideTurn(_:)``).
    var pass: FairPass?
    /// The web app's session and form (set by `WebSessionMiddleware` on the pages only).
    var web: WebRequest?
    /// The client's connection: ``ClientDeparture`` cancels work its client has left.
    let channel: (any Channel)?

    /// The most a JSON body decoded by `request.decode(as:context:)` may hold (links, edits,
    /// renames); uploads have their own cap (`--max-body-mib`).
    var maxUploadSize: Int { 1 << 16 }

    /// The peer's address (a reverse proxy's, behind one): the log of refused logins and the web
    /// sign-in's rate limit per address.
    var peer: String?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        peer = source.channel.remoteAddress?.ipAddress
        channel = source.channel
    }

    /// Runs `body` without holding the request's turn (reading an upload's bytes).
    func outsideTurn<T>(_ body: () async throws -> T) async throws -> T {
        guard let pass else { return try await body() }
        return try await pass.outsideTurn(body)
    }

    /// The caller; handlers behind the auth middleware can rely on it.
    func requireUser() throws -> ServerUser {
        guard let user else { throw APIError.unauthorized }
        return user
    }
}
