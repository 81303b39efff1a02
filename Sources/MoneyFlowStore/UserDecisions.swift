import Foundation
import GRDB
import MoneyFlowCore

/// Applies a user's link / unlink decisions and remembers them.
struct UserDecisions {
    let db: Database

    func recordRow(_ recordID: Int64) throws -> Row {
        guard
            let r = try Row.fetchOne(
                db, sql: "SELECT r.*, l.transaction_id FROM record r LEFT JOIN link l ON l.record_id = r.id WHERE r.id = ?",
                arguments: [recordID])
        else {
            throw StoreError.notFound("no record \(recordID)")
        }
        return r
    }

    func link(recordID: Int64, transactionID: Int64) throws {
        let r = try recordRow(recordID)
        guard let t = try Row.fetchOne(db, sql: "SELECT account_id, currency FROM txn WHERE id = ?", arguments: [transactionID]) else {
            throw StoreError.notFound("no transaction \(transactionID)")
        }
        guard (t["account_id"] as Int64) == (r["account_id"] as Int64) else {
            throw StoreError("record \(recordID) and transaction \(transactionID) belong to different accounts")
        }
        guard (t["currency"] as String) == (r["currency"] as String) else {
            throw StoreError("record \(recordID) and transaction \(transactionID) have different currencies")
        }
        let old: Int64? = r["transaction_id"]
        try LinkTable.setByUser(db, recordID: recordID, to: transactionID, reasonsJSON: Self.linkedReason)
        try ReviewTable.delete(db, recordID: recordID)
        try remember(r, transactionID: transactionID)
        try settle(old: old, new: transactionID)
    }

    static let linkedReason = #"[{"factor":"user","detail":"linked by user"}]"#
    static let unlinkedReason = #"[{"factor":"user","detail":"unlinked by user"}]"#

    /// Gives the record its own transaction. A record already alone in its transaction keeps
    /// it (same id, with its edits): unlinking it again changes nothing but remembering the
    /// decision, so a later import does not attach it elsewhere.
    func unlink(recordID: Int64) throws -> UnlinkResult {
        let r = try recordRow(recordID)
        let old: Int64? = r["transaction_id"]
        if let old, try LinkTable.recordCount(ofTransaction: old, db) == 1 {
            try ReviewTable.delete(db, recordID: recordID)
            try remember(r, transactionID: nil)
            try settle(old: nil, new: old)
            return UnlinkResult(transactionID: old, alreadyAlone: true)
        }
        let t = try TransactionTable.insertStandalone(db, forRecord: recordID, createdBatch: nil, needsReview: false)
        try LinkTable.setByUser(db, recordID: recordID, to: t, reasonsJSON: Self.unlinkedReason)
        try ReviewTable.delete(db, recordID: recordID)
        try remember(r, transactionID: nil)
        try settle(old: old, new: t)
        return UnlinkResult(transactionID: t, alreadyAlone: false)
    }

    private func remember(_ r: Row, transactionID: Int64?) throws {
        try db.execute(
            sql: """
                INSERT INTO user_decision(account_id, source_kind, fingerprint, transaction_id, decided_at) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT(account_id, source_kind, fingerprint) DO UPDATE SET transaction_id = excluded.transaction_id, decided_at = excluded.decided_at
                """,
            arguments: [
                r["account_id"] as Int64, r["source_kind"] as String, r["fingerprint"] as String, transactionID,
                PlanApplier.timestamp(Date()),
            ])
    }

    /// A transaction left with no records at all is deleted (its edits and the user's
    /// decisions go to `new`), and a transaction that lost a competitor leaves review. Their
    /// shown fields are merged again by the write's passes (``WritePasses``).
    private func settle(old: Int64?, new: Int64) throws {
        try leaveReviewIfSettled(new)
        guard let old, old != new else { return }
        if try LinkTable.recordCount(ofTransaction: old, db) == 0 {
            try PlanApplier.moveEditsIfEmptied(db, from: old, to: new)
            try db.execute(sql: "UPDATE user_decision SET transaction_id = ? WHERE transaction_id = ?", arguments: [new, old])
            try TransactionTable.delete(db, old)
        } else {
            try leaveReviewIfSettled(old)
        }
    }

    /// Transaction `t` no longer needs review once none of its records waits for a decision.
    private func leaveReviewIfSettled(_ t: Int64) throws {
        let waiting = try Bool.fetchOne(
            db, sql: "SELECT EXISTS (SELECT 1 FROM review rv JOIN link l ON l.record_id = rv.record_id WHERE l.transaction_id = ?)",
            arguments: [t])
        if waiting != true { try TransactionTable.setNeedsReview(db, t, false) }
    }
}

/// What `unlink` did.
public struct UnlinkResult: Sendable, Equatable {
    /// The record's transaction now.
    public var transactionID: Int64
    /// True when the record was already alone in that transaction: nothing moved.
    public var alreadyAlone: Bool
}
