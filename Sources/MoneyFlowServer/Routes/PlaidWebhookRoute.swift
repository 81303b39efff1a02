import Foundation
import HTTPTypes
import Hummingbird
import Logging
import MoneyFlowPlaid
import MoneyFlowStore

/// `POST /v1/plaid/webhook`: Plaid's calls, authenticated by their `Plaid-Verification` JWT
/// (not by a user token). `SYNC_UPDATES_AVAILABLE` asks ``PlaidAutoSync`` for a sync of that item
/// in its owner's ledger; an `ITEM` error marks the item so `plaid items` shows it needs its user.
struct PlaidWebhookRoute {
    let ledgers: Ledgers
    let users: UserDirectory
    let verifier: PlaidWebhookVerifier?
    let autoSync: PlaidAutoSync?

    init(ledgers: Ledgers, users: UserDirectory, plaid: PlaidConfiguration?, autoSync: PlaidAutoSync?) {
        self.ledgers = ledgers; self.users = users; self.autoSync = autoSync
        verifier = plaid.map { PlaidWebhookVerifier(client: PlaidClient(configuration: $0)) }
    }

    func register(_ v1: RouterGroup<ServerRequestContext>) {
        v1.post("plaid/webhook") { request, context in
            guard let verifier, let autoSync else {
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
                // Coalesced: however many webhooks come for the item, one sync runs and one waits.
                await autoSync.trigger(itemID: itemID, user: user, why: "webhook")
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
}
