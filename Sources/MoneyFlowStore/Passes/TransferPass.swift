import GRDB
import MoneyFlowReconcile

/// Transfers as a pass of a write (see ``WritePasses``): the outcome is the engine's
/// ``TransferOutcome`` for the groups of legs holding a transaction the write touched
/// (``TransferRefresher/decide(_:)``), then written as differences to `transfer` and
/// `transfer_review` (``TransferRefresher/write(_:replacing:_:)``).
enum TransferPass {
    /// Decides and writes the transfers of the transactions noted during this write, then
    /// forgets them (the next write starts afresh).
    static func settle(_ db: Database) throws {
        guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM mf_touched_txn)") == true else { return }
        let (outcome, affected) = try TransferRefresher.decide(db)
        try TransferRefresher.write(outcome, replacing: affected, db)
        try db.execute(sql: "DELETE FROM mf_touched_txn")
    }

    /// The transactions noted during this write so far.
    static func touched(_ db: Database) throws -> Set<Int64> {
        Set(try Int64.fetchAll(db, sql: "SELECT id FROM mf_touched_txn"))
    }
}
