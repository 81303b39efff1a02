import Foundation
import GRDB

/// Taking back a store file that a failed command created and wrote nothing into.
///
/// A command that fails before it writes (a bad first file, `plaid link` without keys or
/// network) must not leave an empty store behind: the next command would find "a store" with
/// no accounts and the user would not know the first one failed. The command that created the
/// file removes it again when, at its end, the store still holds nothing.
///
/// Another process may have opened the brand-new store meanwhile. To make sure nothing it
/// writes is lost, removal first marks the store (`user_version`) inside a write transaction,
/// under SQLite's write lock, only when no table has a row; every later write, from any
/// process, checks that mark first (``refuseRemoved(_:path:)``) and fails with a clear error
/// instead of writing into a file that is gone.
extension LedgerStore {
    /// The `user_version` of a store that is being removed ("MFRM").
    static let removedMark: Int32 = 0x4D46_524D

    /// Removes this local store's file (and its -wal and -shm) when no table holds a row.
    /// Returns true when it removed it. A store on a server, or opened for reading, is kept.
    public func removeIfEmpty() throws -> Bool {
        guard remote == nil, access == .readWrite else { return false }
        let empty = try inStoreWords {
            try pool.write { db -> Bool in
                let tables = try String.fetchAll(
                    db,
                    sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != 'grdb_migrations'")
                for table in tables {
                    if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM \(table.quotedDatabaseIdentifier))") == true { return false }
                }
                try db.execute(sql: "PRAGMA user_version = \(Self.removedMark)")
                return true
            }
        }
        guard empty else { return false }
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        return true
    }

    /// Refuses to write into a store that another process has just removed (see above).
    static func refuseRemoved(_ db: Database, path: String) throws {
        guard try Int32.fetchOne(db, sql: "PRAGMA user_version") == removedMark else { return }
        throw StoreError(
            "store \(path) was removed by another moneyflow command that created it and wrote nothing into it; nothing was written, run this command again"
        )
    }
}
