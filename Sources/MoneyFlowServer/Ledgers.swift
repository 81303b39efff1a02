import Foundation
import MoneyFlowPipeline
import MoneyFlowPlaid
import MoneyFlowPostgres
import MoneyFlowStore

/// The users' ledgers: each user's store opened once and kept (a GRDB pool serves concurrent
/// reads), and at most one writing job (import, undo, Plaid link or sync) per user at a time,
/// so a second one gets 409 at once instead of queueing behind a slow upload. Other users are
/// never affected: each has their own store file and their own slot.
actor Ledgers {
    let users: UserDirectory
    private var stores: [String: LedgerStore] = [:]
    private var busy: [String: String] = [:]

    /// Where the ledgers live when not in files under the data folder (see ``ServerConfiguration/databaseURL``).
    let databaseURL: String?

    init(users: UserDirectory, databaseURL: String? = nil) {
        self.users = users
        self.databaseURL = databaseURL
    }

    func store(for user: ServerUser) throws -> LedgerStore {
        if let s = stores[user.id] { return s }
        let s =
            try databaseURL.map { try StoreOpener.open(databaseURL: $0, ledger: "user_" + user.id) }
            ?? LedgerStore(path: users.ledgerPath(for: user))
        // The user's own block of ids: another user's id is a 404 here, never an own row.
        try s.startIDs(after: user.idBase)
        stores[user.id] = s
        return s
    }

    /// Runs `job` as the user's only writing job; 409 when another one runs.
    func exclusive<T: Sendable>(_ user: ServerUser, _ what: String, _ job: @Sendable (LedgerStore) async throws -> T) async throws -> T {
        if let running = busy[user.id] {
            throw APIError(.conflict, "import_in_progress", "\(running) is still running for this user; try again when it has finished")
        }
        busy[user.id] = what
        defer { busy[user.id] = nil }
        return try await job(try store(for: user))
    }

    /// True when no writing job runs for the user (a webhook-started sync then may start).
    func isIdle(_ user: ServerUser) -> Bool { busy[user.id] == nil }
}
