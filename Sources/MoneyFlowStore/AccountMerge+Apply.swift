import Foundation
import GRDB
import MoneyFlowCore

extension AccountMerge {
    /// Writes `d` as one batch and returns its id. Every row changed is kept whole first.
    func apply(_ d: Decisions, at date: Date) throws -> Int64 {
        let r = d.result
        var counts = ImportCounts()
        (counts.new, counts.alreadyPresent, counts.linked, counts.needsReview) = (r.kept, r.alreadyPresent, r.linked, r.needsReview)
        let batchID = try BatchTable.insert(
            db, fileName: "merge of '\(fromName)' into '\(intoName)'", sha256: "merge:\(fromID):\(intoID)", importer: "merge",
            at: PlanApplier.timestamp(date), counts: counts)
        // Rows move between accounts in steps: foreign keys are checked at the commit.
        try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
        // The merge's two accounts (no-ops for undo, which restores row images): they tell a
        // merge batch from an import, and which account it went into.
        try BatchChangeTable.append(db, batchID: batchID, seq: 1, .mergeInto(accountID: intoID))
        try BatchChangeTable.append(db, batchID: batchID, seq: 2, .mergeFrom(accountID: fromID))
        var log = RowImageLog(db: db, batchID: batchID, after: 2)
        // Every row of `from`'s records and transactions, and the transactions of `into` that
        // records join (their shown fields are derived again, edits may join them), as they are.
        let ofFrom = "record_id IN (SELECT id FROM record WHERE account_id = ?)"
        for (table, condition) in [
            ("txn", "account_id = ?"), ("link", ofFrom), ("review", ofFrom), ("record_confirmation", ofFrom), ("record", "account_id = ?"),
            ("user_decision", "transaction_id IN (SELECT id FROM txn WHERE account_id = ?)"),
            ("category_decision", "transaction_id IN (SELECT id FROM txn WHERE account_id = ?)"),
        ] {
            try log.keep(table, where: condition, [fromID])
        }
        try db.execute(sql: "CREATE TEMP TABLE IF NOT EXISTS mf_merge_target (id INTEGER PRIMARY KEY); DELETE FROM mf_merge_target")
        for move in d.moves.values {
            switch move {
            case .join(let t, _, _, _), .duplicate(let t):
                try db.cachedStatement(sql: "INSERT INTO mf_merge_target(id) VALUES (?) ON CONFLICT DO NOTHING").execute(arguments: [t])
                // A decision of an emptied transaction moves onto `t`: undo takes it off again.
                try log.keep(RowImage.Key(table: "category_decision", columns: ["transaction_id"], values: [.integer(t)]))
            case .review: break
            }
        }
        try log.keep("txn", where: "id IN (SELECT id FROM temp.mf_merge_target)", [])
        try db.execute(sql: "DELETE FROM mf_merge_target")
        let encoder = JSONEncoder()
        for (rid, move) in d.moves.sorted(by: { $0.key < $1.key }) {
            switch move {
            case .join(let t, let score, let reasons, let evidence):
                try LinkTable.move(
                    db, recordID: rid, to: t, score: score, reasonsJSON: String(decoding: try encoder.encode(reasons), as: UTF8.self),
                    decidedBy: "auto", evidence: evidence?.rawValue)
                try ReviewTable.delete(db, recordID: rid)
            case .duplicate:
                try db.cachedStatement(sql: "DELETE FROM record WHERE id = ?").execute(arguments: [rid])
            case .review(let candidates):
                try log.keep(RowImage.Key(table: "review", columns: ["record_id"], values: [.integer(rid)]))
                try ReviewTable.insert(
                    db, recordID: rid, candidatesJSON: String(decoding: try encoder.encode(candidates), as: UTF8.self), replacing: true)
                if let t = try LinkTable.transaction(ofRecord: rid, db) { try TransactionTable.setNeedsReview(db, t, true) }
            }
        }
        try db.execute(sql: "UPDATE record SET account_id = ? WHERE account_id = ?", arguments: [intoID, fromID])
        // `from`'s transactions: those left without records go, their user edits with their records.
        for (t, target) in d.emptied.sorted(by: { $0.key < $1.key }) {
            guard try LinkTable.recordCount(ofTransaction: t, db) == 0 else {
                throw StoreError("transaction \(t) still has records; the merge plan is stale")
            }
            if let target { try PlanApplier.moveEditsIfEmptied(db, from: t, to: target) }
            try db.cachedStatement(sql: "DELETE FROM user_decision WHERE transaction_id = ?").execute(arguments: [t])
            try TransactionTable.delete(db, t)
        }
        // The shown fields of the transactions records left or joined are merged again by
        // the write's passes (``WritePasses``).
        try db.execute(sql: "UPDATE txn SET account_id = ? WHERE account_id = ?", arguments: [intoID, fromID])
        // What else is kept per account: import keys, currencies, user decisions, statement facts.
        for (table, keyColumns) in [
            ("account_key", [String]()), ("account_currency", ["currency"]), ("user_decision", ["source_kind", "fingerprint"]),
            ("statement_fact", ["batch_id", "key"]),
        ] {
            try moveRows(table, keyColumns: keyColumns, log: &log)
        }
        try log.keep("account", where: "id = ?", [fromID])
        try db.execute(sql: "DELETE FROM account WHERE id = ?", arguments: [fromID])
        return batchID
    }

    /// Moves `table`'s rows of `from` to `into`, keeping both sides' rows first. When the
    /// account is part of the primary key (`keyColumns` the rest of it), a row `into` has
    /// already wins and `from`'s is dropped.
    private func moveRows(_ table: String, keyColumns: [String], log: inout RowImageLog) throws {
        let t = WorkingCopy.quoted(table)
        if !keyColumns.isEmpty {
            let columns = keyColumns.map(WorkingCopy.quoted).joined(separator: ", ")
            for row in try Row.fetchAll(db, sql: "SELECT \(columns) FROM \(t) WHERE account_id = ?", arguments: [fromID]) {
                try log.keep(
                    RowImage.Key(
                        table: table, columns: ["account_id"] + keyColumns,
                        values: [.integer(intoID)] + keyColumns.map { RowImage.Cell(row[$0] as DatabaseValue) }))
            }
        }
        try log.keep(table, where: "account_id = ?", [fromID])
        try db.execute(sql: "UPDATE OR IGNORE \(t) SET account_id = ? WHERE account_id = ?", arguments: [intoID, fromID])
        try db.execute(sql: "DELETE FROM \(t) WHERE account_id = ?", arguments: [fromID])
    }
}
