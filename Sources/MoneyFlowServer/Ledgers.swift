import Foundation
import MoneyFlowPipeline
import MoneyFlowPlaid
import MoneyFlowPostgres
import MoneyFlowStore

/// The users' ledgers: each user's store opened once and kept (a GRDB pool serves concurrent
/// reads; PostgreSQL ledgers beyond ``maxOpenRemote`` are closed least recently used first),
/// and at most one writing job (import, undo, Plaid link or sync) per user at a time,
/// so a second one gets 409 at once instead of queueing behind a slow upload. Other users are
/// never affected: each has their own store file and their own slot.
actor Ledgers {
    let users: UserDirectory
    private var stores: [String: LedgerStore] = [:]
    /// Stores being opened (off the actor: opening a PostgreSQL ledger loads it over the
    /// network), so concurrent first requests of one user share one open.
    private var opening: [String: Task<LedgerStore, any Error>] = [:]
    /// When each user's store was last asked for (the least recent is closed first).
    private var lastUse: [String: UInt64] = [:]
    private var clock: UInt64 = 0
    private var busy: [String: String] = [:]

    /// Where the ledgers live when not in files under the data folder (see ``ServerConfiguration/databaseURL``).
    let databaseURL: String?
    /// How many PostgreSQL ledgers stay open at once: each holds a connection and its working
    /// copy in memory, so the least recently used idle ones are closed beyond this.
    let maxOpenRemote: Int

    init(users: UserDirectory, databaseURL: String? = nil, maxOpenRemote: Int = 64) {
        self.users = users
        self.databaseURL = databaseURL
        self.maxOpenRemote = maxOpenRemote
    }

    func store(for user: ServerUser) async throws -> LedgerStore {
        if ContinuousClock.now - lastSweep > Self.sweepInterval {
            lastSweep = .now
            Task { await self.forgetRemovedUsers() }
        }
        clock += 1
        lastUse[user.id] = clock
        if let s = stores[user.id] { return s }
        if let pending = opening[user.id] { return try await pending.value }
        let (databaseURL, users) = (self.databaseURL, self.users)
        let task = Task {
            // Opening reads the file or loads the ledger over the network: a thread of its own
            // (the store's threads exist only once it is open), gone when the open is done.
            try await StoreExecutor(label: "moneyflow-store-open", maxThreads: 1).run {
                // A request under way when its user was removed opens nothing and makes no folder.
                guard try users.prepareLedgerFolder(for: user) else { throw APIError.unauthorized }
                let s =
                    try databaseURL.map { try StoreOpener.open(databaseURL: $0, ledger: "user_" + user.id) }
                    ?? LedgerStore(path: users.ledgerPath(for: user))
                // The user's own block of ids: another user's id is a 404 here, never an own row.
                try s.startIDs(after: user.idBase)
                return s
            }
        }
        opening[user.id] = task
        defer { opening[user.id] = nil }
        let s = try await task.value
        stores[user.id] = s
        if databaseURL != nil { closeLeastRecentlyUsed() }
        return s
    }

    /// Forgets the least recently used idle stores beyond ``maxOpenRemote`` (a request still
    /// using one keeps it until it is done; the next request opens it again).
    private func closeLeastRecentlyUsed() {
        guard stores.count > maxOpenRemote else { return }
        let idle = stores.keys.filter { busy[$0] == nil }.sorted { (lastUse[$0] ?? 0) < (lastUse[$1] ?? 0) }
        for id in idle.prefix(stores.count - maxOpenRemote) {
            stores[id] = nil
            lastUse[id] = nil
        }
    }

    /// Runs `job` as the user's only writing job; 409 when another one runs. The job holds the
    /// user's ``UserJobLock`` (a removal waits for it to end) and runs only while the user
    /// exists; a removed user's ledger is closed and the caller gets 401.
    func exclusive<T: Sendable>(_ user: ServerUser, _ what: String, _ job: @Sendable (LedgerStore) async throws -> T) async throws -> T {
        if let running = busy[user.id] {
            throw APIError(.conflict, "import_in_progress", "\(running) is still running for this user; try again when it has finished")
        }
        busy[user.id] = what
        defer { busy[user.id] = nil }
        let lock = try await users.perform { try UserJobLock.forJob($0, user) }
        guard let lock else {
            forget(user.id)
            throw APIError.unauthorized
        }
        defer { lock.release() }
        return try await job(try await store(for: user))
    }

    /// Closes the user's ledger (a removed user's), once the requests still using it are done.
    func forget(_ userID: String) {
        stores[userID] = nil
        lastUse[userID] = nil
    }

    /// Closes the ledgers of users removed since they were opened (``store(for:)`` runs this
    /// at most every ``sweepInterval``): a removed user's ledger does not stay open.
    func forgetRemovedUsers() async {
        guard let ids = try? await users.perform({ try Set($0.list().map(\.id)) }) else { return }
        for id in stores.keys where !ids.contains(id) && busy[id] == nil { forget(id) }
    }

    static let sweepInterval: Duration = .seconds(30)
    private var lastSweep = ContinuousClock.now

    /// True when the user's ledger is open here.
    func isOpen(_ userID: String) -> Bool { stores[userID] != nil }

    /// True when no writing job runs for the user (a webhook-started sync then may start).
    func isIdle(_ user: ServerUser) -> Bool { busy[user.id] == nil }
}
