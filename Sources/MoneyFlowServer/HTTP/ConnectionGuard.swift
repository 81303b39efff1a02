import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// What a connection may cost the server before anyone has been authenticated: each HTTP/1
/// connection's pipeline has one of these, between the HTTP decoder and the handlers.
///
/// - A request's head must be complete within ``headerTimeout`` of the connection opening (or
///   of the previous answer): a client that trickles its headers, or keeps an idle connection,
///   is closed.
/// - An answer sent before the request's body has been read whole (a refusal decided from the
///   headers: 401, 409, 413, 429) ends the connection: the answer carries `Connection: close`,
///   nothing more is read from the socket, the server's side is shut once the answer is out,
///   and the connection is closed ``linger`` later (time for the client to read the answer).
///   Without this the framework would read, and discard, whatever body the client still sends.
///   A 401 or 413 closes even a request whose body has arrived (an anonymous client keeps no
///   connection).
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    let headerTimeout: TimeAmount
    let linger: TimeAmount
    private var headerTimer: Scheduled<Void>?
    private var lingerTimer: Scheduled<Void>?
    /// The current request's end has been read (true between requests).
    private var requestRead = true
    /// The answer being written ends the connection.
    private var closing = false
    /// The answer is out: nothing more is read.
    private var refused = false

    /// Answers that end the connection even when the request was read whole.
    static let closingStatuses: Set<Int> = [401, 413]

    init(headerTimeout: TimeAmount, linger: TimeAmount = .seconds(2)) {
        self.headerTimeout = headerTimeout
        self.linger = linger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { startHeaderTimer(context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) { cancelTimers() }

    func channelActive(context: ChannelHandlerContext) {
        startHeaderTimer(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancelTimers()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            headerTimer?.cancel()
            headerTimer = nil
            requestRead = false
        case .body: break
        case .end: requestRead = true
        }
        context.fireChannelRead(data)
    }

    func read(context: ChannelHandlerContext) {
        if !refused { context.read() }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head):
            closing = !requestRead || Self.closingStatuses.contains(head.status.code)
            if closing {
                head.headerFields[.connection] = "close"
                context.write(wrapOutboundOut(.head(head)), promise: promise)
            } else {
                context.write(data, promise: promise)
            }
        case .body:
            context.write(data, promise: promise)
        case .end:
            guard closing else {
                context.write(data, promise: promise)
                if requestRead { startHeaderTimer(context) }
                return
            }
            refused = true
            let written = context.eventLoop.makePromise(of: Void.self)
            if let promise { written.futureResult.cascade(to: promise) }
            context.writeAndFlush(data, promise: written)
            written.futureResult.assumeIsolated().whenComplete { _ in
                context.close(mode: .output, promise: nil)
                self.lingerTimer = context.eventLoop.assumeIsolated().scheduleTask(in: self.linger) {
                    context.close(promise: nil)
                }
            }
        }
    }

    private func startHeaderTimer(_ context: ChannelHandlerContext) {
        headerTimer?.cancel()
        headerTimer = context.eventLoop.assumeIsolated().scheduleTask(in: headerTimeout) {
            context.close(promise: nil)
        }
    }

    private func cancelTimers() {
        headerTimer?.cancel()
        headerTimer = nil
        lingerTimer?.cancel()
        lingerTimer = nil
    }
}
