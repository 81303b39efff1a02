import Foundation
import GRDB
import MoneyFlowCore

/// Taking back a whole batch (an import or an account merge).
extension LedgerStore {
    /// Undoes a batch: removes its records, restores what it changed, and deletes transactions
    /// that only its records supported. Everything else is untouched.
    @discardableResult
    public func undo(batchID: Int64, at date: Date = Date()) throws -> UndoResult {
        try write { db in try BatchUndo(db: db, batchID: batchID).run(at: date) }
    }
}
