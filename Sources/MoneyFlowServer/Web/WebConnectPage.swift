import Foundation
import Hummingbird
import MoneyFlowPlaid
import MoneyFlowStore

/// Connect a bank: the page starts Plaid Link in the browser (Plaid's own script, the one
/// asset from outside this server), with a link token the server asks Plaid for; the public
/// token Link hands back is exchanged on the server, where the access token stays sealed.
/// Items needing login get a link token in update mode; "sync now" is `moneyflow plaid sync`.
/// Each call is the `/v1/plaid` route's (``PlaidRoutes/service(_:_:)``).
struct WebConnectPage {
    let ledgers: Ledgers
    let plaid: PlaidRoutes
    static let linkScript = "https://cdn.plaid.com/link/v2/stable/link-initialize.js"

    func register(_ pages: RouterGroup<ServerRequestContext>) {
        pages.get("connect") { _, context in
            try await page(try context.requireWeb(), notice: nil)
        }
        pages.post("connect/link-token") { _, context in
            let web = try context.requireWeb()
            let store = try await ledgers.store(for: web.session.user)
            let token = try await plaid.service(web.session.user, store).createLinkToken(
                days: PlaidService.defaultDays, redirectURI: nil, update: web.form["item"])
            return JSONResponse.make(.object([("link_token", .string(token))]))
        }
        pages.post("connect/exchange") { _, context in
            let web = try context.requireWeb()
            guard let publicToken = web.form["public_token"] else { throw WebError.badForm("Plaid Link sent no public token") }
            let user = web.session.user
            let linked = try await ledgers.exclusive(user, "a Plaid link") { store in
                let linked = try await plaid.service(user, store).finishLink(publicToken: publicToken)
                try await plaid.users.setItemOwner(itemID: linked.itemID, user: user)
                return linked
            }
            return try await page(web, notice: "connected \(linked.institution ?? linked.itemID)")
        }
        pages.post("connect/sync") { _, context in
            let web = try context.requireWeb()
            let user = web.session.user
            let results = try await ledgers.exclusive(user, "a Plaid sync") { store in
                try await plaid.service(user, store).sync(itemIDs: [], refresh: false)
            }
            let paths = ServerPaths(dataDirectory: plaid.users.dataDirectory)
            let lines = results.map { PlaidRoutes.forClient($0, paths: paths) }.map { r in
                "\(r.institution ?? r.itemID): \(r.outcome.rawValue), \(r.changes) change(s)" + (r.error.map { " (\($0))" } ?? "")
            }
            return try await page(web, notice: lines.isEmpty ? "no bank connected yet" : lines.joined(separator: "; "))
        }
    }

    private func page(_ web: WebRequest, notice: String?) async throws -> Response {
        let store = try await ledgers.store(for: web.session.user)
        let items = try await store.plaidItems().filter { $0.status != .retired }
        var values: [String: Any] = [
            "configured": plaid.plaid != nil,
            "items": items.map { i -> [String: Any] in
                [
                    "id": i.itemID, "institution": i.institutionName ?? i.itemID, "status": i.status.rawValue,
                    "needsLogin": i.status == .needsUser, "lastSync": i.lastSuccessAt ?? "never", "error": i.errorMessage ?? false,
                ]
            },
        ]
        if let notice { values["notice"] = notice }
        return WebPage.render(
            "connect", title: "Connect a bank", session: web.session, values,
            scriptSources: plaid.plaid == nil ? [] : ["https://cdn.plaid.com"], extraScript: plaid.plaid == nil ? nil : Self.linkScript)
    }
}
