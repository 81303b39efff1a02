import GRDB

/// The `batch_change` table's one owner: each batch's undo log, one ``BatchChange`` a row in
/// the order the batch made them (`seq`).
enum BatchChangeTable {
    /// Appends `change` to batch `batchID`'s log as entry `seq`.
    static func append(_ db: Database, batchID: Int64, seq: Int, _ change: BatchChange) throws {
        let (target, old) = try change.stored()
        try db.cachedStatement(sql: "INSERT INTO batch_change(batch_id, seq, kind, target, old_value) VALUES (?, ?, ?, ?, ?)")
            .execute(arguments: [batchID, seq, change.kind.rawValue, target, old])
    }

    /// Batch `batchID`'s log, newest entry first (the order undo reverses them in).
    static func newestFirst(_ db: Database, batchID: Int64) throws -> [BatchChange] {
        try Row.fetchAll(
            db, sql: "SELECT kind, target, old_value FROM batch_change WHERE batch_id = ? ORDER BY seq DESC", arguments: [batchID]
        )
        .map { try BatchChange(kind: $0[0], target: $0[1], old: $0[2], batchID: batchID) }
    }

    /// The target of batch `batchID`'s change of `kind`, if it has one.
    static func target(_ db: Database, batchID: Int64, _ kind: BatchChange.Kind) throws -> String? {
        try String.fetchOne(
            db, sql: "SELECT target FROM batch_change WHERE batch_id = ? AND kind = ?", arguments: [batchID, kind.rawValue])
    }
}
