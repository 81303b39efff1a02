import Foundation
import GRDB
import MoneyFlowCore

/// What an undo did.
public struct UndoResult: Sendable, Equatable {
    /// Records deleted (no other active batch holds them).
    public var recordsRemoved = 0
    /// Records the undone batch had brought in that another active batch also holds: kept,
    /// now belonging to the earliest such batch (its file and row).
    public var recordsKept = 0
    /// Transactions deleted because no record supports them any more.
    public var transactionsRemoved = 0
    /// Of those, transactions the user had edited or categorised: their edits and category
    /// decisions are kept by the records' identity and come back when those rows are imported again.
    public var editedTransactionsRemoved = 0
    /// Accounts given back by undoing a merge (`accounts merge`), with all they held.
    public var accountsRestored = 0
    public init() {}
}

/// The user's own fields and category decision of a transaction and the identities of the
/// records behind it.
struct KeptEdit {
    /// The transaction's ``TransactionTable/userColumns``, in their order (all nil if unedited).
    var fields: [String?]
    /// The user's category decision (`moneyflow categorize`), nil when the user has not decided.
    var decision: CategoryTable.StoredDecision?
    var records: [(accountKey: String, kind: String, fingerprint: String)]
    /// The kept columns of `kept_edit` besides the records' identity and `kept_at`.
    static let columns = TransactionTable.userColumns + CategoryTable.keptColumns
}

extension BatchUndo {
    /// Hands each record of this batch that a still-active later batch confirmed to the
    /// earliest such batch, with that batch's place in its file (so the ledger equals the one
    /// built from the remaining batches alone). Returns how many records were kept.
    func handOverConfirmedRecords() throws -> Int {
        // Set-based (an undo may hand over a whole statement's rows): the heir of each record
        // is its earliest still-active confirming batch other than this one.
        try db.execute(
            sql: """
                CREATE TEMP TABLE IF NOT EXISTS undo_heir (record_id INTEGER PRIMARY KEY, batch_id INTEGER NOT NULL);
                DELETE FROM undo_heir;
                """)
        try db.execute(
            sql: """
                INSERT INTO undo_heir(record_id, batch_id)
                SELECT c.record_id, min(c.batch_id) FROM record r
                JOIN record_confirmation c ON c.record_id = r.id JOIN batch b ON b.id = c.batch_id
                WHERE r.batch_id = ? AND c.batch_id <> ? AND b.undone_at IS NULL
                GROUP BY c.record_id
                """, arguments: [batchID, batchID])
        let kept = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM undo_heir") ?? 0
        if kept > 0 {
            try db.execute(
                sql: """
                    UPDATE record SET (batch_id, \(RecordTable.placeColumns.joined(separator: ", "))) = (
                      SELECT c.batch_id, \(RecordTable.placeColumns.map { "c." + $0 }.joined(separator: ", "))
                      FROM undo_heir h JOIN record_confirmation c ON c.record_id = h.record_id AND c.batch_id = h.batch_id
                      WHERE h.record_id = record.id)
                    WHERE id IN (SELECT record_id FROM undo_heir);
                    DELETE FROM record_confirmation WHERE (record_id, batch_id) IN (SELECT record_id, batch_id FROM undo_heir);
                    """)
        }
        try db.execute(sql: "DELETE FROM undo_heir")
        // What this batch confirmed of other batches' records no longer counts.
        try db.execute(sql: "DELETE FROM record_confirmation WHERE batch_id = ?", arguments: [batchID])
        return kept
    }

    /// A transaction created by this batch that survives on handed-over records takes its
    /// place in the ledger's order from its earliest remaining record, as if that record's
    /// batch had created it.
    func reanchor(_ transactionID: Int64) throws {
        guard
            let created = try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT created_batch_id FROM txn WHERE id = ?"), arguments: [transactionID]),
            created == batchID,
            let first = try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT r.batch_id, r.file_seq FROM link l JOIN record r ON r.id = l.record_id
                        WHERE l.transaction_id = ? ORDER BY r.batch_id, r.file_seq LIMIT 1
                        """), arguments: [transactionID])
        else { return }
        let b: Int64 = first["batch_id"], seq: Int64 = first["file_seq"]
        try db.cachedStatement(sql: "UPDATE txn SET created_batch_id = ?, sort_key = ? WHERE id = ?").execute(arguments: [
            b, TransactionTable.sortKey(batchID: b, fileSeq: seq), transactionID,
        ])
    }

    /// User edits and category decisions of the given transactions, with the identities of
    /// their records (read before this batch's records are deleted).
    func editsAtRisk(_ transactions: Set<Int64>) throws -> [Int64: KeptEdit] {
        var out: [Int64: KeptEdit] = [:]
        for t in transactions.sorted() {
            let fields = try TransactionTable.userFields(db, t), decision = try CategoryTable.storedDecision(db, t)
            guard fields != nil || decision != nil else { continue }
            let records = try Row.fetchAll(
                db,
                sql: """
                    SELECT k.key, r.source_kind, r.fingerprint FROM link l JOIN record r ON r.id = l.record_id
                    JOIN account_key k ON k.account_id = r.account_id WHERE l.transaction_id = ?
                    """, arguments: [t]
            ).map { (accountKey: $0[0] as String, kind: $0[1] as String, fingerprint: $0[2] as String) }
            out[t] = KeptEdit(
                fields: fields ?? TransactionTable.userColumns.map { _ in nil }, decision: decision, records: records)
        }
        return out
    }

    /// Keeps a removed transaction's edit and decision under its records' identities.
    func keep(_ edit: KeptEdit, at date: Date) throws {
        let columns = KeptEdit.columns
        let decision = edit.decision?.keptValues ?? CategoryTable.keptColumns.map { _ in nil }
        for r in edit.records {
            let values: [(any DatabaseValueConvertible)?] =
                [r.accountKey, r.kind, r.fingerprint] + edit.fields + decision + [PlanApplier.timestamp(date)]
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO kept_edit(account_key, source_kind, fingerprint, \(columns.joined(separator: ", ")), kept_at)
                    VALUES (?, ?, ?, \(columns.map { _ in "?" }.joined(separator: ", ")), ?)
                    """,
                arguments: StatementArguments(values))
        }
    }
}

extension PlanApplier {
    /// Edits and category decisions kept when an undo removed an edited transaction come back
    /// on the transaction that now shows one of those records again (a field or decision the
    /// user has set since is not overwritten).
    func restoreKeptEdits(batchID: Int64) throws {
        guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM kept_edit)") == true else { return }
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT k.account_key, k.source_kind, k.fingerprint, \(KeptEdit.columns.map { "k." + $0 }.joined(separator: ", ")), l.transaction_id
                FROM kept_edit k JOIN account_key ak ON ak.key = k.account_key
                JOIN record r ON r.account_id = ak.account_id AND r.source_kind = k.source_kind AND r.fingerprint = k.fingerprint
                JOIN link l ON l.record_id = r.id
                WHERE r.batch_id = ?
                """, arguments: [batchID])
        for row in rows {
            try TransactionTable.fillUserFields(db, row["transaction_id"], TransactionTable.userColumns.map { row[$0] as String? })
            let kept = (row["category_account"] as String?).map {
                CategoryTable.StoredDecision(
                    account: $0, split: row["category_split"], batch: row["category_batch"], origin: row["category_txn"])
            }
            try CategoryTable.restoreKept(db, row["transaction_id"], kept, at: Self.timestamp(importedAt))
            try db.execute(
                sql: "DELETE FROM kept_edit WHERE account_key = ? AND source_kind = ? AND fingerprint = ?",
                arguments: [row["account_key"] as String, row["source_kind"] as String, row["fingerprint"] as String])
        }
    }
}
