import Foundation
import GRDB
import MoneyFlowCore

/// Errors the store reports to users.
public struct StoreError: Error, Sendable, CustomStringConvertible {
    public var message: String
    /// True when the error is that an id (record, transaction, batch) names nothing here: the
    /// server answers 404 for it.
    public var isNotFound = false
    public init(_ message: String) { self.message = message }
    public var description: String { message }

    /// An id that names nothing in this store.
    public static func notFound(_ message: String) -> StoreError {
        var e = StoreError(message)
        e.isNotFound = true
        return e
    }

    /// A command that needs the store's data was pointed at a path with no store.
    public static func missingStore(_ path: String) -> StoreError {
        StoreError(
            "no store at \(path): nothing has been imported there. Import a statement first (moneyflow import FILE --store \(path)), or look at the demo's store with --store demo.sqlite"
        )
    }
}

/// Result of applying a plan.
public struct AppliedImport: Sendable {
    public var batchID: Int64
    public var plan: ImportPlan
}

/// The shared ledger: accounts, import batches, records, transactions, links, sync state.
///
/// In a SQLite file: WAL mode, a generous busy timeout and immediate write transactions make
/// several processes importing at once safe. On a server (``RemoteLedger``, PostgreSQL): the
/// same code runs on a working copy, and every write is one server transaction under the
/// ledger's lock. Either way every import is planned and applied inside ONE write transaction.
public final class LedgerStore: Sendable {
    /// The store's file, or the remote ledger's display name (never with a password).
    public let path: String
    let pool: any DatabaseWriter
    public let access: StoreAccess
    /// The server that holds the ledger when it is not a local file.
    public let remote: (any RemoteLedger)?

    /// The store's file when it is a local SQLite store (files beside it, such as the Plaid
    /// archive, go next to it); nil for a ledger on a server.
    public var filePath: String? { remote == nil ? path : nil }

    /// Opens a ledger kept on a server, through an in-memory working copy (see ``RemoteLedger``).
    public init(remote: any RemoteLedger, access: StoreAccess = .readWrite) throws {
        self.path = remote.displayName
        self.access = access
        self.remote = remote
        do { self.pool = try remote.attach(migrator: Schema.migrator, access: access) } catch let error as DatabaseError {
            throw StoreError("cannot open store \(remote.displayName): \(error.message ?? "\(error.resultCode)")")
        }
    }

    /// Opens the store at `path`. `.readWrite` creates it (mode 0600) if needed and upgrades
    /// its schema; `.readOnly` requires it to exist and never writes (see ``StoreAccess``).
    /// Either way a file that is not a MoneyFlow store, or a store from a newer MoneyFlow, is
    /// refused before anything is written. `waitNotice` is told once when a write has waited
    /// about a second for another process's write lock.
    public init(path: String, access: StoreAccess = .readWrite, waitNotice: (@Sendable (String) -> Void)? = nil) throws {
        self.path = path
        self.access = access
        self.remote = nil
        let known = Schema.migrator.migrations
        var config = Configuration()
        config.label = "MoneyFlow"
        config.busyMode = Self.busyMode(path: path, waitNotice: waitNotice)
        do {
            if access == .readOnly {
                var info = stat()
                guard stat(path, &info) == 0 else { throw StoreError.missingStore(path) }
                let queue = try StoreFile.openReadOnly(path, configuration: config)
                try queue.read { db in try StoreFile.check(db, path: path, known: known) }
                pool = queue
                return
            }
            try StoreFile.create(path)
            if ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int ?? 0) > 0 {
                var readOnly = config
                readOnly.readonly = true
                try DatabaseQueue(path: path, configuration: readOnly).read { db in try StoreFile.check(db, path: path, known: known) }
            }
            let pool = try DatabasePool(path: path, configuration: config)
            // Another process may be migrating the same new store right now: its migration
            // commits, ours then sees it applied. Retry a few times before giving up.
            var attempt = 0
            while true {
                do { try Schema.migrator.migrate(pool); break } catch let e as DatabaseError where attempt < 5 {
                    attempt += 1
                    _ = e
                    usleep(useconds_t(50_000 * attempt))
                }
            }
            self.pool = pool
        } catch let error as DatabaseError {
            throw StoreError("cannot open store \(path): \(error.message ?? "\(error.resultCode)")")
        }
    }

    /// Waits up to 120 s for another process's lock, telling `waitNotice` once after ~1 s.
    static func busyMode(path: String, waitNotice: (@Sendable (String) -> Void)?) -> Database.BusyMode {
        .callback { tries in
            // SQLite calls this each time the lock is still taken; each call sleeps 10 ms.
            if tries == 100 { waitNotice?("waiting for another moneyflow process to finish writing \(path)…") }
            guard tries < 12_000 else { return false }
            usleep(10_000)
            return true
        }
    }

    // MARK: Import

    /// Plans with `makePlan` against the current store and, unless `dryRun`, applies the plan
    /// in the same write transaction (so what is planned is exactly what is written).
    public func importStatement(
        dryRun: Bool, importedAt: Date = Date(),
        makePlan: (any LedgerView) throws -> ImportPlan
    ) throws -> AppliedImport? {
        if dryRun {
            _ = try read { db in try makePlan(StoreLedgerView(db: db)) }
            return nil
        }
        return try write { db -> AppliedImport in
            let plan = try makePlan(StoreLedgerView(db: db))
            var applier = PlanApplier(db: db, plan: plan, importedAt: importedAt)
            let id = try applier.apply()
            return AppliedImport(batchID: id, plan: plan)
        }
    }

    /// Plans against the store without writing.
    public func plan(_ makePlan: (any LedgerView) throws -> ImportPlan) throws -> ImportPlan {
        try read { db in try makePlan(StoreLedgerView(db: db)) }
    }

    // MARK: Queries

    public func accounts() throws -> [LedgerAccount] {
        try read { db in try Queries.accounts(db) }
    }

    /// Transactions ordered by account name, date and source order.
    public func transactions(
        account: String? = nil, from: LocalDate? = nil, through: LocalDate? = nil,
        includeAll: Bool = false
    ) throws -> [LedgerTransaction] {
        try read { db in try Queries.transactions(db, account: account, from: from, through: through, includeAll: includeAll) }
    }

    public func batches() throws -> [LedgerBatch] {
        try read { db in try Queries.batches(db) }
    }

    /// Warnings recorded for a batch.
    public func warnings(batchID: Int64) throws -> [String] {
        try read { db in
            try String.fetchAll(db, sql: "SELECT message FROM batch_warning WHERE batch_id = ? ORDER BY seq", arguments: [batchID])
        }
    }

    /// Last saved sync cursor of a scope.
    public func syncCursor(scope: String) throws -> String? {
        try read { db in try String.fetchOne(db, sql: "SELECT cursor FROM sync_state WHERE scope = ?", arguments: [scope]) }
    }

    /// Cursor reached inside an update that is not complete yet.
    public func syncProgress(scope: String) throws -> String? {
        try read { db in try String.fetchOne(db, sql: "SELECT cursor FROM sync_progress WHERE scope = ?", arguments: [scope]) }
    }

    /// The sync scope (Plaid item) these account keys were last seen under, if exactly one.
    public func syncScope(forAccountKeys keys: [String]) throws -> String? {
        try read { db in
            var scopes = Set<String>()
            for k in keys {
                if let s = try String.fetchOne(db, sql: "SELECT scope FROM sync_scope_alias WHERE account_key = ?", arguments: [k]) {
                    scopes.insert(s)
                }
            }
            return scopes.count == 1 ? scopes.first : nil
        }
    }

    /// True when a file with these bytes was imported and not undone.
    public func fileAlreadyImported(sha256: String) throws -> Bool {
        try read { db in try StoreLedgerView(db: db).fileAlreadyImported(sha256: sha256) }
    }

    /// A deterministic digest of the whole ledger content (for tests and integrity checks).
    public func contentDigest() throws -> String {
        try read { db in
            var parts: [String] = []
            for table in [
                "account", "account_key", "account_currency", "batch", "batch_warning", "txn", "record", "link", "review", "user_decision",
                "sync_state", "sync_progress", "sync_scope_alias", "batch_change", "record_confirmation", "kept_edit",
                "transfer", "transfer_review", "transfer_decision", "account_pair", "statement_fact",
            ] {
                let rows = try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY 1, 2")
                parts.append(table + ":" + rows.map { $0.description }.joined(separator: "\n"))
            }
            return parts.joined(separator: "\n#\n")
        }
    }

    /// Runs `PRAGMA integrity_check` and returns its verdict (`ok` when healthy).
    public func integrityCheck() throws -> String {
        try read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check").joined(separator: "; ") }
    }

    /// A run of balance-carrying bank records from one imported file, in chronological order.
    public struct BalanceRun: Sendable {
        public var account: String
        public var currency: String
        public var file: String
        /// (transaction id, amount minor units, printed balance minor units)
        public var rows: [(transactionID: Int64, amount: Int64, balance: Int64)]
    }

    /// Bank records that print a running balance, per file, account and currency, in the
    /// file's chronological order (newest-first exports are reversed).
    public func balanceRuns(account: String? = nil) throws -> [BalanceRun] {
        try read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT a.name AS account, r.currency, r.batch_id, b.file_name, r.date, r.amount_minor, r.balance_minor, l.transaction_id
                    FROM record r JOIN account a ON a.id = r.account_id JOIN batch b ON b.id = r.batch_id
                    JOIN link l ON l.record_id = r.id
                    WHERE r.balance_minor IS NOT NULL AND r.state = 'active' AND r.source_kind NOT IN \(SourceKindSQL.feeds) \(account == nil ? "" : "AND a.name = ?")
                    ORDER BY r.batch_id, a.name, r.currency, r.file_seq
                    """, arguments: account.map { [$0] } ?? [])
            var runs: [BalanceRun] = []
            var dates: [[String]] = []
            var lastKey = ""
            for r in rows {
                let key = "\(r["batch_id"] as Int64)|\(r["account"] as String)|\(r["currency"] as String)"
                if key != lastKey {
                    runs.append(BalanceRun(account: r["account"], currency: r["currency"], file: r["file_name"], rows: []))
                    dates.append([])
                    lastKey = key
                }
                runs[runs.count - 1].rows.append((r["transaction_id"], r["amount_minor"], r["balance_minor"]))
                dates[dates.count - 1].append(r["date"])
            }
            for i in runs.indices where (dates[i].first ?? "") > (dates[i].last ?? "") { runs[i].rows.reverse() }
            return runs
        }
    }

    // MARK: Undo

    /// Undoes a batch: removes its records, restores what it changed, and deletes transactions
    /// that only its records supported. Everything else is untouched.
    @discardableResult
    public func undo(batchID: Int64, at date: Date = Date()) throws -> UndoResult {
        try write { db in try BatchUndo(db: db, batchID: batchID).run(at: date) }
    }

    // MARK: Accounts

    /// Renames an account (also sets its ledger name for exports when `ledgerName` is given).
    public func renameAccount(_ name: String, to newName: String?, ledgerName: String? = nil) throws {
        try write { db in
            guard let id = try Int64.fetchOne(db, sql: "SELECT id FROM account WHERE name = ?", arguments: [name]) else {
                throw StoreError("no account named '\(name)'")
            }
            if let newName {
                if try Int64.fetchOne(db, sql: "SELECT id FROM account WHERE name = ? AND id <> ?", arguments: [newName, id]) != nil {
                    throw StoreError("an account named '\(newName)' already exists")
                }
                try db.execute(sql: "UPDATE account SET name = ? WHERE id = ?", arguments: [newName, id])
            }
            if let ledgerName { try db.execute(sql: "UPDATE account SET ledger_name = ? WHERE id = ?", arguments: [ledgerName, id]) }
        }
    }

    /// Attaches an import identity (e.g. `plaid:<account_id>` or `csv:chase/checking`) to an
    /// existing account so that later imports with that identity land there.
    public func linkAccountKey(_ key: String, toAccount name: String) throws {
        try write { db in
            guard let id = try Int64.fetchOne(db, sql: "SELECT id FROM account WHERE name = ?", arguments: [name]) else {
                throw StoreError("no account named '\(name)'")
            }
            if let other = try Int64.fetchOne(db, sql: "SELECT account_id FROM account_key WHERE key = ?", arguments: [key]), other != id {
                let used = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM record WHERE account_id = ?", arguments: [other]) ?? 0
                if used > 0 {
                    throw StoreError("'\(key)' already belongs to another account holding \(used) records; undo those imports first")
                }
            }
            try db.execute(
                sql:
                    "INSERT INTO account_key(key, account_id) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET account_id = excluded.account_id",
                arguments: [key, id])
        }
    }

    // MARK: User edits

    /// Sets a user's own description, counterparty or note on a transaction (an empty string
    /// clears that edit). User edits win over every source and survive provider updates.
    public func editTransaction(_ id: Int64, description: String? = nil, counterparty: String? = nil, note: String? = nil) throws {
        try write { db in
            guard try Int64.fetchOne(db, sql: "SELECT id FROM txn WHERE id = ?", arguments: [id]) != nil else {
                throw StoreError("no transaction \(id)")
            }
            func set(_ column: String, _ value: String?) throws {
                guard let value else { return }
                try db.execute(sql: "UPDATE txn SET \(column) = ? WHERE id = ?", arguments: [value.isEmpty ? nil : value, id])
            }
            try set("user_description", description)
            try set("user_counterparty", counterparty)
            try set("user_note", note)
        }
    }

    // MARK: Review decisions

    /// Links record `recordID` to transaction `transactionID` as the user decided; remembered
    /// and never overturned by a later import.
    public func userLink(recordID: Int64, transactionID: Int64) throws {
        try write { db in try UserDecisions(db: db).link(recordID: recordID, transactionID: transactionID) }
    }

    /// Detaches record `recordID` into its own transaction as the user decided.
    public func userUnlink(recordID: Int64) throws -> Int64 {
        try unlink(recordID: recordID).transactionID
    }

    /// Like ``userUnlink(recordID:)``, saying whether the record was already alone.
    public func unlink(recordID: Int64) throws -> UnlinkResult {
        try write { db in try UserDecisions(db: db).unlink(recordID: recordID) }
    }

    /// Records waiting for a review decision, with their candidates.
    public func pendingReviews() throws -> [PendingReview] {
        try read { db in try Queries.pendingReviews(db) }
    }
}

/// A record flagged for review, with the transactions it might belong to.
public struct PendingReview: Sendable, Codable {
    public var recordID: Int64
    public var transactionID: Int64
    public var record: LedgerSource
    public var account: String
    public var candidates: [ReviewCandidate]
}
