import Foundation
import GRDB

extension LedgerStore {
    /// Tables whose ids users see (and pass back: links, undo, review).
    static let visibleIDTables = ["account", "batch", "txn", "record"]

    /// Makes a NEW, empty store hand out ids from `base + 1` on (SQLite's AUTOINCREMENT
    /// counter), so that stores serving different users never share an id: a server then
    /// answers 404 for another user's id instead of acting on an own row with the same number.
    /// A store that already holds rows, or was already started elsewhere, is left as it is.
    public func startIDs(after base: Int64) throws {
        try write { db in
            for table in Self.visibleIDTables {
                let used =
                    try Int64.fetchOne(
                        db,
                        sql:
                            "SELECT max(coalesce((SELECT max(id) FROM \(table)), 0), coalesce((SELECT seq FROM sqlite_sequence WHERE name = ?), 0))",
                        arguments: [table]) ?? 0
                guard used == 0 else { continue }
                // The schema's table rebuild may have left a row with seq 0: one row per table.
                try db.execute(sql: "UPDATE sqlite_sequence SET seq = ? WHERE name = ?", arguments: [base, table])
                if db.changesCount == 0 {
                    try db.execute(sql: "INSERT INTO sqlite_sequence(name, seq) VALUES (?, ?)", arguments: [table, base])
                }
            }
        }
    }
}
