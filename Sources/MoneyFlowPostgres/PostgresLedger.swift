import Foundation
import GRDB
import MoneyFlowStore
import PostgresNIO

/// A ledger in PostgreSQL: the store's tables, with the same columns, in schema
/// `moneyflow_<ledger>` (see ``RemoteLedger`` for how the store's code runs on it).
///
/// - Every write is one PostgreSQL transaction that first takes the ledger's advisory lock
///   (`pg_advisory_xact_lock`), so writers of one ledger, from any process or host, take turns
///   exactly as SQLite's writers do; a killed client's transaction is rolled back by the server
///   and its lock released.
/// - The working copy is reloaded only when the ledger's version (bumped by every write that
///   changed something) is not the one the copy holds.
/// - The rows a write changed go to PostgreSQL as one `DELETE ... unnest(...)` per table and
///   `COPY` of their new content: no round trip per row.
public final class PostgresLedger: RemoteLedger, @unchecked Sendable {
    // Everything mutable is touched only inside the working copy's `inDatabase` (or in
    // `attach`, before the store exists), which serialises the calls.
    let location: PostgresLocation
    let session: PostgresSession
    var shapes: [TableShape] = []
    /// Where the working copy's cache files go (`<prefix>-<incarnation>-s<schema>.sqlite`),
    /// kept between processes; nil for a copy in memory only.
    let cachePrefix: String?
    /// How many times the copy was loaded in full (the first load included): tests tell an
    /// incremental refresh from a full one by it.
    var fullLoads = 0
    /// Told once when a write waits for another writer's lock.
    let waitNotice: (@Sendable (String) -> Void)?

    struct LedgerVersion: Equatable { var incarnation: String; var version: Int64 }

    public var displayName: String { location.displayName }

    public init(_ location: PostgresLocation, cachePrefix: String? = nil, waitNotice: (@Sendable (String) -> Void)? = nil) {
        self.location = location
        self.session = PostgresSession(location)
        self.cachePrefix = cachePrefix
        self.waitNotice = waitNotice
    }

    // MARK: Names

    var schema: String { Self.quoted(location.schema) }
    static func quoted(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
    /// The PostgreSQL table that mirrors `shape` (SQLite's own id counter gets a name of ours).
    func table(_ shape: TableShape) -> String { schema + "." + Self.quoted(Self.remoteName(shape)) }
    static func remoteName(_ shape: TableShape) -> String { shape.isIDCounter ? "id_sequence" : shape.name }
    var metaTable: String { schema + ".moneyflow_ledger" }

    // MARK: RemoteLedger

    public func read<T>(copy: DatabaseQueue, _ body: (Database) throws -> T) throws -> T {
        try copy.inDatabase { db in
            if try currentVersion() != copyState(db) {
                try session.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
                do {
                    let target = try currentVersion()
                    try db.inTransaction(.immediate) {
                        try refresh(db, to: target)
                        return .commit
                    }
                    try session.execute("COMMIT")
                } catch {
                    try? session.execute("ROLLBACK")
                    throw error
                }
            }
            // One snapshot of the copy for the whole read (a cache file may be brought
            // forward by another process meanwhile, always from one version to a later one).
            var result: T?
            try db.inTransaction(.deferred) {
                result = try db.readOnly { try body(db) }
                return .commit
            }
            return result!
        }
    }

    public func write<T>(copy: DatabaseQueue, _ body: (Database) throws -> T) throws -> T {
        try copy.inDatabase { db in
            do {
                try session.execute("BEGIN")
                try lockLedger()
                let v = try currentVersion()
                var result: T?
                // The refresh and the write in one transaction of the copy: with a cache file
                // shared by two processes, nothing can come between them.
                try db.inTransaction(.immediate) {
                    try refresh(db, to: v)
                    let counters = try idCounters(db)
                    result = try body(db)
                    if try WorkingCopy.changeCount(db, shapes) > 0 || idCounters(db) != counters {
                        let version = try bumpVersion()
                        try logChanges(try push(db), version: version.version)
                        try setCopyState(db, version)
                    }
                    // The server first: if its commit fails, the copy's transaction (rows and
                    // version together) rolls back; if the copy's then failed, it would still
                    // hold the older version, which the next refresh brings up to date.
                    try session.execute("COMMIT")
                    try WorkingCopy.clearChanges(db, shapes)
                    return .commit
                }
                return result!
            } catch {
                try? session.execute("ROLLBACK")
                throw error
            }
        }
    }

    // MARK: Pieces

    /// Takes the ledger's advisory lock for this transaction, telling `waitNotice` once when
    /// another writer has held it for about a second (as the SQLite store does).
    func lockLedger() throws {
        var key = PostgresBindings()
        key.append(location.schema)
        for attempt in 0..<20 {
            if attempt > 0 { usleep(50_000) }
            let got = try session.query("SELECT pg_try_advisory_xact_lock(hashtextextended('moneyflow ledger ' || $1, 0))", key)
            if try got.first?.decode(Bool.self) == true { return }
        }
        waitNotice?("waiting for another moneyflow process to finish writing \(displayName)…")
        try session.execute("SELECT pg_advisory_xact_lock(hashtextextended('moneyflow ledger ' || $1, 0))", key)
    }

    func currentVersion() throws -> LedgerVersion {
        guard let row = try session.query("SELECT incarnation, version FROM \(metaTable)").first else {
            throw StoreError("store \(displayName): its ledger table is empty; the ledger is damaged (restore it from a backup)")
        }
        let (incarnation, version) = try row.decode((String, Int64).self)
        return LedgerVersion(incarnation: incarnation, version: version)
    }

    func bumpVersion() throws -> LedgerVersion {
        let row = try session.query("UPDATE \(metaTable) SET version = version + 1, updated_at = now() RETURNING incarnation, version")
        let (incarnation, version) = try row[0].decode((String, Int64).self)
        return LedgerVersion(incarnation: incarnation, version: version)
    }

    func idCounters(_ db: Database) throws -> [String: Int64] {
        var out: [String: Int64] = [:]
        for r in try Row.fetchAll(db, sql: "SELECT name, seq FROM sqlite_sequence") { out[r["name"]] = r["seq"] }
        return out
    }

    /// Sends the rows the current write changed: deletes their old versions, copies their new
    /// ones. Returns the changed keys per table (the id counter aside).
    func push(_ db: Database) throws -> [String: [[DatabaseValue]]] {
        var changed: [String: [[DatabaseValue]]] = [:]
        for shape in shapes {
            let keys = try WorkingCopy.changedKeys(db, shape)
            if keys.isEmpty { continue }
            if shape.isIDCounter {
                try session.execute("DELETE FROM \(table(shape))")
            } else {
                try deleteRows(shape, keys: keys)
                changed[shape.name] = keys
            }
            try copyRows(shape) { emit in try WorkingCopy.changedRows(db, shape, emit) }
        }
        return changed
    }

    /// Deletes the rows with these primary keys, 20,000 keys per statement.
    func deleteRows(_ shape: TableShape, keys: [[DatabaseValue]]) throws {
        let positions = shape.primaryKeyPositions
        let types = positions.map { shape.columns[$0].affinity == .integer ? "bigint[]" : "text[]" }
        let columns = shape.primaryKey.map(Self.quoted).joined(separator: ", ")
        let unnest = types.enumerated().map { "$\($0.offset + 1)::\($0.element)" }.joined(separator: ", ")
        let sql = "DELETE FROM \(table(shape)) WHERE (\(columns)) IN (SELECT * FROM unnest(\(unnest)))"
        var start = 0
        while start < keys.count {
            let chunk = Array(keys[start..<min(start + 20_000, keys.count)])
            try session.execute(sql, try keyBinds(shape, chunk))
            start += chunk.count
        }
    }

    static func int64(_ v: DatabaseValue, _ shape: TableShape) throws -> Int64 {
        guard case .int64(let i) = v.storage else { throw StoreError("table \(shape.name): a key that is not an integer (\(v))") }
        return i
    }

    static func text(_ v: DatabaseValue, _ shape: TableShape) throws -> String {
        switch v.storage {
        case .string(let s): return s
        case .int64(let i): return String(i)
        default: throw StoreError("table \(shape.name): a key that is not text (\(v))")
        }
    }

    /// COPYs the rows `produce` emits, in chunks of about 4 MiB of COPY text.
    func copyRows(_ shape: TableShape, _ produce: (([DatabaseValue]) throws -> Void) throws -> Void) throws {
        var buffer = ByteBufferAllocator().buffer(capacity: 1 << 22)
        let columns = shape.columns.map(\.name)
        let name = Self.remoteName(shape)
        try produce { row in
            CopyText.append(row, to: &buffer)
            if buffer.readableBytes >= 1 << 22 {
                try session.copy(into: name, columns: columns, data: buffer)
                buffer.clear()
            }
        }
        if buffer.readableBytes > 0 { try session.copy(into: name, columns: columns, data: buffer) }
    }

    /// Replaces the copy's content with the ledger's rows, inside the caller's server
    /// transaction (so it is one consistent state); change tracking is off meanwhile.
    func reload(_ db: Database, to version: LedgerVersion) throws {
        let applied = try appliedMigrations()
        let own = try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier")
        guard applied.sorted() == own else {
            throw StoreError(
                "store \(displayName) was upgraded by another MoneyFlow while this one had it open; run the command again (with that MoneyFlow if it is newer)"
            )
        }
        fullLoads += 1
        try db.inSavepoint {
            try WorkingCopy.removeChangeTracking(db, shapes)
            try WorkingCopy.clear(db, shapes)
            for shape in shapes { try load(db, shape) }
            try WorkingCopy.endLoad(db)
            try setCopyState(db, version)
            try WorkingCopy.installChangeTracking(db, shapes)
            return .commit
        }
    }

    /// Loads one table through a server-side cursor, 20,000 rows per round trip.
    func load(_ db: Database, _ shape: TableShape) throws {
        let insert = try WorkingCopy.inserter(db, shape)
        let columns = shape.columns.map { Self.quoted($0.name) }.joined(separator: ", ")
        try session.execute("DECLARE moneyflow_load NO SCROLL CURSOR FOR SELECT \(columns) FROM \(table(shape))")
        while true {
            let rows = try session.query("FETCH FORWARD 20000 FROM moneyflow_load")
            if rows.isEmpty { break }
            for row in rows {
                var values: [DatabaseValue] = []
                values.reserveCapacity(shape.columns.count)
                for (cell, column) in zip(row, shape.columns) { values.append(try Self.value(cell, column, shape)) }
                try insert.execute(arguments: StatementArguments(values))
            }
        }
        try session.execute("CLOSE moneyflow_load")
    }

    static func value(_ cell: PostgresCell, _ column: TableShape.Column, _ shape: TableShape) throws -> DatabaseValue {
        guard cell.bytes != nil else { return .null }
        do {
            switch column.affinity {
            case .integer: return try cell.decode(Int64.self).databaseValue
            case .real: return try cell.decode(Double.self).databaseValue
            case .text: return try cell.decode(String.self).databaseValue
            case .blob:
                var bytes = try cell.decode(ByteBuffer.self)
                return Data(bytes.readBytes(length: bytes.readableBytes) ?? []).databaseValue
            }
        } catch {
            throw StoreError(
                "table \(shape.name), column \(column.name): a value PostgreSQL holds cannot be read (\(error)); the ledger was changed by something other than MoneyFlow"
            )
        }
    }

    func appliedMigrations() throws -> [String] {
        try session.query("SELECT identifier FROM \(schema).grdb_migrations").map { try $0.decode(String.self) }
    }
}
