import Foundation
import GRDB

/// How a command opens the store.
public enum StoreAccess: Sendable {
    /// Creates the store if missing, upgrades its schema, may write.
    case readWrite
    /// Never creates, upgrades or writes: a missing store is an error, and a store whose file
    /// or folder is not writable can still be read.
    case readOnly
}

/// Creating, recognising and opening the store's file, before SQLite may write anything.
enum StoreFile {
    static func errnoText() -> String { String(cString: strerror(errno)) }

    /// Creates an empty store file with mode 0600 unless a file is there already. Through a
    /// symbolic link whose target does not exist yet, the target is created (mode 0600,
    /// O_EXCL|O_NOFOLLOW: a link to a link is refused) instead of letting SQLite create it
    /// with the default mode. SQLite gives the -wal and -shm files the store's own mode.
    static func create(_ path: String) throws {
        var target = path
        var info = stat()
        if lstat(path, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFLNK else { return }
            if stat(path, &info) == 0 { return }
            let dest = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? ""
            target = dest.hasPrefix("/") ? dest : ((path as NSString).deletingLastPathComponent as NSString).appendingPathComponent(dest)
        }
        let dir = (target as NSString).deletingLastPathComponent
        if !dir.isEmpty && !FileManager.default.fileExists(atPath: dir) {
            throw StoreError("cannot create store \(path): folder \(dir) does not exist")
        }
        // O_EXCL: when several processes create the store at once, exactly one creates it
        // and nobody replaces a file another process already writes to.
        let fd = open(target, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW, 0o600)
        if fd >= 0 {
            fchmod(fd, 0o600)
            close(fd)
            return
        }
        if errno == EEXIST && stat(path, &info) == 0 { return }
        if target != path {
            throw StoreError("cannot create store \(path): it is a symbolic link to \(target), which cannot be created (\(errnoText()))")
        }
        throw StoreError("cannot create store \(path): \(errnoText())")
    }

    /// Refuses what is not a MoneyFlow store, or a store from a newer MoneyFlow, reading only
    /// (so another application's database is left byte for byte as it was).
    static func check(_ db: Database, path: String, known: [String]) throws {
        let tables: [String]
        do {
            tables = try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        } catch let e as DatabaseError {
            throw StoreError(
                "\(path) is not a MoneyFlow store (\(e.message ?? "not an SQLite database")); point --store at a MoneyFlow store or at a new file"
            )
        }
        if tables.isEmpty { return }
        let applied = tables.contains("grdb_migrations") ? try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") : []
        // Another process creating this new store has made the migrations table and not yet
        // committed the first migration: ours, and it will be complete when we migrate.
        if applied.isEmpty && tables == ["grdb_migrations"] { return }
        guard applied.contains("v1") else {
            let shown = tables.prefix(5).joined(separator: ", ") + (tables.count > 5 ? ", …" : "")
            throw StoreError(
                "\(path) is another application's SQLite database (tables: \(shown)), not a MoneyFlow store; it was left untouched. Point --store at a MoneyFlow store or at a new file"
            )
        }
        let unknown = applied.filter { !known.contains($0) }
        if !unknown.isEmpty {
            throw StoreError(
                "store \(path) was written by a newer MoneyFlow (schema changes this version does not know: \(unknown.joined(separator: ", "))); use that newer moneyflow. The store was not changed"
            )
        }
    }

    /// A connection that only reads. SQLite reads a WAL store through its -shm index, which it
    /// must be able to create or update: when the file or folder is not writable that fails,
    /// and the store is opened `immutable` instead (nothing is locked or written) — unless a
    /// non-empty -wal file holds changes not yet in the store, which immutable would not see.
    static func openReadOnly(_ path: String, configuration: Configuration) throws -> DatabaseQueue {
        var config = configuration
        config.readonly = true
        do {
            let q = try DatabaseQueue(path: path, configuration: config)
            _ = try q.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") }
            return q
        } catch let first as DatabaseError {
            let wal = (try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? Int ?? 0
            if wal > 0 {
                throw StoreError(
                    "cannot read store \(path): it is not writable here and \(path)-wal holds changes not yet written into the store file; run moneyflow once where the store's folder is writable"
                )
            }
            var allowed = CharacterSet.urlPathAllowed
            allowed.remove(charactersIn: "?#%")
            let encoded = path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
            do {
                let q = try DatabaseQueue(path: "file:\(encoded)?immutable=1", configuration: config)
                _ = try q.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") }
                return q
            } catch {
                throw StoreError("cannot read store \(path): \(first.message ?? "\(first.resultCode)")")
            }
        }
    }
}

extension LedgerStore {
    /// Reads through the store's connection, with SQLite's errors in the store's words.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        try inStoreWords {
            if let remote, let copy = pool as? DatabaseQueue { return try remote.read(copy: copy, body) }
            return try pool.read(body)
        }
    }

    /// Writes in one transaction, with SQLite's errors in the store's words. Before it commits,
    /// the passes after a write run (``WritePasses``: the transfers of the transactions it
    /// touched are settled), so no write path can leave a stale transfer behind.
    func write<T>(_ body: (Database) throws -> T) throws -> T {
        try writeInOneTransaction { db in
            try WritePasses.begin(db)
            let result = try body(db)
            try WritePasses.finish(db)
            return result
        }
    }

    private func writeInOneTransaction<T>(_ body: (Database) throws -> T) throws -> T {
        try inStoreWords {
            if let remote, let copy = pool as? DatabaseQueue {
                // SQLite refuses writes on a read-only connection; the working copy is always
                // writable, so a store opened for reading refuses here.
                guard access == .readWrite else { throw StoreError("store \(path) was opened for reading only; nothing was written") }
                return try remote.write(copy: copy, body)
            }
            return try pool.writeWithoutTransaction { db in
                try Self.withoutMappedReads(db) {
                    var result: T?
                    try db.inTransaction {
                        try LedgerStore.refuseRemoved(db, path: path)
                        result = try body(db)
                        return .commit
                    }
                    return result!
                }
            }
        }
    }

    /// Runs a write transaction with the connection's memory map off (``mappedBytes`` again
    /// after it). With the map on, SQLite asks the WAL index for every page a read cursor
    /// touches, before its page cache, to know whether the map holds the page's last version;
    /// that lookup walks the index's blocks, one per 4,096 frames, and an import is one
    /// transaction whose frames all stay in the WAL until it commits, so each read cost more as
    /// the import grew (`sqlite3WalFindFrame`: 1.5 % of a 100k statement import's samples, 9.9 %
    /// at 1M). With the map off, a read finds the page in the cache and asks the index only on
    /// a miss. Nothing about what is written or when it is durable changes. The pragma is set
    /// outside the transaction: SQLite changes the map only when no mapped page is in use.
    static func withoutMappedReads<T>(_ db: Database, _ body: () throws -> T) throws -> T {
        try db.execute(sql: "PRAGMA mmap_size = 0")
        defer { try? db.execute(sql: "PRAGMA mmap_size = \(mappedBytes)") }
        return try body()
    }

    /// One short line per SQLite failure: GRDB's own description quotes the whole statement
    /// (an import's INSERT holds 64 rows: kilobytes of SQL in one error line), so only the
    /// result code and SQLite's message are kept, and the common causes are said plainly.
    func inStoreWords<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let e as DatabaseError {
            switch e.resultCode.primaryResultCode {
            case .SQLITE_FULL: throw StoreError("disk full while writing store \(path); nothing was written, free some space and try again")
            case .SQLITE_READONLY: throw StoreError("store \(path) is read-only here (file or folder not writable); nothing was written")
            case .SQLITE_BUSY, .SQLITE_LOCKED:
                throw StoreError("store \(path) stayed locked by another process; try again when it has finished")
            case .SQLITE_IOERR: throw StoreError("cannot write store \(path): input/output error (\(e.message ?? "disk I/O error"))")
            case .SQLITE_CORRUPT, .SQLITE_NOTADB:
                throw StoreError("store \(path) is damaged (\(e.message ?? "malformed")); restore it from a backup")
            default: throw StoreError("store \(path): \(e.message ?? "SQLite error \(e.resultCode.rawValue)")")
            }
        }
    }
}
