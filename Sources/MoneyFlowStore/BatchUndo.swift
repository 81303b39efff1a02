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
        let changes = try Row.fetchAll(
            db, sql: "SELECT kind, target, old_value FROM batch_change WHERE batch_id = ? ORDER BY seq DESC", arguments: [batchID])
        var currenciesAdded: [(Int64, String)] = []
        var restorer = RowImage.Restorer(db: db)
        for ch in changes {
            let kind: String = ch["kind"], target: String = ch["target"], old: String? = ch["old_value"]
            switch kind {
            case "record_row":
                let rid = Int64(target)!
                try RecordSnapshot.restore(db, recordID: rid, json: old!)
                if let t = try Int64.fetchOne(db, sql: "SELECT transaction_id FROM link WHERE record_id = ?", arguments: [rid]) {
                    touched.insert(t)
                }
            case "record_state":
                let rid = Int64(target)!
                try db.execute(sql: "UPDATE record SET state = ? WHERE id = ?", arguments: [old ?? "active", rid])
                if let t = try Int64.fetchOne(db, sql: "SELECT transaction_id FROM link WHERE record_id = ?", arguments: [rid]) {
                    touched.insert(t)
                }
            case "link_moved":
                // A relink of an earlier import's record: put the link (and review) back. The
                // record may be gone if its own import was undone meanwhile.
                let rid = Int64(target)!
                let snap = try JSONDecoder().decode(LinkSnapshot.self, from: Data((old ?? "").utf8))
                if let t = try Int64.fetchOne(db, sql: "SELECT transaction_id FROM link WHERE record_id = ?", arguments: [rid]) {
                    touched.insert(t)
                    try db.execute(
                        sql: "UPDATE link SET transaction_id = ?, score = ?, reasons = ?, decided_by = ?, evidence = ? WHERE record_id = ?",
                        arguments: [snap.transactionID, snap.score, snap.reasons, snap.decidedBy, snap.evidence, rid])
                    try db.execute(sql: "DELETE FROM review WHERE record_id = ?", arguments: [rid])
                    if let c = snap.reviewCandidates {
                        try db.execute(sql: "INSERT INTO review(record_id, candidates) VALUES (?, ?)", arguments: [rid, c])
                    }
                    touched.insert(snap.transactionID)
                }
            case "sync_cursor":
                if let old {
                    try db.execute(sql: "UPDATE sync_state SET cursor = ? WHERE scope = ?", arguments: [old, target])
                } else {
                    try db.execute(sql: "DELETE FROM sync_state WHERE scope = ?", arguments: [target])
                }
            case "sync_progress":
                if let old {
                    try db.execute(
                        sql:
                            "INSERT INTO sync_progress(scope, cursor, updated_at) VALUES (?, ?, ?) ON CONFLICT(scope) DO UPDATE SET cursor = excluded.cursor",
                        arguments: [target, old, PlanApplier.timestamp(date)])
                } else {
                    try db.execute(sql: "DELETE FROM sync_progress WHERE scope = ?", arguments: [target])
                }
            case "row":
                if try restorer.restore(target: target, old: old) == "account", old != nil { result.accountsRestored += 1 }
            case AccountMerge.intoChange, AccountMerge.fromChange: break
            case "account_created": accountsCreated.append(Int64(target)!)
            case "account_key":
                // An import key lives as long as its account (removed with it below): the
                // account may survive on other batches' records, and the next import of the
                // same account must find it by its key, not create `Name (2)` beside it.
                _ = target
            case "account_currency":
                let parts = target.split(separator: "|", maxSplits: 1)
                currenciesAdded.append((Int64(parts[0])!, String(parts[1])))
            case "account_balance":
                let parts = (old ?? "null|null|").split(separator: "|", omittingEmptySubsequences: false).map(String.init)
                try db.execute(
                    sql: "UPDATE account SET current_balance_minor = ?, available_balance_minor = ?, balance_currency = ? WHERE id = ?",
                    arguments: [Int64(parts[0]), Int64(parts[1]), parts.count > 2 && !parts[2].isEmpty ? parts[2] : nil, Int64(target)!])
            default:
                throw StoreError("unknown change kind \(kind) in batch \(batchID)")
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
            let remaining =
                try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM link WHERE transaction_id = ?"), arguments: [t]) ?? 0
            if remaining == 0 {
                if let edit = editsOfRemoved[t] {
                    try keep(edit, at: date)
                    result.editedTransactionsRemoved += 1
                }
                try db.cachedStatement(sql: "DELETE FROM user_decision WHERE transaction_id = ?").execute(arguments: [t])
                try db.cachedStatement(sql: "DELETE FROM txn WHERE id = ?").execute(arguments: [t])
                result.transactionsRemoved += 1
            } else {
                try MergedViewPass.refresh(db, transactionID: t)
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
        try db.execute(sql: "UPDATE batch SET undone_at = ? WHERE id = ?", arguments: [PlanApplier.timestamp(date), batchID])
        return result
    }
}
