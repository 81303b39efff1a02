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
    /// mapping (absent from a store read before its v12 upgrade), and the home page's sums
    /// (``SummaryTables``, from v15).
    public func contentDigest() throws -> String {
        try read { db in
            var parts: [String] = []
            // Tables a store opened read-only at an older schema may not have yet.
            let later = ["category_decision", "txn_category", "category_setting"] + SummaryTables.names
            for table in [
                "account", "account_key", "account_currency", "batch", "batch_warning", "txn", "record", "link", "review", "user_decision",
                "sync_state", "sync_progress", "sync_scope_alias", "batch_change", "record_confirmation", "kept_edit",
                "transfer", "transfer_review", "transfer_decision", "account_pair", "statement_fact",
            ] + later {
                if later.contains(table), try !db.tableExists(table) { continue }
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

    /// Where a bank's printed running balance does not chain within one imported file (kept by
    /// every write, ``SummaryTables``): the transaction of the row whose printed balance is not
    /// the previous row's plus its amount.
    public struct BalanceBreakRow: Sendable, Hashable {
        public var account: String
        public var transactionID: Int64
        public var currency: String
        public var file: String
        /// Previous balance + amount; nil when that sum is too large to hold.
        public var expected: Int64?
        public var printed: Int64
    }

    /// The balance breaks of accounts that hold live transactions, per file, account and
    /// currency, each run's in the file's chronological order. A store read before its v15
    /// upgrade (read-only) is checked in full (``BalanceBreakScan``), not left without breaks.
    public func balanceBreaks(account: String? = nil) throws -> [BalanceBreakRow] {
        try read { db in
            // Each break's record, with what the rows show of it.
            let named = """
                SELECT a.name, l.transaction_id, r.currency, b.file_name FROM record r JOIN account a ON a.id = r.account_id
                JOIN batch b ON b.id = r.batch_id JOIN link l ON l.record_id = r.id
                WHERE r.id = ? AND EXISTS (SELECT 1 FROM txn t WHERE t.account_id = a.id AND t.status = 'active')
                """
            let found: [BalanceBreakScan.Found] =
                try db.tableExists("balance_break")
                ? Row.fetchAll(db, sql: "SELECT record_id, batch_id, position, expected_minor, printed_minor FROM balance_break").map {
                    BalanceBreakScan.Found(recordID: $0[0], batchID: $0[1], position: $0[2], expected: $0[3], printed: $0[4])
                } : BalanceBreakScan.scan(db, records: "main.record r")
            var out: [(batch: Int64, position: Int, row: BalanceBreakRow)] = []
            for f in found {
                guard let r = try Row.fetchOne(db.cachedStatement(sql: named), arguments: [f.recordID]) else { continue }
                let row = BalanceBreakRow(account: r[0], transactionID: r[1], currency: r[2], file: r[3], expected: f.expected, printed: f.printed)
                if account == nil || row.account == account { out.append((f.batchID, f.position, row)) }
            }
            out.sort { ($0.batch, $0.row.account, $0.row.currency, $0.position) < ($1.batch, $1.row.account, $1.row.currency, $1.position) }
            return out.map(\.row)
        }
    }
}
