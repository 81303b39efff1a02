import Foundation
import Hummingbird
import MoneyFlowPlaid

/// The web app on `moneyflow serve`: server-rendered pages over the same library calls as the
/// `/v1` API (README "The web app"). Sign-in and the assets are open; every other page and
/// form is behind ``WebSessionMiddleware`` (session cookie, CSRF token on every post).
struct WebRoutes {
    let ledgers: Ledgers
    let accounts: WebAccounts
    let maxBodyBytes: Int
    let plaid: PlaidRoutes
    /// The same per-user shares as the API: a page is store work like a `/v1` read.
    let share: FairShare
    var throttle = SignInThrottle()

    /// Adds the web app to `router`. Should its sessions file not open, the sign-in page says so
    /// (503) and the API goes on serving.
    static func install(
        _ router: Router<ServerRequestContext>, ledgers: Ledgers, users: UserDirectory, plaid: PlaidConfiguration?, maxBodyBytes: Int,
        share: FairShare, autoSync: PlaidAutoSync?
    ) {
        do {
            WebRoutes(
                ledgers: ledgers, accounts: try WebAccounts(users: users), maxBodyBytes: maxBodyBytes,
                plaid: PlaidRoutes(ledgers: ledgers, users: users, plaid: plaid, autoSync: autoSync), share: share
            ).register(router)
        } catch {
            let message = "the web app cannot open its sessions (web.sqlite in the data folder): \(error)"
            router.get("signin") { _, _ -> Response in throw APIError(.serviceUnavailable, "web_unavailable", message) }
        }
    }

    func register(_ router: Router<ServerRequestContext>) {
        WebAssets.register(router)
        let pages = router.group().add(
            middleware: WebSessionMiddleware(
                accounts: accounts, maxBodyBytes: maxBodyBytes, paths: ServerPaths(dataDirectory: accounts.users.dataDirectory)))
            .add(middleware: FairShareMiddleware(share: share))
        WebAuthRoutes(accounts: accounts, throttle: throttle).register(router, pages: pages)
        WebLedgerPages(ledgers: ledgers).register(pages)
        WebDecisionPages(ledgers: ledgers).register(pages)
        WebImportPages(ledgers: ledgers).register(pages)
        WebConnectPage(ledgers: ledgers, plaid: plaid).register(pages)
    }
}
