import Foundation
import HTTPTypes
import Hummingbird
import Logging
import MoneyFlowPlaid
import MoneyFlowStore

/// `POST /v1/plaid/webhook`: Plaid's calls, authenticated by their `Plaid-Verification` JWT
/// (not by a user token). `SYNC_UPDATES_AVAILABLE` starts a sync of that item in its owner's
/// ledger; an `ITEM` error marks the item so `plaid items` shows it needs its user.
struct PlaidWebhookRoute {
    let ledgers: Ledgers
    let users: UserDirectory
    let verifier: PlaidWebhookVerifier?
    let plaid: PlaidConfiguration?

    init(ledgers: Ledgers, users: UserDirectory, plaid: PlaidConfiguration?) {
        self.ledgers = ledgers; self.users = users; self.plaid = plaid
        verifier = plaid.map { PlaidWebhookVerifier(client: PlaidClient(configuration: $0)) }
    }

    func register(_ v1: RouterGroup<ServerRequestContext>) {
        v1.post("plaid/webhook") { request, context in
            guard let verifier, let plaid else {
                throw APIError(.serviceUnavailable, "plaid_not_configured", "this server has no Plaid keys")
            }
            var request = request
            let body = Data(try await request.collectBody(upTo: 1 << 20).readableBytesView)
            let hook: PlaidWebhook
            do {
                hook = try await verifier.verify(body: body, verificationHeader: request.headers[HTTPField.Name("Plaid-Verification")!])
            } catch let e as PlaidWebhookError where e.reason == .throttled {
                return Self.tryLater("webhook_throttled", e.message, after: e.retryAfter ?? 60)
            } catch let e as PlaidWebhookError {
                throw APIError(.unauthorized, "webhook_rejected", e.message)
            } catch let e as PlaidAPIError {
                return Self.tryLater("webhook_unverifiable", "cannot fetch the verification key: \(e.description)", after: 60)
            } catch let e as PlaidTransportError {
                return Self.tryLater("webhook_unverifiable", "cannot fetch the verification key: \(e.description)", after: 60)
            }
            let logger = context.logger
            guard let itemID = hook.itemID, let user = try await users.owner(ofItem: itemID) else {
                logger.info("webhook \(hook.webhookType)/\(hook.webhookCode) for an item no user owns: ignored")
                return JSONResponse.make(.object([("accepted", .bool(true))]))
            }
            if hook.itemNeedsUser {
                let store = try await ledgers.store(for: user)
                try await store.notePlaidFreshness(
                    itemID: itemID, status: .needsUser, errorCode: hook.errorCode ?? hook.webhookCode,
                    errorMessage: "Plaid reported \(hook.webhookCode) by webhook", plaidLastUpdate: nil)
            }
            if hook.startsSync {
                let ledgers = self.ledgers, users = self.users
                Task {
                    await Self.syncWhenIdle(itemID: itemID, user: user, ledgers: ledgers, users: users, plaid: plaid, logger: logger)
                }
            }
            return JSONResponse.make(.object([("accepted", .bool(true))]))
        }
    }

    /// 503 with `Retry-After`: the webhook may be genuine but cannot be checked now; Plaid sends
    /// a webhook again when it is not answered 200.
    static func tryLater(_ code: String, _ message: String, after seconds: Int) -> Response {
        var response = APIError(.serviceUnavailable, code, message).response
        response.headers[.retryAfter] = String(seconds)
        return response
    }

    /// Waits (up to a minute) for the user's running job to finish, then syncs the item; a
    /// sync that cannot run now is harmless to skip: the next webhook or `plaid sync` brings it.
    static func syncWhenIdle(
        itemID: String, user: ServerUser, ledgers: Ledgers, users: UserDirectory, plaid: PlaidConfiguration, logger: Logger
    ) async {
        for _ in 0..<120 {
            if await ledgers.isIdle(user) { break }
            try? await Task.sleep(for: .milliseconds(500))
        }
        do {
            let results = try await ledgers.exclusive(user, "a Plaid sync") { store in
                try await PlaidService(
                    store: store, client: PlaidClient(configuration: plaid), archive: PlaidArchive(directory: users.archivePath(for: user))
                ).sync(itemIDs: [itemID], refresh: false)
            }
            for r in results { logger.info("webhook sync of \(r.itemID): \(r.outcome.rawValue), \(r.changes) changes") }
        } catch {
            logger.warning("webhook sync of \(itemID) did not run: \(String(describing: error))")
        }
    }
}
