import Foundation
import GRDB
import MoneyFlowCategories
import MoneyFlowCore

/// The owner of the category tables (migration v12):
///
/// - `category_decision`: the user's own decision per transaction (`moneyflow categorize`), one
///   account or a split (JSON parts). Nothing but the user writes it; it wins over every other
///   source and moves with the transaction's records when a relink empties the transaction.
///   `decided_batch` and `decided_txn` (v14) name the categorize batch that made it and the
///   transaction that batch's change names, wherever the decision went since (kept by an undo
///   and restored on a new transaction, moved by a relink or a merge): undoing that batch
///   finds it there.
/// - `txn_category`: the computed category of every transaction (account, source, reason JSON,
///   split JSON), derived by ``CategoryPass`` after every write, like the merged view.
enum CategoryTable {
    static func create(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE category_decision (
                  transaction_id INTEGER PRIMARY KEY,
                  account TEXT NOT NULL, split TEXT, decided_at TEXT NOT NULL);
                CREATE TABLE txn_category (
                  transaction_id INTEGER PRIMARY KEY,
                  account TEXT, source TEXT NOT NULL, reason TEXT NOT NULL, split TEXT);
                """)
    }

    // MARK: The user's decisions

    /// A decision as stored (`split` as JSON), the text a categorize batch keeps for undo.
    struct StoredDecision: Codable, Equatable {
        var account: String
        var split: String?
        /// The categorize batch that made it and the transaction its change names (nil: made
        /// before v14 kept them).
        var batch: Int64? = nil
        var origin: Int64? = nil
        /// The values of ``CategoryTable/keptColumns``.
        var keptValues: [(any DatabaseValueConvertible)?] { [account, split, batch, origin] }
    }

    /// Every decision, by transaction id order.
    static func decisions(_ db: Database) throws -> [CategoryDecision] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT d.transaction_id, d.account, d.split, t.currency FROM category_decision d JOIN txn t ON t.id = d.transaction_id
                ORDER BY d.transaction_id
                """
        ).map { row in
            let id: Int64 = row[0]
            if let text: String = row[2] {
                return CategoryDecision(transactionID: id, split: try decodeSplit(text, transactionID: id, currency: row[3]))
            }
            return CategoryDecision(transactionID: id, account: row[1])
        }
    }

    /// Transaction `id`'s decision as stored, nil when the user has not decided.
    static func storedDecision(_ db: Database, _ id: Int64) throws -> StoredDecision? {
        try Row.fetchOne(
            db, sql: "SELECT account, split, decided_batch, decided_txn FROM category_decision WHERE transaction_id = ?", arguments: [id]
        ).map { StoredDecision(account: $0[0], split: $0[1], batch: $0[2], origin: $0[3]) }
    }

    /// Sets (or with nil removes) transaction `id`'s decision.
    static func setDecision(_ db: Database, _ id: Int64, _ d: StoredDecision?, at timestamp: String) throws {
        guard let d else {
            try db.execute(sql: "DELETE FROM category_decision WHERE transaction_id = ?", arguments: [id])
            return
        }
        try db.execute(
            sql: """
                INSERT INTO category_decision(transaction_id, account, split, decided_at, decided_batch, decided_txn) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT(transaction_id) DO UPDATE SET account = excluded.account, split = excluded.split, decided_at = excluded.decided_at,
                  decided_batch = excluded.decided_batch, decided_txn = excluded.decided_txn
                """, arguments: [id, d.account, d.split, timestamp, d.batch, d.origin])
    }

    /// Undoes categorize batch `batch`'s change of transaction `t`'s decision: wherever that
    /// decision is now (on `t`, or on the transaction it followed its records to: a re-import
    /// after an undo, a relink, a merge) and wherever it is kept (`kept_edit`, waiting for its
    /// rows to come back), the decision before it takes its place. A decision made since (by a
    /// later batch) is left alone. A decision from before v14 has no provenance: it is undone
    /// on `t` itself, as it was.
    static func undoDecision(_ db: Database, batch: Int64, transaction t: Int64, before: StoredDecision?, at timestamp: String) throws {
        var hosts = try Int64.fetchAll(
            db, sql: "SELECT transaction_id FROM category_decision WHERE decided_batch = ? AND decided_txn = ?", arguments: [batch, t])
        if hosts.isEmpty, let current = try storedDecision(db, t), current.batch == nil { hosts = [t] }
        for host in hosts { try setDecision(db, host, before, at: timestamp) }
        let kept = (before?.keptValues ?? keptColumns.map { _ in nil }) + [batch, t]
        try db.execute(
            sql: """
                UPDATE kept_edit SET \(keptColumns.map { "\($0) = ?" }.joined(separator: ", "))
                WHERE category_batch = ? AND category_txn = ?
                """, arguments: StatementArguments(kept))
    }

    /// When a relink empties transaction `from` into `to`, its decision goes with its records
    /// (a decision the user already made on `to` wins).
    static func moveDecision(_ db: Database, from: Int64, to: Int64) throws {
        try db.execute(
            sql: """
                INSERT INTO category_decision(transaction_id, account, split, decided_at, decided_batch, decided_txn)
                SELECT ?, account, split, decided_at, decided_batch, decided_txn FROM category_decision WHERE transaction_id = ?
                ON CONFLICT(transaction_id) DO NOTHING;
                DELETE FROM category_decision WHERE transaction_id = ?;
                """, arguments: [to, from, from])
    }

    /// The columns of `kept_edit` (v13) that keep a decision while an undo has removed its
    /// transaction, in ``StoredDecision/keptValues`` order: it comes back with the records.
    static let keptColumns = ["category_account", "category_split", "category_batch", "category_txn"]

    /// A decision kept in `kept_edit` (``keptColumns`` values), restored on transaction `id` when
    /// its records come back: a decision the user made on it since wins, and a split that no
    /// longer sums to the transaction's amount (the rows joined another transaction) is left
    /// out rather than booked wrong. Returns whether it was restored.
    @discardableResult
    static func restoreKept(_ db: Database, _ id: Int64, _ kept: StoredDecision?, at timestamp: String) throws -> Bool {
        guard let kept, try storedDecision(db, id) == nil,
            let amount = try Int64.fetchOne(db, sql: "SELECT amount_minor FROM txn WHERE id = ?", arguments: [id])
        else { return false }
        if let split = kept.split {
            let pairs = try? JSONDecoder().decode([[String]].self, from: Data(split.utf8))
            guard pairs?.reduce(Int64(0), { $0 + (Int64($1.last ?? "") ?? 0) }) == amount else { return false }
        }
        try setDecision(db, id, kept, at: timestamp)
        return true
    }

    static func encodeSplit(_ split: CategorySplit) throws -> String {
        let parts = split.parts.map { [$0.account, String($0.amount.minorUnits)] }
        return String(decoding: try JSONEncoder().encode(parts), as: UTF8.self)
    }

    /// A stored split (`[[account, minor units], ...]`) of transaction `id`, checked again
    /// against the transaction's amount by the caller's split constructor.
    static func decodeSplit(_ text: String, transactionID id: Int64, currency: String) throws -> CategorySplit {
        guard let pairs = try? JSONDecoder().decode([[String]].self, from: Data(text.utf8)),
            pairs.allSatisfy({ $0.count == 2 && Int64($0[1]) != nil })
        else { throw StoreError("unreadable category split of transaction \(id): \(text)") }
        let parts = pairs.map { CategorySplit.Part(account: $0[0], amount: Money(minorUnits: Int64($0[1])!, currency: currency)) }
        let total = Money(minorUnits: parts.reduce(0) { $0 + $1.amount.minorUnits }, currency: currency)
        do { return try CategorySplit(parts: parts, total: total) } catch {
            throw StoreError("category split of transaction \(id): \(error.description)")
        }
    }

    // MARK: The computed category

    /// Writes transaction `id`'s computed category. Nothing applying is the absence of a row
    /// (most rows of a bank CSV): the pass writes nothing for them, readers see
    /// ``CategoryReason/nothingApplies``. `reasons` caches the reasons' JSON across one pass
    /// (a provider's or a rule's reason repeats on many rows); `hadRow` says whether the
    /// transaction has a row now (none to delete otherwise).
    static func writeComputed(
        _ db: Database, _ id: Int64, _ a: CategoryAssignment, hadRow: Bool, reasons: inout [CategoryReason: String]
    ) throws {
        if a == .uncategorized {
            if hadRow { try db.cachedStatement(sql: "DELETE FROM txn_category WHERE transaction_id = ?").execute(arguments: [id]) }
            return
        }
        let reason: String
        if let known = reasons[a.reason] {
            reason = known
        } else {
            reason = String(decoding: try reasonEncoder.encode(a.reason), as: UTF8.self)
            reasons[a.reason] = reason
        }
        try db.cachedStatement(
            sql: """
                INSERT INTO txn_category(transaction_id, account, source, reason, split) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT(transaction_id) DO UPDATE SET account = excluded.account, source = excluded.source,
                  reason = excluded.reason, split = excluded.split
                """
        ).execute(arguments: [id, a.account, a.source.rawValue, reason, try a.split.map(encodeSplit)])
    }

    /// Transaction `id`'s stored computed category (its account and source; the reason is not
    /// read), nil when nothing applies to it.
    static func computed(_ db: Database, _ id: Int64) throws -> CategoryAssignment? {
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT account, source FROM txn_category WHERE transaction_id = ?"), arguments: [id]),
            let source = CategorySource(rawValue: row[1])
        else { return nil }
        return CategoryAssignment(account: row[0], source: source, reason: .nothingApplies)
    }

    /// Forgets the computed category and the decision of transactions that no longer exist.
    static func dropDeleted(_ db: Database) throws {
        try db.execute(
            sql: """
                DELETE FROM txn_category WHERE NOT EXISTS (SELECT 1 FROM txn t WHERE t.id = txn_category.transaction_id);
                DELETE FROM category_decision WHERE NOT EXISTS (SELECT 1 FROM txn t WHERE t.id = category_decision.transaction_id);
                """)
    }

    /// Reads the computed category of one transaction at a time (for listings).
    /// Reads the computed category of one transaction at a time (for listings); a transaction
    /// without a row has nothing that applies (as in a store read before its v12 upgrade).
    struct Reader {
        let statement: Statement?
        /// Each reason's JSON decoded once per listing.
        private var reasons: [String: CategoryReason] = [:]
        init(_ db: Database) throws {
            statement =
                try db.tableExists("txn_category")
                ? db.cachedStatement(sql: "SELECT account, source, reason, split FROM txn_category WHERE transaction_id = ?") : nil
        }
        mutating func category(_ id: Int64, currency: String) throws -> TransactionCategory {
            guard let statement, let row = try Row.fetchOne(statement, arguments: [id]) else { return Self.nothing }
            let reasonJSON: String = row[2]
            let reason: CategoryReason?
            if let known = reasons[reasonJSON] {
                reason = known
            } else {
                reason = try? JSONDecoder().decode(CategoryReason.self, from: Data(reasonJSON.utf8))
                reasons[reasonJSON] = reason
            }
            let split = try (row[3] as String?).map { try CategoryTable.decodeSplit($0, transactionID: id, currency: currency) }
            return TransactionCategory(
                account: row[0], source: row[1], reasonJSON: reasonJSON, reasonKind: reason?.kind ?? "nothing-applies",
                reasonText: reason?.text ?? "",
                split: split?.parts.map { TransactionCategory.Part(account: $0.account, amount: $0.amount) } ?? [])
        }

        static let nothing: TransactionCategory = {
            let r = CategoryReason.nothingApplies
            let json = (try? reasonEncoder.encode(r)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
            return TransactionCategory(
                account: nil, source: CategorySource.none.rawValue, reasonJSON: json, reasonKind: r.kind, reasonText: r.text)
        }()
    }

    private static let reasonEncoder: JSONEncoder = {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return e
    }()
}
