import Foundation
import NIOCore

/// Runs a request's work so that it is cancelled when its client goes away.
///
/// Hummingbird lets a handler run on after its client closed the connection (it allows half
/// closure, and nobody reads the connection while the handler runs), so a request waiting on
/// a slow Plaid would hold its work for minutes for no one. A handler at the front of the
/// connection's pipeline sees the client's end of input or the connection closing, and cancels
/// the work's task; Swift cancellation then reaches the HTTP request to Plaid, the retry waits,
/// and anything else that checks for it.
enum ClientDeparture {
    /// `work`'s result, or `CancellationError` once the client of `channel` has gone.
    static func cancelling<T: Sendable>(on channel: (any Channel)?, _ work: @escaping @Sendable () async throws -> T) async throws -> T {
        guard let channel else { return try await work() }
        let task = Task { try await work() }
        let watcher = Watcher { task.cancel() }
        do { try await channel.pipeline.addHandler(watcher, position: .first).get() } catch {
            // The connection is closing already.
            task.cancel()
        }
        defer { channel.pipeline.removeHandler(watcher, promise: nil) }
        return try await withTaskCancellationHandler {
            try await task.value
        } onCancel: {
            task.cancel()
        }
    }

    /// Sees the client's input end (a half close) or the connection close.
    final class Watcher: ChannelInboundHandler, RemovableChannelHandler, Sendable {
        typealias InboundIn = NIOAny
        let gone: @Sendable () -> Void

        init(_ gone: @escaping @Sendable () -> Void) { self.gone = gone }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if let e = event as? ChannelEvent, case .inputClosed = e { gone() }
            context.fireUserInboundEventTriggered(event)
        }

        func channelInactive(context: ChannelHandlerContext) {
            gone()
            context.fireChannelInactive()
        }
    }
}
