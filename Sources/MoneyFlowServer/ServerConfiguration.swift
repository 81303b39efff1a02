import Foundation

/// How `moneyflow serve` runs: where it listens, where the users' ledgers live, and its limits.
public struct ServerConfiguration: Sendable {
    /// Address to bind; the README says to keep it on loopback behind a TLS reverse proxy.
    public var host: String
    public var port: Int
    /// Holds `users.sqlite` and one ledger folder per user.
    public var dataDirectory: String
    /// Largest request body accepted (an import's file); larger requests get 413.
    public var maxBodyBytes: Int
    /// How long one request may take before the client gets 503 (a slow import keeps its own
    /// store transaction; other users are never blocked by it).
    public var requestTimeout: Duration
    /// A PostgreSQL database (`postgres://USER@HOST:PORT/DB`) that holds every user's ledger,
    /// each in its own schema `moneyflow_user_<id>`; nil keeps each ledger in a SQLite file
    /// under the data folder.
    public var databaseURL: String?
    /// How long a client has to send a request's head, from the connection's opening or the
    /// previous answer (a trickling or idle connection is closed after it).
    var headerTimeout: Duration = .seconds(10)
    /// Each user's fair share of the server's work (see ``FairShare``).
    var userLimits = FairShare.Limits.standard
    /// How often the server syncs every Plaid item by itself (`--plaid-sync-every`); nil: only
    /// webhooks and the users' own syncs.
    public var plaidSyncEvery: Duration?
    /// How long SIGTERM waits for requests in flight before cancelling them (a Plaid call
    /// included), so the process ends within seconds however slow Plaid is.
    public var shutdownGrace: Duration = .seconds(10)

    public init(
        host: String = "127.0.0.1", port: Int = 8080, dataDirectory: String, maxBodyBytes: Int = 64 << 20,
        requestTimeout: Duration = .seconds(300), databaseURL: String? = nil
    ) {
        self.host = host; self.port = port; self.dataDirectory = dataDirectory; self.maxBodyBytes = maxBodyBytes
        self.requestTimeout = requestTimeout; self.databaseURL = databaseURL
    }

    /// Parses `HOST:PORT` (`[::1]:8080` for IPv6).
    public static func parseListen(_ text: String) throws -> (host: String, port: Int) {
        var host: Substring
        let portText: Substring
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else { throw ServerConfigurationError("--listen '\(text)': expected [HOST]:PORT") }
            portText = rest.dropFirst()
        } else {
            guard let colon = text.lastIndex(of: ":") else {
                throw ServerConfigurationError("--listen '\(text)': expected HOST:PORT, e.g. 127.0.0.1:8080")
            }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        if host.isEmpty { host = "127.0.0.1" }
        guard let port = Int(portText), (0...65535).contains(port) else {
            throw ServerConfigurationError("--listen '\(text)': the port must be a number 0-65535")
        }
        return (String(host), port)
    }
}

/// A bad `serve` setting.
public struct ServerConfigurationError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}
