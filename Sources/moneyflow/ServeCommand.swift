import ArgumentParser
import Foundation
import Logging
import MoneyFlowPlaid
import MoneyFlowPostgres
import MoneyFlowServer
import MoneyFlowStore

/// `moneyflow serve`: the HTTP backend (thin: configuration, logging, then the server library).
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the ledgers over HTTP (/v1 API for apps, scripts and other machines).",
        discussion: """
            Each user (`moneyflow users add NAME --data DIR`) has their own ledger under --data and calls
            the API with `Authorization: Bearer <token>`. Plaid routes work when PLAID_CLIENT_ID,
            PLAID_SECRET and PLAID_ENV are set (apps never see Plaid secrets or access tokens).
            TLS belongs to a reverse proxy in front (see README). SIGTERM or SIGINT stops accepting
            requests and lets the ones in flight finish.

            Example: moneyflow serve --listen 127.0.0.1:8080 --data /var/lib/moneyflow
            """)
    @Option(name: .long, help: ArgumentHelp("Address to listen on (HOST:PORT; port 0 = any free port).", valueName: "host:port"))
    var listen = "127.0.0.1:8080"
    @Option(name: .long, help: ArgumentHelp("Data folder: users and their ledgers (env MONEYFLOW_DATA).", valueName: "dir"))
    var data: String?
    @Option(
        name: .long,
        help: ArgumentHelp(
            "PostgreSQL database for every user's ledger, postgres://USER@HOST:PORT/DB (env MONEYFLOW_DATABASE; default: SQLite files under --data).",
            valueName: "url"))
    var database: String?
    @Option(name: .long, help: "Largest request body (an uploaded statement), in MiB.")
    var maxBodyMib = 64
    @Option(name: .long, help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel = "info"
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Longest one call to Plaid may take, retries included (45s, 2m); a request then fails instead of waiting.",
            valueName: "duration"))
    var plaidTimeout = "30s"
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Sync every Plaid item by itself this often (30m, 6h, 1d; jittered, items needing login skipped). Default: off.",
            valueName: "duration"))
    var plaidSyncEvery: String?

    func validate() throws {
        guard (1...4096).contains(maxBodyMib) else { throw ValidationError("--max-body-mib must be 1-4096") }
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("--log-level: unknown level '\(logLevel)'") }
        do {
            let timeout = try ServerDuration.parse(plaidTimeout, option: "--plaid-timeout")
            guard timeout >= .seconds(5) && timeout <= .seconds(600) else { throw ValidationError("--plaid-timeout must be 5s-10m") }
            _ = try plaidSyncEvery.map { try ServerDuration.parse($0, option: "--plaid-sync-every") }
        } catch let e as ServerConfigurationError { throw ValidationError(e.description) }
    }

    func run() async throws {
        guard let dir = data ?? ProcessInfo.processInfo.environment["MONEYFLOW_DATA"], !dir.isEmpty else {
            throw CLIError("give --data DIR (or MONEYFLOW_DATA): the folder with the users and their ledgers")
        }
        let (host, port): (String, Int)
        do { (host, port) = try ServerConfiguration.parseListen(listen) } catch let e as ServerConfigurationError {
            throw CLIError(e.description)
        }
        let env = ProcessInfo.processInfo.environment
        var plaid: PlaidConfiguration?
        if ["PLAID_CLIENT_ID", "PLAID_SECRET", "PLAID_ENV"].contains(where: { !(env[$0] ?? "").isEmpty }) {
            do { plaid = try PlaidConfiguration.fromEnvironment(env) } catch let e as PlaidConfigurationError {
                throw CLIError(e.description)
            }
            plaid?.deadline = try ServerDuration.parse(plaidTimeout, option: "--plaid-timeout")
        }
        var logger = Logger(label: "moneyflow.serve") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        let database = database ?? env["MONEYFLOW_DATABASE"].flatMap { $0.isEmpty ? nil : $0 }
        if let database {
            guard StoreOpener.isRemote(database) else { throw CLIError("--database '\(database)': expected postgres://USER@HOST:PORT/DB") }
            // Checked now, not at the first request: a wrong URL or password stops the start.
            do { _ = try PostgresLocation.parse(database, ledger: "check") } catch let e as StoreError { throw CLIError(e.message) }
        }
        var config = ServerConfiguration(host: host, port: port, dataDirectory: dir, maxBodyBytes: maxBodyMib << 20, databaseURL: database)
        config.plaidSyncEvery = try plaidSyncEvery.map { try ServerDuration.parse($0, option: "--plaid-sync-every") }
        let shownHost = host.contains(":") ? "[\(host)]" : host
        let plaidState = plaid == nil ? "off" : "on"
        try await MoneyFlowHTTPServer.run(configuration: config, plaid: plaid, logger: logger) { bound in
            printOut(
                "moneyflow serve: listening on http://\(shownHost):\(bound) (data \(dir); ledgers \(database.map(StoreOpener.displayName) ?? "in SQLite files"); Plaid \(plaidState))"
            )
        }
    }
}
