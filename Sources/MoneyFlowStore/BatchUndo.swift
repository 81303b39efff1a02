import Foundation
import GRDB
import MoneyFlowCore

/// Reverses one import batch inside a write transaction.
struct BatchUndo {
    let db: Database
    let batchID: Int64

    func run(at date: Date) throws -> UndoResult {
        guard let batch = try Row.fetchOne(db, sql: "SELECT undone_at FROM batch WHERE id = ?", arguments: [batchID]) else {
            throw StoreError.notFound("no batch \(batchID)")
        }
        if let undone: String = batch["undone_at"] { throw StoreError("batch \(batchID) was already undone at \(undone)") }
        var result = UndoResult()
        try checkMergeCanBeUndone()
        // Accounts this batch's records are in: removed below if nothing is left in them.
        var accountsCreated = try Int64.fetchAll(db, sql: "SELECT DISTINCT account_id FROM record WHERE batch_id = ?", arguments: [batchID])
        var touched = Set<Int64>(
            try Int64.fetchAll(
                db,
                sql: """
                    SELECT DISTINCT l.transaction_id FROM link l JOIN record r ON r.id = l.record_id WHERE r.batch_id = ?
                    """, arguments: [batchID]))
        var currenciesAdded: [(Int64, String)] = []
        var restorer = RowImage.Restorer(db: db)
        for change in try BatchChangeTable.newestFirst(db, batchID: batchID) {
            // Every kind is handled here (no default): a new kind must say how it is undone.
            switch change {
            case .recordRow(let rid, let before):
                try before.write(db, recordID: rid)
                if let t = try LinkTable.transaction(ofRecord: rid, db) { touched.insert(t) }
            case .recordState(let rid, let before):
                try RecordTable.setState(db, recordID: rid, before ?? "active")
                if let t = try LinkTable.transaction(ofRecord: rid, db) { touched.insert(t) }
            case .linkMoved(let rid, let snap):
                // A relink of an earlier import's record: put the link (and review) back. The
                // record may be gone if its own import was undone meanwhile.
                if let t = try LinkTable.transaction(ofRecord: rid, db) {
                    touched.insert(t)
                    try LinkTable.move(
                        db, recordID: rid, to: snap.transactionID, score: snap.score, reasonsJSON: snap.reasons,
                        decidedBy: snap.decidedBy, evidence: snap.evidence)
                    try ReviewTable.delete(db, recordID: rid)
                    if let c = snap.reviewCandidates { try ReviewTable.insert(db, recordID: rid, candidatesJSON: c) }
                    touched.insert(snap.transactionID)
                }
            case .syncCursor(let scope, let before), .syncProgress(let scope, let before):
                let table: SyncCursorTable = change.kind == .syncCursor ? .state : .progress
                if let before {
                    try table.restore(db, scope: scope, cursor: before, at: PlanApplier.timestamp(date))
                } else {
                    try table.delete(db, scope: scope)
                }
            case .row(let key, let before):
                try restorer.restore(key, before)
                if key.table == "account", before != nil { result.accountsRestored += 1 }
            case .mergeInto, .mergeFrom: break
            case .accountCreated(let a): accountsCreated.append(a)
            case .accountKey:
                // An import key lives as long as its account (removed with it below): the
                // account may survive on other batches' records, and the next import of the
                // same account must find it by its key, not create `Name (2)` beside it.
                break
            case .accountCurrency(let a, let c): currenciesAdded.append((a, c))
            case .accountBalance(let a, let b):
                try AccountTable.setBalance(db, a, b)
            case .categoryDecision(let t, let before):
                // The user's decision before this categorize batch, wherever this batch's
                // decision went since (kept by an undo, restored on a re-imported transaction).
                try CategoryTable.undoDecision(db, batch: batchID, transaction: t, before: before, at: PlanApplier.timestamp(date))
            }
        }
        result.recordsKept = try handOverConfirmedRecords()
        let editsOfRemoved = try editsAtRisk(touched)
        result.recordsRemoved = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM record WHERE batch_id = ?", arguments: [batchID]) ?? 0
        try db.execute(sql: "DELETE FROM review WHERE record_id IN (SELECT id FROM record WHERE batch_id = ?)", arguments: [batchID])
        try db.execute(sql: "DELETE FROM link WHERE record_id IN (SELECT id FROM record WHERE batch_id = ?)", arguments: [batchID])
        try db.execute(sql: "DELETE FROM record WHERE batch_id = ?", arguments: [batchID])
        try db.execute(sql: "DELETE FROM statement_fact WHERE batch_id = ?", arguments: [batchID])
        for t in touched.sorted() {
            if try LinkTable.recordCount(ofTransaction: t, db) == 0 {
                if let edit = editsOfRemoved[t] {
                    try keep(edit, at: date)
                    result.editedTransactionsRemoved += 1
                }
                try db.cachedStatement(sql: "DELETE FROM user_decision WHERE transaction_id = ?").execute(arguments: [t])
                try TransactionTable.delete(db, t)
                result.transactionsRemoved += 1
            } else {
                // Its shown fields are merged again by the write's passes (``WritePasses``).
                try reanchor(t)
            }
        }
        for (a, c) in currenciesAdded {
            let used =
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM record WHERE account_id = ? AND currency = ?", arguments: [a, c]) ?? 0
            if used == 0 { try db.execute(sql: "DELETE FROM account_currency WHERE account_id = ? AND currency = ?", arguments: [a, c]) }
        }
        for a in Set(accountsCreated).sorted() {
            let used =
                try Int.fetchOne(
                    db, sql: "SELECT (SELECT COUNT(*) FROM record WHERE account_id = ?) + (SELECT COUNT(*) FROM txn WHERE account_id = ?)",
                    arguments: [a, a]) ?? 0
            if used == 0 {
                try db.execute(sql: "DELETE FROM account_key WHERE account_id = ?", arguments: [a])
                try db.execute(sql: "DELETE FROM account WHERE id = ?", arguments: [a])
            }
        }
        try BatchTable.markUndone(db, batchID, at: PlanApplier.timestamp(date))
        return result
    }
}
