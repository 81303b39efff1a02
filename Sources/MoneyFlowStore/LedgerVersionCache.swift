import Foundation
import GRDB
import Synchronization

/// Results computed from the whole ledger (the web app's home page: the overview and the
/// balance breaks), kept until the ledger changes: at 100,000 transactions they take seconds
/// to compute and the page is read far more often than the ledger is written.
///
/// "Changed" is asked of SQLite, not of our own write paths, so a write by another process
/// (a CLI import while the server runs) or another store on the same file counts too:
/// - a local store file: `PRAGMA data_version` on a connection of its own that never writes,
///   which changes whenever any other connection (ours or another process's) commits;
/// - a working copy (a ledger on a server, or a store opened read-only): the copy is one
///   connection, so its `total_changes()` (our writes and the refreshes from the server) and
///   its `data_version` (a cache file brought forward by another process) together.
/// The marker is read before the result is computed, so a result is never filed under a
/// marker newer than its data: at worst a write between the two makes the next read compute
/// it again.
final class LedgerVersionCache: Sendable {
    struct Marker: Hashable, Sendable {
        var changes: Int64
        var dataVersion: Int64
    }

    private let entries = Mutex<[String: (marker: Marker, value: any Sendable)]>([:])
    /// The connection that watches a local store file (opened on first use).
    private let watcher = Mutex<DatabaseQueue?>(nil)

    func value(_ key: String, at marker: Marker) -> (any Sendable)? {
        entries.withLock { e in e[key].flatMap { $0.marker == marker ? $0.value : nil } }
    }

    func store(_ key: String, _ value: any Sendable, at marker: Marker) {
        entries.withLock { $0[key] = (marker, value) }
    }

    /// `PRAGMA data_version` of the watching connection on the file at `path`.
    func watchedVersion(path: String) throws -> Int64 {
        try watcher.withLock { queue in
            if queue == nil {
                var config = Configuration()
                config.readonly = true
                config.label = "MoneyFlow change watcher"
                queue = try DatabaseQueue(path: path, configuration: config)
            }
            return try queue!.inDatabase { db in try Int64.fetchOne(db, sql: "PRAGMA data_version") ?? 0 }
        }
    }
}

extension LedgerStore {
    /// A marker of the ledger's state that differs after any committed change to it (see ``LedgerVersionCache``).
    func changeMarker() throws -> LedgerVersionCache.Marker {
        if remote == nil, pool is DatabasePool {
            return .init(changes: 0, dataVersion: try inStoreWords { try versionCache.watchedVersion(path: path) })
        }
        return try read { db in
            let row = try Row.fetchOne(db, sql: "SELECT total_changes(), (SELECT data_version FROM pragma_data_version)")!
            return .init(changes: row[0], dataVersion: row[1])
        }
    }

    /// `compute`'s result for the ledger as it is now, computed again only after the ledger
    /// changed (by any connection or process). `key` names what is computed; one key, one
    /// computation (and one type of result).
    public func computedPerVersion<T: Sendable>(_ key: String, _ compute: (LedgerStore) throws -> T) throws -> T {
        let marker = try changeMarker()
        if let kept = versionCache.value(key, at: marker) as? T { return kept }
        let value = try compute(self)
        versionCache.store(key, value, at: marker)
        return value
    }

    public func computedPerVersion<T: Sendable>(_ key: String, _ compute: @escaping @Sendable (LedgerStore) throws -> T) async throws -> T {
        try await perform { try $0.computedPerVersion(key, compute) }
    }
}
