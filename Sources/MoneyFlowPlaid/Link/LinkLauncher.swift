import Foundation
import Hummingbird
import Logging
import ServiceLifecycle

/// What Plaid Link handed back through the launcher page: the short-lived public token, to be
/// exchanged for an access token at once, and Link's `metadata` object as Link sent it
/// (institution id and name, accounts with masks and types, link session id).
public struct LinkResult: Sendable, CustomStringConvertible {
    /// Never printed or logged: anyone holding it for its 30 minutes can exchange it.
    public var publicToken: String
    /// Link's `onSuccess` metadata as JSON, nil when the page sent none.
    public var metadataJSON: Data?

    public init(publicToken: String, metadataJSON: Data?) {
        self.publicToken = publicToken; self.metadataJSON = metadataJSON
    }

    /// Redacted, so printing or logging a result by mistake does not leak the token.
    public var description: String {
        "LinkResult(publicToken: <redacted>, metadataJSON: \(metadataJSON.map { "\($0.count) bytes" } ?? "none"))"
    }
}

/// Why `LinkLauncher.run` returned without a public token.
public enum LinkLauncherError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The user closed Link, or Link reported an error; `reason` is one line safe to print.
    case exited(reason: String)
    /// Nobody finished Link within the timeout.
    case timedOut
    /// The page could not be served (for example the port is taken).
    case serverFailed(String)

    public var description: String {
        switch self {
        case .exited(let reason): return "Plaid Link ended without linking a bank: \(reason)"
        case .timedOut: return "Plaid Link was not completed in time; run `moneyflow plaid link` again"
        case .serverFailed(let why): return "could not serve the Plaid Link page on 127.0.0.1: \(why)"
        }
    }
}

/// The browser half of `moneyflow plaid link`: a one-page Link launcher served on 127.0.0.1
/// for as long as one Link session takes.
///
/// Plaid Link only runs in a browser (or an app), so a command-line tool must hand the link
/// token to a page and get the public token back. The page loads Plaid's Link JS, opens Link
/// with the token and POSTs the result back here; `run` returns as soon as it arrives and
/// stops the server.
///
/// Security: the server listens on 127.0.0.1 only and every page and POST needs a random
/// per-run nonce (64 hex digits) that only the printed URL carries, so another local user or
/// process cannot read the page or inject a public token of its choosing; requests whose
/// `Host` is not 127.0.0.1/localhost are refused (DNS rebinding). The link token is embedded
/// in the page (it grants no access by itself) but never logged; the public token is never
/// printed or logged.
///
/// OAuth banks: on desktop browsers Link runs the bank's OAuth in a pop-up and needs no
/// redirect. When Link must redirect instead, create the link token with
/// `redirect_uri` = `oauthRedirectURI(port:)` (registered in the Plaid dashboard, which makes
/// the port fixed: pass that same `port` to `run`). Plaid accepts `http://localhost` only in
/// Sandbox; Production requires an https redirect URI, which this launcher does not serve.
public enum LinkLauncher {
    /// The redirect URI for OAuth banks, `http://localhost:PORT/oauth-return`, to pass as
    /// `redirect_uri` to `/link/token/create` and to allow in the Plaid dashboard. Sandbox only:
    /// Production accepts https redirect URIs only.
    public static func oauthRedirectURI(port: Int) -> URL {
        URL(string: "http://localhost:\(port)\(LinkLauncherRoutes.oauthReturnPath)")!
    }

    /// Serves the page on 127.0.0.1:`port` (0 = any free port), calls `ready(url)` once
    /// listening, and returns the public token (and Link's metadata JSON) when the page posts
    /// it, or throws `LinkLauncherError.exited(reason:)` when the user closed Link or Link
    /// reported an error, `.timedOut` after `timeout`, `.serverFailed` when it cannot listen,
    /// or `CancellationError` when the calling task is cancelled. The server is stopped before
    /// returning, in every case.
    public static func run(
        linkToken: String, port: Int = 0, timeout: Duration = .seconds(900),
        ready: @Sendable (URL) -> Void
    ) async throws -> LinkResult {
        let nonce = LinkNonce.random()
        let (events, sink) = AsyncStream<LinkLauncherEvent>.makeStream()
        let routes = LinkLauncherRoutes(linkToken: linkToken, nonce: nonce, sink: sink)
        // Hummingbird logs "listening on ..." at info level to stdout by default: our output
        // belongs to the CLI, and nothing here should ever be logged.
        let quiet = Logger(label: "moneyflow.plaid.link", factory: { _ in SwiftLogNoOpLogHandler() })
        let app = Application(
            router: routes.router(),
            configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: port)),
            onServerRunning: { channel in sink.yield(.listening(port: channel.localAddress?.port)) },
            logger: quiet)
        // No signal handling here: Ctrl-C ends the whole command as usual.
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(services: [app], logger: quiet))
        let server = Task {
            do {
                try await group.run()
                sink.yield(.serverStopped(nil))
            } catch {
                sink.yield(.serverStopped(String(describing: error)))
            }
        }

        var timer: Task<Void, Never>?
        var outcome: Result<LinkResult, any Error>?
        waiting: for await event in events {
            switch event {
            case .listening(let boundPort):
                guard let boundPort, let url = URL(string: "http://127.0.0.1:\(boundPort)/?s=\(nonce)") else {
                    outcome = .failure(LinkLauncherError.serverFailed("the server reported no port"))
                    break waiting
                }
                ready(url)
                timer = Task {
                    try? await Task.sleep(for: timeout)
                    if !Task.isCancelled { sink.yield(.timedOut) }
                }
            case .publicToken(let result):
                outcome = .success(result)
            case .exited(let reason):
                outcome = .failure(LinkLauncherError.exited(reason: reason))
            case .timedOut:
                outcome = .failure(LinkLauncherError.timedOut)
            case .serverStopped(let why):
                outcome = .failure(LinkLauncherError.serverFailed(why ?? "the server stopped"))
            }
            if outcome != nil { break waiting }
        }
        timer?.cancel()
        await stop(group, server)
        sink.finish()
        // The stream ends without an event only when this task was cancelled.
        return try (outcome ?? .failure(CancellationError())).get()
    }

    /// Graceful shutdown lets the response to the POST that ended the session reach the page;
    /// a connection that would hold the shutdown open longer than a few seconds is cut.
    private static func stop(_ group: ServiceGroup, _ server: Task<Void, Never>) async {
        await group.triggerGracefulShutdown()
        let backstop = Task {
            try? await Task.sleep(for: .seconds(5))
            if !Task.isCancelled { server.cancel() }
        }
        await server.value
        backstop.cancel()
    }
}

/// What the server side tells `run`, in arrival order; the first decisive event wins.
enum LinkLauncherEvent: Sendable {
    case listening(port: Int?)
    case publicToken(LinkResult)
    case exited(reason: String)
    case timedOut
    case serverStopped(String?)
}

/// The per-run secret that the printed URL and every POST carry.
enum LinkNonce {
    /// 32 bytes from the system's cryptographic generator (getrandom on Linux), as hex.
    static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: .min ... .max, using: &generator)) }.joined()
    }

    /// Compares without stopping at the first difference, so timing reveals nothing of the nonce.
    static func matches(_ candidate: Substring?, _ nonce: String) -> Bool {
        guard let candidate else { return false }
        let a = Array(candidate.utf8), b = Array(nonce.utf8)
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for i in a.indices { difference |= a[i] ^ b[i] }
        return difference == 0
    }
}
