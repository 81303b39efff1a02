import GRDB

/// The one owner of `sync_state` and `sync_progress`, two tables of the same columns (a sync
/// scope's cursor, when it was saved, by which batch): the cursor a complete update ended on
/// (the next sync starts there), and the place reached inside an update not complete yet (so
/// the next page can be checked). Each batch that moves one logs its old value
/// (``BatchChange/syncCursor(scope:before:)``, ``BatchChange/syncProgress(scope:before:)``).
enum SyncCursorTable: String {
    case state = "sync_state"
    case progress = "sync_progress"

    /// The scope's saved cursor, nil when none.
    func cursor(_ db: Database, scope: String) throws -> String? {
        try String.fetchOne(db, sql: "SELECT cursor FROM \(rawValue) WHERE scope = ?", arguments: [scope])
    }

    /// Saves `cursor` for `scope`, written by batch `batchID` at `timestamp`.
    func save(_ db: Database, scope: String, cursor: String, at timestamp: String, batchID: Int64) throws {
        try db.execute(
            sql: """
                INSERT INTO \(rawValue)(scope, cursor, updated_at, batch_id) VALUES (?, ?, ?, ?)
                ON CONFLICT(scope) DO UPDATE SET cursor = excluded.cursor, updated_at = excluded.updated_at, batch_id = excluded.batch_id
                """, arguments: [scope, cursor, timestamp, batchID])
    }

    func delete(_ db: Database, scope: String) throws {
        try db.execute(sql: "DELETE FROM \(rawValue) WHERE scope = ?", arguments: [scope])
    }

    /// Undo: puts `cursor` back as the scope's cursor. The complete update's row is still
    /// there (its cursor alone changes back); a place inside an update is written again if a
    /// later complete update removed it.
    func restore(_ db: Database, scope: String, cursor: String, at timestamp: String) throws {
        switch self {
        case .state:
            try db.execute(sql: "UPDATE sync_state SET cursor = ? WHERE scope = ?", arguments: [cursor, scope])
        case .progress:
            try db.execute(
                sql:
                    "INSERT INTO sync_progress(scope, cursor, updated_at) VALUES (?, ?, ?) ON CONFLICT(scope) DO UPDATE SET cursor = excluded.cursor",
                arguments: [scope, cursor, timestamp])
        }
    }
}
