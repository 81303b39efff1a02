import Foundation
import Hummingbird
import NIOCore

/// Each request's context: who is calling (set by ``BearerAuthMiddleware`` before any /v1
/// handler runs; nil only on the unauthenticated routes).
struct ServerRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    var user: ServerUser?
    /// The client's connection: ``ClientDeparture`` cancels work its client has left.
    let channel: (any Channel)?

    /// The most a JSON body decoded by `request.decode(as:context:)` may hold (links, edits,
    /// renames); uploads have their own cap (`--max-body-mib`).
    var maxUploadSize: Int { 1 << 16 }

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }

    /// The caller; handlers behind the auth middleware can rely on it.
    func requireUser() throws -> ServerUser {
        guard let user else { throw APIError.unauthorized }
        return user
    }
}
