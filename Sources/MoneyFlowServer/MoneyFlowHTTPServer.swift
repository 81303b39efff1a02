import Foundation
import Hummingbird
import Logging
import MoneyFlowPipeline
import MoneyFlowPlaid
import NIOCore
import ServiceLifecycle

/// `moneyflow serve`: the HTTP backend over the same library calls as the CLI.
///
/// Routes: `GET /healthz`, `GET /openapi.json`, and `/v1/...` behind a bearer token (see the
/// OpenAPI document). Each user has their own ledger; a request can only ever reach the
/// ledger of the token's user. TLS belongs to a reverse proxy in front (README).
public enum MoneyFlowHTTPServer {
    /// The router with every route and middleware (shared by ``run`` and ``start``).
    /// `share`: the users' shares of the server's work (a test holds turns in it).
    static func router(
        configuration: ServerConfiguration, users: UserDirectory, ledgers: Ledgers, plaid: PlaidConfiguration?,
        autoSync: PlaidAutoSync?, share: FairShare? = nil
    ) -> Router<ServerRequestContext> {
        let router = Router(context: ServerRequestContext.self)
        // Outermost: the log sees the status the client gets, errors included.
        router.add(middleware: RequestLogMiddleware())
        router.add(middleware: JSONErrorMiddleware(paths: ServerPaths(dataDirectory: configuration.dataDirectory)))
        router.add(middleware: RequestTimeoutMiddleware(timeout: configuration.requestTimeout))
        router.get("healthz") { _, _ in JSONResponse.make(.object([("status", .string("ok"))])) }
        router.get("openapi.json") { _, _ in OpenAPIDocument.response }
        let v1 = router.group("v1")
        PlaidWebhookRoute(ledgers: ledgers, users: users, plaid: plaid, autoSync: autoSync).register(v1)
        let share = share ?? FairShare(limits: configuration.userLimits)
        let authenticated = v1.group().add(middleware: BearerAuthMiddleware(users: users))
            .add(middleware: FairShareMiddleware(share: share))
        // Plaid's routes mostly wait for Plaid: counted in the user's share, but holding no turn.
        let waitingForPlaid = v1.group().add(middleware: BearerAuthMiddleware(users: users))
            .add(middleware: FairShareMiddleware(share: share, holdsTurns: false))
        LedgerRoutes(ledgers: ledgers).register(authenticated)
        ImportRoutes(ledgers: ledgers, users: users, maxBodyBytes: configuration.maxBodyBytes).register(authenticated)
        PlaidRoutes(ledgers: ledgers, users: users, plaid: plaid, autoSync: autoSync).register(waitingForPlaid)
        ProfileRoutes(users: users).register(authenticated)
        RecordRoutes(ledgers: ledgers).register(authenticated)
        ExportRoutes(ledgers: ledgers).register(authenticated)
        // The web app (Web/): pages and forms over the same calls, behind a session cookie.
        WebRoutes.install(
            router, ledgers: ledgers, users: users, plaid: plaid, maxBodyBytes: configuration.maxBodyBytes, share: share,
            autoSync: autoSync)
        return router
    }

    static func application(
        configuration: ServerConfiguration, users: UserDirectory, plaid: PlaidConfiguration?, logger: Logger,
        share: FairShare? = nil, onRunning: @escaping @Sendable (Int) async -> Void
    ) -> some ApplicationProtocol {
        let ledgers = Ledgers(users: users, databaseURL: configuration.databaseURL)
        // The syncs the server starts by itself: a service, so shutdown cancels them.
        let autoSync = plaid.map {
            PlaidAutoSync(ledgers: ledgers, users: users, plaid: $0, every: configuration.plaidSyncEvery, logger: logger)
        }
        return Application(
            router: router(
                configuration: configuration, users: users, ledgers: ledgers, plaid: plaid, autoSync: autoSync,
                share: share),
            server: .http1(
                configuration: .init(
                    additionalChannelHandlers: [ConnectionGuard(headerTimeout: TimeAmount(configuration.headerTimeout))],
                    idleTimeout: .seconds(60))),
            configuration: ApplicationConfiguration(
                address: .hostname(configuration.host, port: configuration.port), serverName: "moneyflow"),
            services: autoSync.map { [$0] } ?? [],
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? configuration.port) },
            logger: logger)
    }

    /// Serves until SIGTERM or SIGINT, then stops accepting and lets requests in flight finish
    /// within ``ServerConfiguration/shutdownGrace``, then cancels the rest (an import in progress
    /// commits or rolls back as a whole; nothing is cut half-way).
    public static func run(
        configuration: ServerConfiguration, plaid: PlaidConfiguration?, logger: Logger,
        onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) async throws {
        let users = try UserDirectory(dataDirectory: configuration.dataDirectory)
        for folder in users.removeLeftoverUploads() { logger.notice("removed \(folder), left by an older server during an import") }
        let app = application(configuration: configuration, users: users, plaid: plaid, logger: logger, onRunning: onRunning)
        var lifecycle = ServiceGroupConfiguration(services: [app], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        // Past the grace period the requests still running are cancelled (their Plaid calls too).
        lifecycle.maximumGracefulShutdownDuration = configuration.shutdownGrace
        lifecycle.maximumCancellationDuration = .seconds(3)
        let group = ServiceGroup(configuration: lifecycle)
        try await group.run()
    }
}
