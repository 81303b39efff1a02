import Foundation
import GRDB
import MoneyFlowCore

/// Errors the store reports to users.
public struct StoreError: Error, Sendable, CustomStringConvertible {
    public var message: String
    /// True when the error is that an id (record, transaction, batch) names nothing here: the
    /// server answers 404 for it.
    public var isNotFound = false
    public init(_ message: String) { self.message = message }
    public var description: String { message }

    /// An id that names nothing in this store.
    public static func notFound(_ message: String) -> StoreError {
        var e = StoreError(message)
        e.isNotFound = true
        return e
    }

    /// A command that needs the store's data was pointed at a path with no store.
    public static func missingStore(_ path: String) -> StoreError {
        StoreError(
            "no store at \(path): nothing has been imported there. Import a statement first (moneyflow import FILE --store \(path)), or look at the demo's store with --store demo.sqlite"
        )
    }
}

/// Result of applying a plan.
public struct AppliedImport: Sendable {
    public var batchID: Int64
    public var plan: ImportPlan
}

/// The shared ledger: accounts, import batches, records, transactions, links, sync state.
///
/// In a SQLite file: WAL mode, a generous busy timeout and immediate write transactions make
/// several processes importing at once safe. On a server (``RemoteLedger``, PostgreSQL): the
/// same code runs on a working copy, and every write is one server transaction under the
/// ledger's lock. Either way every import is planned and applied inside ONE write transaction.
public final class LedgerStore: Sendable {
    /// The store's file, or the remote ledger's display name (never with a password).
    public let path: String
    let pool: any DatabaseWriter
    public let access: StoreAccess
    /// The server that holds the ledger when it is not a local file.
    public let remote: (any RemoteLedger)?
    /// The threads its `async` operations run on (see ``StoreExecutor``); they end with the store.
    let executor = StoreExecutor()
    /// Whole-ledger results kept until the ledger changes (see ``computedPerVersion(_:_:)``).
    let versionCache = LedgerVersionCache()

    /// The store's file when it is a local SQLite store (files beside it, such as the Plaid
    /// archive, go next to it); nil for a ledger on a server.
    public var filePath: String? { remote == nil ? path : nil }

    /// Opens a ledger kept on a server, through an in-memory working copy (see ``RemoteLedger``).
    public init(remote: any RemoteLedger, access: StoreAccess = .readWrite) throws {
        self.path = remote.displayName
        self.access = access
        self.remote = remote
        do { self.pool = try remote.attach(migrator: Schema.migrator, access: access) } catch let error as DatabaseError {
            throw StoreError("cannot open store \(remote.displayName): \(error.message ?? "\(error.resultCode)")")
        }
    }

    /// Opens the store at `path`. `.readWrite` creates it (mode 0600) if needed and upgrades
    /// its schema; `.readOnly` requires it to exist and never writes (see ``StoreAccess``).
    /// Either way a file that is not a MoneyFlow store, or a store from a newer MoneyFlow, is
    /// refused before anything is written. `waitNotice` is told once when a write has waited
    /// about a second for another process's write lock.
    public init(path: String, access: StoreAccess = .readWrite, waitNotice: (@Sendable (String) -> Void)? = nil) throws {
        self.path = path
        self.access = access
        self.remote = nil
        let known = Schema.migrator.migrations
        var config = Configuration()
        config.label = "MoneyFlow"
        config.busyMode = Self.busyMode(path: path, waitNotice: waitNotice)
        // Temporary storage (statement journals, temporary tables and indexes) in memory: with
        // files, SQLite writes the ledger's rows to unnamed files in TMPDIR, outside the store.
        config.prepareDatabase { db in try db.execute(sql: "PRAGMA mmap_size = \(Self.mappedBytes); PRAGMA temp_store = MEMORY") }
        do {
            if access == .readOnly {
                var info = stat()
                guard stat(path, &info) == 0 else { throw StoreError.missingStore(path) }
                let queue = try StoreFile.openReadOnly(path, configuration: config)
                try queue.read { db in try StoreFile.check(db, path: path, known: known) }
                pool = queue
                return
            }
            try StoreFile.create(path)
            if ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int ?? 0) > 0 {
                var readOnly = config
                readOnly.readonly = true
                try DatabaseQueue(path: path, configuration: readOnly).read { db in try StoreFile.check(db, path: path, known: known) }
            }
            // Before GRDB turns WAL on, so it sizes the pages of a new (empty) file; a no-op on any other.
            var writable = config
            writable.prepareDatabase { db in try db.execute(sql: "PRAGMA page_size = \(Self.pageSize)") }
            let pool = try DatabasePool(path: path, configuration: writable)
            // A new file gets the current schema in one transaction (``FreshSchema``); the
            // migrator below then only confirms it, or upgrades an existing store.
            _ = try pool.writeWithoutTransaction { db in try FreshSchema.createIfEmpty(db, migrations: known) }
            // Another process may be migrating the same new store right now: its migration
            // commits, ours then sees it applied. Retry a few times before giving up.
            var attempt = 0
            while true {
                do { try Schema.migrator.migrate(pool); break } catch let e as DatabaseError where attempt < 5 {
                    attempt += 1
                    _ = e
                    usleep(useconds_t(50_000 * attempt))
                }
            }
            self.pool = pool
        } catch let error as DatabaseError {
            throw StoreError("cannot open store \(path): \(error.message ?? "\(error.resultCode)")")
        }
    }

    /// How much of the store file each connection reads through a memory map instead of
    /// `read` calls: a page that scans the ledger (a text search over 100,000 transactions)
    /// then costs no system time for copying 25 MiB of pages into SQLite's 2 MiB cache, and
    /// every connection of every process shares the same pages of the OS cache.
    static let mappedBytes = 256 << 20

    /// The page size of a store this process creates (SQLite's default is 4,096; an existing
    /// store keeps its own, as SQLite cannot change it in WAL mode). An import writes and the
    /// write's passes read back every row it adds: with 16 KiB pages SQLite walks a quarter of
    /// the pages and makes a quarter of the `pread`/`pwrite` calls for the same rows.
    static let pageSize = 16_384

    /// Waits up to 120 s for another process's lock, telling `waitNotice` once after ~1 s.
    static func busyMode(path: String, waitNotice: (@Sendable (String) -> Void)?) -> Database.BusyMode {
        .callback { tries in
            // SQLite calls this each time the lock is still taken; each call sleeps 10 ms.
            if tries == 100 { waitNotice?("waiting for another moneyflow process to finish writing \(path)…") }
            guard tries < 12_000 else { return false }
            usleep(10_000)
            return true
        }
    }
}
