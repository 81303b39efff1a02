import Foundation

/// A `/link/token/create` result waiting for Link to finish (`completeLink`).
struct LinkGrant: Sendable {
    /// Update mode: the item being re-authenticated.
    let updateItemID: String?
    let accountSelectionEnabled: Bool
    let daysRequested: Int
    let webhook: String?
    var used = false
}

/// A public token from Link or `/sandbox/public_token/create`, exchangeable once.
struct PublicGrant: Sendable {
    let institutionID: String
    let daysRequested: Int
    let webhook: String?
    var used = false
}

/// A change a test wants to land after page 1 of an item's next multi-page update.
typealias ServerChange = @Sendable (PlaidTestServer) throws -> Void

/// Everything the server knows, behind one lock. Endpoint handlers and test controls run their
/// whole read-modify-write under the lock, so a test's change and a request never interleave.
final class ServerState: @unchecked Sendable {
    private let lock = NSLock()

    let clientID: String
    let secret: String
    let today: PlaidDay

    var banks: [String: Bank] = [:]
    var items: [String: ItemRecord] = [:]
    var itemOrder: [String] = []
    var itemIDByToken: [String: String] = [:]
    var publicTokens: [String: PublicGrant] = [:]
    var linkTokens: [String: LinkGrant] = [:]
    var failures: [FailureRule] = []
    var rateLimiter = RateLimiter()
    var recorded: [RecordedRequest] = []
    var pendingMutations: [String: ServerChange] = [:]
    /// Holds not yet matched by a request, and every hold ever made (released at stop).
    var holds: [RequestHold] = []
    var allHolds: [RequestHold] = []
    /// The keys that sign webhooks (`signWebhook`) and `/webhook_verification_key/get` serves.
    var webhookKeys = WebhookKeys()

    init(clientID: String, secret: String, today: PlaidDay) {
        self.clientID = clientID
        self.secret = secret
        self.today = today
    }

    func locked<T, E: Error>(_ body: (ServerState) throws(E) -> T) throws(E) -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(self)
    }

    // MARK: Lookups used by the endpoints

    /// The live item behind an access token; Plaid's errors for unknown and removed ones.
    func item(forToken token: String) throws(PlaidAPIError) -> ItemRecord {
        guard token.hasPrefix("access-sandbox-") else {
            throw .invalidAccessToken("provided access token is in an invalid format. expected format: access-<environment>-<identifier>")
        }
        guard let id = itemIDByToken[token], let item = items[id] else {
            throw .invalidAccessToken("could not find matching access token")
        }
        guard !item.removed else { throw .itemNotFound }
        return item
    }

    func bank(_ institutionID: String) throws(PlaidTestServerError) -> Bank {
        guard let bank = banks[institutionID] else { throw PlaidTestServerError(description: "no institution \(institutionID)") }
        return bank
    }

    /// A new item for a bank with fresh random ids for its accounts (re-linking the same bank
    /// therefore yields new account and transaction ids for the same history, as at Plaid).
    func createItem(institutionID: String, daysRequested: Int, webhook: String?) -> ItemRecord {
        let bank = banks[institutionID]!
        let item = ItemRecord(
            itemID: Identifiers.objectID(), accessToken: Identifiers.accessToken(), institutionID: institutionID,
            daysRequested: daysRequested, earliestDay: today.adding(days: -daysRequested),
            accountIDs: Dictionary(uniqueKeysWithValues: bank.institution.accounts.map { ($0.key, Identifiers.objectID()) }),
            webhook: webhook, lastSuccessfulUpdate: Date())
        items[item.itemID] = item
        itemOrder.append(item.itemID)
        itemIDByToken[item.accessToken] = item.itemID
        return item
    }

    /// Link finished for `linkToken`: a public token for a new item, or (update mode) the item's
    /// login repaired and, with account selection, the bank's newer accounts added to it.
    func completeLink(_ linkToken: String, institutionID: String?) throws(PlaidTestServerError) -> String? {
        guard var grant = linkTokens[linkToken], !grant.used else {
            throw PlaidTestServerError(description: "unknown or used link token \(linkToken)")
        }
        grant.used = true
        linkTokens[linkToken] = grant
        if let itemID = grant.updateItemID, var item = items[itemID] {
            item.errorCode = nil
            if grant.accountSelectionEnabled {
                for a in banks[item.institutionID]!.institution.accounts where item.accountIDs[a.key] == nil {
                    item.accountIDs[a.key] = Identifiers.objectID()
                }
            }
            items[itemID] = item
            return nil
        }
        guard let institutionID else { throw PlaidTestServerError(description: "a new-item link needs an institution") }
        _ = try bank(institutionID)
        let token = Identifiers.publicToken()
        publicTokens[token] = PublicGrant(institutionID: institutionID, daysRequested: grant.daysRequested, webhook: grant.webhook)
        return token
    }

    /// The first waiting hold this request matches, taken off the list.
    func takeHold(path: String, accessToken: String?) -> RequestHold? {
        let itemID = accessToken.flatMap { itemIDByToken[$0] }
        guard let index = holds.firstIndex(where: { $0.path == path && ($0.itemID == nil || $0.itemID == itemID) })
        else { return nil }
        return holds.remove(at: index)
    }

    /// The `failNext` rule for this request, consumed by one.
    func takeFailure(path: String, itemID: String?) -> PlaidAPIError? {
        guard let index = failures.firstIndex(where: { $0.path == path && ($0.itemID == nil || $0.itemID == itemID) })
        else { return nil }
        let error = failures[index].error(for: path)
        failures[index].remaining -= 1
        if failures[index].remaining <= 0 { failures.remove(at: index) }
        return error
    }
}
