import Foundation
import Hummingbird
import Logging
import ServiceLifecycle

/// A Plaid-shaped HTTP server on 127.0.0.1 for offline tests of a Plaid client.
///
/// It answers the endpoints a transactions client needs (`/link/token/create`,
/// `/sandbox/public_token/create`, `/item/public_token/exchange`, `/accounts/get`,
/// `/transactions/sync`, `/transactions/refresh`, `/item/get`, `/item/remove`,
/// `/webhook_verification_key/get`) as Plaid's
/// 2020-09-14 API documents them: request bodies checked against the spec's request schemas,
/// Plaid's error bodies and HTTP statuses, per-item ids, sync cursors and paging, pending ->
/// posted, mutation during pagination, rate limits. Tests drive the banks' data and inject
/// faults through the methods below; every method is thread-safe.
public final class PlaidTestServer: Sendable {
    /// `http://127.0.0.1:PORT`: the value for `PLAID_ENV`.
    public let baseURL: String
    public let port: Int
    /// The day `days_requested` windows and the default history count back from.
    public var today: PlaidDay { state.today }
    let state: ServerState
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    private init(baseURL: String, port: Int, state: ServerState, group: ServiceGroup, task: Task<Void, any Error>) {
        self.baseURL = baseURL
        self.port = port
        self.state = state
        self.group = group
        self.task = task
    }

    /// Starts a server on 127.0.0.1 (`port` 0: any free port) holding the default institution
    /// (`DefaultInstitution`, "First Platypus Bank", `ins_109508`) unless `withDefaultInstitution`
    /// is false. `today` anchors `days_requested` windows and the default history (default: the
    /// current UTC day).
    public static func start(
        clientID: String = "test-client-id", secret: String = "test-secret", port: Int = 0,
        today: PlaidDay = .today(), withDefaultInstitution: Bool = true
    ) async throws -> PlaidTestServer {
        let state = ServerState(clientID: clientID, secret: secret, today: today)
        if withDefaultInstitution { try DefaultInstitution.install(into: state) }
        let owner = WeakServer()
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        var logger = Logger(label: "PlaidTestServer")
        logger.logLevel = .error
        let app = Application(
            responder: PlaidResponder(state: state, owner: owner),
            configuration: .init(address: .hostname("127.0.0.1", port: port)),
            onServerRunning: { channel in
                continuation.yield(channel.localAddress?.port ?? 0)
                continuation.finish()
            },
            logger: logger)
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        let task = Task {
            defer { continuation.finish() }
            try await group.run()
        }
        var iterator = ports.makeAsyncIterator()
        guard let bound = await iterator.next(), bound > 0 else {
            task.cancel()
            if case .failure(let error) = await task.result { throw error }
            throw PlaidTestServerError(description: "the server did not start on 127.0.0.1:\(port)")
        }
        let server = PlaidTestServer(baseURL: "http://127.0.0.1:\(bound)", port: bound, state: state, group: group, task: task)
        owner.server = server
        return server
    }

    /// A server a test forgot to stop does not outlive it (`stop()` is still the clean way).
    deinit { task.cancel() }

    /// Stops listening, lets requests in flight finish, and waits until the server has shut down.
    public func stop() async {
        for hold in state.locked({ s in s.allHolds }) { hold.release() }
        await group.triggerGracefulShutdown()
        _ = await task.result
    }

    // MARK: Banks

    public func addInstitution(_ institution: TestInstitution) throws {
        try state.locked { (s) throws(PlaidTestServerError) in
            guard s.banks[institution.id] == nil else { throw PlaidTestServerError(description: "\(institution.id) exists already") }
            s.banks[institution.id] = Bank(institution: institution)
        }
    }

    /// A new account at the bank. Existing items do not see it until an update-mode Link with
    /// account selection completes (`completeLink`), as at Plaid.
    public func addAccount(institution: String, _ account: TestAccount) throws {
        try mutateBank(institution) { (bank) throws(PlaidTestServerError) in
            guard !bank.institution.accounts.contains(where: { $0.key == account.key }) else {
                throw PlaidTestServerError(description: "\(institution) has an account \(account.key) already")
            }
            bank.institution.accounts.append(account)
        }
    }

    /// Adds a transaction at the bank; returns its bank-level id (not any item's transaction_id).
    @discardableResult
    public func addTransaction(institution: String, _ transaction: TestTransaction) throws -> String {
        try mutateBank(institution) { (bank) throws(PlaidTestServerError) in try bank.add(transaction) }
    }

    /// Changes a transaction in place (Plaid reports it in `modified`).
    public func modifyTransaction(
        institution: String, bankID: String, name: String? = nil, amount: String? = nil,
        date: String? = nil, merchantName: String? = nil
    ) throws {
        try mutateBank(institution) { (bank) throws(PlaidTestServerError) in
            try bank.modify(bankID, name: name, amount: amount, date: date, merchantName: merchantName)
        }
    }

    /// Deletes a transaction (Plaid reports it in `removed`).
    public func removeTransaction(institution: String, bankID: String) throws {
        try mutateBank(institution) { (bank) throws(PlaidTestServerError) in try bank.remove(bankID) }
    }

    /// Posts a pending transaction: the pending one is removed and a posted one added with
    /// `pending_transaction_id` naming it, with a new amount or name if given (a tip). Returns
    /// the posted transaction's bank id.
    @discardableResult
    public func post(
        institution: String, pendingBankID: String, amount: String? = nil, name: String? = nil,
        date: String
    ) throws -> String {
        try mutateBank(institution) { (bank) throws(PlaidTestServerError) in
            try bank.post(pendingBankID, amount: amount, name: name, date: date)
        }
    }

    public func setBalance(institution: String, account: String, current: String, available: String? = nil) throws {
        try mutateBank(institution) { (bank) throws(PlaidTestServerError) in
            try bank.setBalance(account: account, current: current, available: available)
        }
    }

    /// The bank-level ids of the bank's current transactions, oldest first.
    public func bankTransactionIDs(institution: String, pending: Bool? = nil) throws -> [String] {
        try state.locked { (s) throws(PlaidTestServerError) in
            try s.bank(institution).current.values
                .filter { pending == nil || $0.pending == pending }
                .sorted { ($0.day, $0.ordinal) < ($1.day, $1.ordinal) }.map(\.bankID)
        }
    }

    private func mutateBank<T>(_ id: String, _ body: (inout Bank) throws(PlaidTestServerError) -> T) throws -> T {
        try state.locked { (s) throws(PlaidTestServerError) in
            var bank = try s.bank(id)
            let result = try body(&bank)
            s.banks[id] = bank
            return result
        }
    }

    // MARK: Items and Link

    public func items() -> [TestItem] {
        state.locked { s in
            s.itemOrder.map { id in
                let i = s.items[id]!
                return TestItem(
                    itemID: i.itemID, accessToken: i.accessToken, institutionID: i.institutionID, removed: i.removed,
                    errorCode: i.errorCode, daysRequested: i.daysRequested, accountIDs: i.accountIDs)
            }
        }
    }

    /// What a client that applied every update of the item holds now, oldest first.
    public func truth(itemID: String) throws -> [TruthTransaction] {
        try state.locked { (s) throws(PlaidTestServerError) in
            guard var item = s.items[itemID] else { throw PlaidTestServerError(description: "no item \(itemID)") }
            let bank = s.banks[item.institutionID]!
            let view = item.visible(bank, at: bank.head).values.sorted { ($0.day, $0.ordinal) < ($1.day, $1.ordinal) }
            let truth = view.map { t in
                TruthTransaction(
                    transactionID: item.transactionID(t.bankID), accountID: item.accountIDs[t.account]!, date: t.day.iso,
                    amount: t.amount, name: t.name, merchantName: t.merchantName, pending: t.pending,
                    pendingTransactionID: t.pendingBankID.map { item.transactionID($0) }, bankID: t.bankID)
            }
            s.items[itemID] = item
            return truth
        }
    }

    /// Completes Link for a token from `/link/token/create` as the user would in the browser:
    /// returns the public token for a new item at `institution`; for an update-mode token clears
    /// the item's error (and, with account selection, adds the bank's new accounts) and returns nil.
    @discardableResult
    public func completeLink(linkToken: String, institution: String? = DefaultInstitution.id) throws -> String? {
        try state.locked { (s) throws(PlaidTestServerError) in try s.completeLink(linkToken, institutionID: institution) }
    }

    // MARK: Webhooks

    /// The `Plaid-Verification` header Plaid would send with `body`: an ES256 JWT signed with the
    /// current webhook key (or the key `keyID` names, expired or not), `iat` = `issuedAt`, and the
    /// hex SHA-256 of `body`. The key is what `/webhook_verification_key/get` serves for its `kid`.
    public func signWebhook(body: Data, issuedAt: Date = Date(), keyID: String? = nil) -> String {
        let key = state.locked { s in s.webhookKeys.keys[keyID ?? s.webhookKeys.currentKID] }
        guard let key else { preconditionFailure("PlaidTestServer: no webhook key \(keyID ?? "")") }
        // Signing with a valid P-256 key cannot fail; a failure here is a broken crypto library.
        return try! WebhookJWT.sign(body: body, issuedAt: issuedAt, key: key)
    }

    /// The `kid` that signs new webhooks.
    public var webhookKeyID: String { state.locked { s in s.webhookKeys.currentKID } }

    /// Starts signing with a new key (returned: its `kid`); the previous key is marked expired,
    /// as Plaid's key rotation does.
    @discardableResult
    public func rotateWebhookKey() -> String {
        state.locked { s in s.webhookKeys.rotate() }
    }

    // MARK: Faults

    /// Puts the item in error (`ITEM_LOGIN_REQUIRED`, ...): data endpoints answer HTTP 400
    /// `ITEM_ERROR` with that code and `/item/get` shows it; nil clears it.
    public func setItemError(itemID: String, code: String?) throws {
        try mutateItem(itemID) { item in
            item.errorCode = code
            if code != nil { item.lastFailedUpdate = Date() }
        }
    }

    /// The next `times` requests to `path` (for `itemID`, or any item when nil) fail with `kind`.
    public func failNext(path: String, itemID: String? = nil, times: Int = 1, kind: InjectedFailure) {
        state.locked { s in s.failures.append(FailureRule(path: path, itemID: itemID, remaining: times, kind: kind)) }
    }

    /// `change` runs right after page 1 of the item's next update that has more than one page,
    /// so the client's next page request meets TRANSACTIONS_SYNC_MUTATION_DURING_PAGINATION.
    public func mutateDuringNextPagination(itemID: String, _ change: @escaping @Sendable (PlaidTestServer) throws -> Void) {
        state.locked { s in s.pendingMutations[itemID] = change }
    }

    /// The item's next `n` syncs answer `NOT_READY` (empty lists, the cursor sent back unchanged).
    public func notReady(itemID: String, forRequests n: Int) throws {
        try mutateItem(itemID) { $0.notReadyRequests = n }
    }

    /// Holds the next request to `path` (for `itemID`, or any item when nil) before answering it,
    /// until the test calls `release()` on the result: a deterministic point to kill a client
    /// in the middle of an update.
    public func holdNext(path: String, itemID: String? = nil) -> RequestHold {
        let hold = RequestHold(path: path, itemID: itemID)
        state.locked { s in
            s.holds.append(hold)
            s.allHolds.append(hold)
        }
        return hold
    }

    /// Plaid's per-item rate limits are on by default.
    public func setRateLimits(enabled: Bool) {
        state.locked { s in s.rateLimiter.enabled = enabled }
    }

    /// Every request received, in order.
    public func requests() -> [RecordedRequest] {
        state.locked { s in s.recorded }
    }

    private func mutateItem(_ itemID: String, _ body: (inout ItemRecord) -> Void) throws {
        try state.locked { (s) throws(PlaidTestServerError) in
            guard var item = s.items[itemID] else { throw PlaidTestServerError(description: "no item \(itemID)") }
            body(&item)
            s.items[itemID] = item
        }
    }
}
