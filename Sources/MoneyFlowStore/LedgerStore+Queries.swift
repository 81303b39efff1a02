import Foundation
import GRDB
import MoneyFlowCore

/// Reads for listings, outputs and checks (nothing here writes).
extension LedgerStore {
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
        try read { db in try SyncCursorTable.state.cursor(db, scope: scope) }
    }

    /// Cursor reached inside an update that is not complete yet.
    public func syncProgress(scope: String) throws -> String? {
        try read { db in try SyncCursorTable.progress.cursor(db, scope: scope) }
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

    /// A deterministic digest of the whole ledger content (for tests and integrity checks),
    /// categories included: the user's decisions, the computed categories and the rules and
    /// mapping (absent from a store read before its v12 upgrade).
    public func contentDigest() throws -> String {
        try read { db in
            var parts: [String] = []
            let categories = ["category_decision", "txn_category", "category_setting"]
            for table in [
                "account", "account_key", "account_currency", "batch", "batch_warning", "txn", "record", "link", "review", "user_decision",
                "sync_state", "sync_progress", "sync_scope_alias", "batch_change", "record_confirmation", "kept_edit",
                "transfer", "transfer_review", "transfer_decision", "account_pair", "statement_fact",
            ] + categories {
                if categories.contains(table), try !db.tableExists(table) { continue }
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
            // A cursor read by column position: at 100,000 rows this is the web home page's
            // balance-break check, so no row array, no per-row key string.
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT a.name AS account, r.currency, r.batch_id, b.file_name, r.date, r.amount_minor, r.balance_minor, l.transaction_id
                    FROM record r JOIN account a ON a.id = r.account_id JOIN batch b ON b.id = r.batch_id
                    JOIN link l ON l.record_id = r.id
                    WHERE r.balance_minor IS NOT NULL AND r.state = 'active' AND r.source_kind NOT IN \(SourceKindSQL.feeds) \(account == nil ? "" : "AND a.name = ?")
                    ORDER BY r.batch_id, a.name, r.currency, r.file_seq
                    """, arguments: account.map { [$0] } ?? [])
            var runs: [BalanceRun] = []
            var dates: [(first: String, last: String)] = []
            var last: (batch: Int64, account: String, currency: String)?
            while let r = try rows.next() {
                let batch: Int64 = r[2], name: String = r[0], currency: String = r[1], date: String = r[4]
                if last == nil || last!.batch != batch || last!.account != name || last!.currency != currency {
                    runs.append(BalanceRun(account: name, currency: currency, file: r[3], rows: []))
                    dates.append((date, date))
                    last = (batch, name, currency)
                }
                runs[runs.count - 1].rows.append((r[7], r[5], r[6]))
                dates[dates.count - 1].last = date
            }
            for i in runs.indices where dates[i].first > dates[i].last { runs[i].rows.reverse() }
            return runs
        }
    }
}
