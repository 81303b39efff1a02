import Foundation
import GRDB

extension BatchUndo {
    /// A merge (``AccountMerge``) is undone by writing back the rows it changed, which is
    /// right only while nothing since has built on the merged account: refused (naming what to
    /// undo first) when a later active batch holds or confirms records in it or merged it
    /// again, or when an import whose records the merge moved was undone since (those
    /// records cannot come back by undoing the merge).
    func checkMergeCanBeUndone() throws {
        guard
            let into = try BatchChangeTable.target(db, batchID: batchID, .mergeInto),
            let intoID = Int64(into)
        else { return }
        if let later = try Int64.fetchOne(
            db,
            sql: """
                SELECT min(b.id) FROM batch b WHERE b.id > ? AND b.undone_at IS NULL AND (
                  EXISTS (SELECT 1 FROM record r WHERE r.batch_id = b.id AND r.account_id = ?)
                  OR EXISTS (SELECT 1 FROM record_confirmation c JOIN record r ON r.id = c.record_id WHERE c.batch_id = b.id AND r.account_id = ?)
                  OR EXISTS (SELECT 1 FROM batch_change ch WHERE ch.batch_id = b.id AND ch.kind IN (?, ?) AND ch.target = ?))
                """, arguments: [batchID, intoID, intoID, BatchChange.Kind.mergeInto.rawValue, BatchChange.Kind.mergeFrom.rawValue, into])
        {
            throw StoreError("batch \(batchID) is a merge that later batch \(later) builds on; undo batch \(later) first")
        }
        for change in try BatchChangeTable.newestFirst(db, batchID: batchID).reversed() {
            guard case .row(let key, let before?) = change, key.table == "record" else { continue }
            let image = before
            guard let at = image.columns.firstIndex(of: "batch_id"), case .integer(let b) = image.values[at] else { continue }
            if try String.fetchOne(db, sql: "SELECT undone_at FROM batch WHERE id = ?", arguments: [b]) != nil {
                throw StoreError(
                    "batch \(batchID) is a merge of records of batch \(b), which was undone since; the merge cannot be undone any more")
            }
        }
        try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
    }
}
