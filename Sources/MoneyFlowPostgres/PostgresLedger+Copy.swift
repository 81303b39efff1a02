import Foundation
import GRDB
import MoneyFlowStore

/// The working copy itself: in memory, or a cache file that outlives the process so the next
/// command on the same ledger starts from it and fetches only what changed since (by the
/// change log) instead of loading the whole ledger again. The copy records which version of
/// which ledger it holds (`mf_copy_state`) in the same transaction as every change to its
/// rows, so it can never claim a version it does not hold, whatever stops the process.
extension PostgresLedger {
    static func createStateTable(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE IF NOT EXISTS mf_copy_state (
                  singleton INTEGER PRIMARY KEY CHECK (singleton = 1), incarnation TEXT NOT NULL, version INTEGER NOT NULL)
                """)
    }

    /// Opens (creating, mode 0600) the cache file; a damaged one is replaced.
    static func openCache(_ path: String) throws -> DatabaseQueue {
        try createPrivateFile(path)
        var config = Configuration()
        config.label = "MoneyFlow ledger cache"
        // Two commands on one ledger at once share the file: the second waits its turn.
        config.busyMode = .timeout(120)
        config.journalMode = .wal
        config.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
        do {
            let queue = try DatabaseQueue(path: path, configuration: config)
            guard try queue.read({ db in try String.fetchOne(db, sql: "PRAGMA quick_check") }) == "ok" else {
                throw StoreError("damaged")
            }
            return queue
        } catch {
            // Only a cache: start it again (the ledger itself is on the server).
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            try createPrivateFile(path)
            return try DatabaseQueue(path: path, configuration: config)
        }
    }

    /// Creates `path` empty with mode 0600 unless it exists (SQLite would use the umask's mode).
    static func createPrivateFile(_ path: String) throws {
        let fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW, 0o600)
        if fd >= 0 {
            close(fd)
        } else if errno != EEXIST {
            throw StoreError(
                "cannot create the ledger cache \(path): \(String(cString: strerror(errno))); set MONEYFLOW_LEDGER_CACHE=off to work without it"
            )
        }
    }

    /// The ledger version the copy holds, nil when it holds none yet.
    func copyState(_ db: Database) throws -> LedgerVersion? {
        try Row.fetchOne(db, sql: "SELECT incarnation, version FROM mf_copy_state").map {
            LedgerVersion(incarnation: $0["incarnation"], version: $0["version"])
        }
    }

    /// Records the version the copy now holds (inside the transaction that changed it).
    func setCopyState(_ db: Database, _ v: LedgerVersion) throws {
        try db.execute(
            sql:
                "INSERT INTO mf_copy_state (singleton, incarnation, version) VALUES (1, ?, ?) ON CONFLICT (singleton) DO UPDATE SET incarnation = excluded.incarnation, version = excluded.version",
            arguments: [v.incarnation, v.version])
    }

    /// Whether a cache file's content can be used for this ledger as it is on the server now:
    /// the same incarnation and schema version (its rows are then brought up to date by the
    /// change log like any copy's; one already further than `server`, brought there by another
    /// process since, is fine too).
    func cacheFits(_ db: Database, server: LedgerVersion, applied: [String]) throws -> Bool {
        guard let held = try copyState(db), held.incarnation == server.incarnation else { return false }
        guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE name = 'grdb_migrations')") == true else {
            return false
        }
        return try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier") == applied.sorted()
    }
}
