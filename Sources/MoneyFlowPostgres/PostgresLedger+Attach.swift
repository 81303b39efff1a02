import Foundation
import GRDB
import MoneyFlowStore
import PostgresNIO

extension PostgresLedger {
    /// Opens the ledger and returns its working copy, loaded. An existing ledger of this
    /// schema is read from one consistent snapshot without any lock. A new ledger is created,
    /// or an older one's tables upgraded, in one transaction under the ledger's lock (processes
    /// starting at once on a new ledger take turns: the first creates it, the others find it
    /// made); then it is opened like any existing ledger.
    public func attach(migrator: DatabaseMigrator, access: StoreAccess) throws -> DatabaseQueue {
        let known = migrator.migrations
        do {
            try session.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            if try ledgerExists() {
                let applied = try checkedMigrations(known: known)
                if applied.count == known.count {
                    let copy = try openCopy(migrator: migrator, version: try currentVersion(), applied: applied)
                    try session.execute("COMMIT")
                    return copy
                }
                guard access == .readWrite else {
                    throw StoreError(
                        "store \(displayName) was written by an older MoneyFlow; run a command that writes (such as moneyflow import) once to upgrade it"
                    )
                }
            } else if access == .readOnly {
                throw StoreError.missingStore(displayName)
            }
            try session.execute("COMMIT")
            try session.execute("BEGIN")
            try lockLedger()
            if try ledgerExists() {
                let applied = try checkedMigrations(known: known)
                if applied.count < known.count { try upgrade(migrator: migrator, applied: applied) }
            } else {
                try create(migrator: migrator)
            }
            try session.execute("COMMIT")
        } catch {
            try? session.execute("ROLLBACK")
            throw error
        }
        return try attach(migrator: migrator, access: access)
    }

    /// The ledger's schema changes, refusing a ledger from a newer MoneyFlow.
    func checkedMigrations(known: [String]) throws -> [String] {
        let applied = try appliedMigrations()
        let unknown = applied.filter { !known.contains($0) }
        if !unknown.isEmpty {
            throw StoreError(
                "store \(displayName) was written by a newer MoneyFlow (schema changes this version does not know: \(unknown.sorted().joined(separator: ", "))); use that newer moneyflow. The store was not changed"
            )
        }
        guard known.contains(where: applied.contains) else {
            throw StoreError("store \(displayName) is damaged: it records no schema version; restore it from a backup")
        }
        return applied
    }

    /// The working copy of the ledger at `version`: a cache file of this incarnation and
    /// schema when there is one (used as it is: the first read or write brings it up to date
    /// by the change log), else a new copy loaded in full. Cache files are named by the
    /// ledger's incarnation and schema, so a dropped and remade or upgraded ledger gets a new
    /// file and no process ever empties a file another one may be using.
    func openCopy(migrator: DatabaseMigrator, version: LedgerVersion, applied: [String]) throws -> DatabaseQueue {
        var copy = try DatabaseQueue()
        var lock: FileLock?
        defer { lock?.release() }
        if let cachePrefix {
            let path = cachePrefix + "-\(version.incarnation.prefix(8))-s\(applied.count).sqlite"
            // Two commands starting at once on one cache file: the second waits while the
            // first fills it.
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
            lock = try FileLock(path: path + ".lock")
            copy = try Self.openCache(path)
        }
        try copy.inDatabase { db in try Self.createStateTable(db) }
        if try copy.inDatabase({ db in try copyState(db) }) != nil {
            if try copy.inDatabase({ db in try cacheFits(db, server: version, applied: applied) }) {
                shapes = try copy.inDatabase { db in try WorkingCopy.shapes(db) }
                try copy.inDatabase { db in try WorkingCopy.installChangeTracking(db, shapes) }
                return copy
            }
            // Not this ledger's after all (should not happen, by its name): left alone.
            copy = try DatabaseQueue()
            try copy.inDatabase { db in try Self.createStateTable(db) }
        }
        try migrator.migrate(copy)
        shapes = try copy.inDatabase { db in try WorkingCopy.shapes(db) }
        try copy.inDatabase { db in try reload(db, to: version) }
        return copy
    }

    func ledgerExists() throws -> Bool {
        var binds = PostgresBindings()
        binds.append(location.schema)
        let tables = try session.query("SELECT tablename FROM pg_tables WHERE schemaname = $1", binds).map { try $0.decode(String.self) }
        if tables.contains("moneyflow_ledger") { return true }
        if !tables.isEmpty {
            throw StoreError(
                "schema \(location.schema) of \(displayName) holds tables that are not a MoneyFlow ledger (\(tables.sorted().prefix(5).joined(separator: ", "))); it was left untouched. Choose another ledger name"
            )
        }
        return false
    }

    /// A new ledger: its tables made on the server from a scratch copy migrated to this
    /// MoneyFlow's schema, with the rows the migrations wrote (their own record, id counters).
    func create(migrator: DatabaseMigrator) throws {
        let scratch = try DatabaseQueue()
        try scratch.inDatabase { db in try Self.createStateTable(db) }
        try migrator.migrate(scratch)
        shapes = try scratch.inDatabase { db in try WorkingCopy.shapes(db) }
        try session.execute("CREATE SCHEMA IF NOT EXISTS \(schema)")
        try session.execute(
            """
            CREATE TABLE \(metaTable) (
              singleton BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (singleton),
              incarnation TEXT NOT NULL, version BIGINT NOT NULL,
              created_at TIMESTAMPTZ NOT NULL DEFAULT now(), updated_at TIMESTAMPTZ NOT NULL DEFAULT now())
            """)
        try session.execute("CREATE TABLE \(changeTable) \(Self.changeTableDDL)")
        try createTables()
        try sendAllRows(scratch)
        var binds = PostgresBindings()
        binds.append(UUID().uuidString.lowercased())
        try session.execute("INSERT INTO \(metaTable) (incarnation, version) VALUES ($1, 1)", binds)
    }

    /// A ledger from an older MoneyFlow: its rows loaded into a scratch copy at its schema,
    /// migrated there, and the server's tables made again in the new shape with every row.
    func upgrade(migrator: DatabaseMigrator, applied: [String]) throws {
        guard let last = migrator.migrations.last(where: applied.contains) else { return }
        let scratch = try DatabaseQueue()
        try scratch.inDatabase { db in try Self.createStateTable(db) }
        try migrator.migrate(scratch, upTo: last)
        shapes = try scratch.inDatabase { db in try WorkingCopy.shapes(db) }
        try scratch.inDatabase { db in try reload(db, to: try currentVersion()) }
        for shape in shapes { try session.execute("DROP TABLE \(table(shape))") }
        try migrator.migrate(scratch)
        shapes = try scratch.inDatabase { db in try WorkingCopy.shapes(db) }
        try createTables()
        try sendAllRows(scratch)
        try logChanges([:], version: try bumpVersion().version, wholeLedger: true)
    }

    func createTables() throws {
        for shape in shapes {
            let columns = shape.columns.map { c in
                let type: String
                switch c.affinity {
                case .integer: type = "BIGINT"
                case .real: type = "DOUBLE PRECISION"
                case .text: type = "TEXT COLLATE \"C\""
                case .blob: type = "BYTEA"
                }
                return "\(Self.quoted(c.name)) \(type)"
            }
            let key = "PRIMARY KEY (" + shape.primaryKey.map(Self.quoted).joined(separator: ", ") + ")"
            try session.execute("CREATE TABLE \(table(shape)) (\((columns + [key]).joined(separator: ", ")))")
            // The same unique keys as SQLite (a record's fingerprint per account and kind, an
            // account's name): a second guard, after the ledger's lock, against duplicates.
            for unique in shape.uniqueKeys {
                try session.execute("CREATE UNIQUE INDEX ON \(table(shape)) (\(unique.map(Self.quoted).joined(separator: ", ")))")
            }
        }
    }

    func sendAllRows(_ copy: DatabaseQueue) throws {
        try copy.inDatabase { db in
            for shape in shapes {
                try copyRows(shape) { emit in try WorkingCopy.allRows(db, shape, emit) }
            }
        }
    }
}

/// PostgreSQL's COPY text format (https://www.postgresql.org/docs/current/sql-copy.html):
/// tab-separated columns, `\N` for NULL, backslash escapes for `\`, tab, newline and return,
/// bytea as `\\x` and hex digits.
enum CopyText {
    static func append(_ row: [DatabaseValue], to buffer: inout ByteBuffer) {
        for (i, value) in row.enumerated() {
            if i > 0 { buffer.writeInteger(UInt8(ascii: "\t")) }
            switch value.storage {
            case .null: buffer.writeStaticString("\\N")
            case .int64(let n): buffer.writeString(String(n))
            case .double(let d):
                buffer.writeString(d.isNaN ? "NaN" : d == .infinity ? "Infinity" : d == -.infinity ? "-Infinity" : "\(d)")
            case .string(let s): appendText(s, to: &buffer)
            case .blob(let data):
                buffer.writeStaticString("\\\\x")
                for byte in data {
                    buffer.writeInteger(hex[Int(byte >> 4)])
                    buffer.writeInteger(hex[Int(byte & 0x0F)])
                }
            }
        }
        buffer.writeInteger(UInt8(ascii: "\n"))
    }

    static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    static func appendText(_ s: String, to buffer: inout ByteBuffer) {
        var s = s
        s.withUTF8 { bytes in
            if !bytes.contains(where: { $0 == 0x5C || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) {
                buffer.writeBytes(bytes)
                return
            }
            for b in bytes {
                switch b {
                case 0x5C: buffer.writeStaticString("\\\\")
                case 0x09: buffer.writeStaticString("\\t")
                case 0x0A: buffer.writeStaticString("\\n")
                case 0x0D: buffer.writeStaticString("\\r")
                default: buffer.writeInteger(b)
                }
            }
        }
    }
}

/// An exclusive `flock` on a file of its own (created 0600), held until released.
final class FileLock {
    private var fd: Int32

    init(path: String) throws {
        fd = open(path, O_CREAT | O_RDWR | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw StoreError("cannot open \(path): \(String(cString: strerror(errno)))") }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else {
                let why = String(cString: strerror(errno))
                close(fd)
                throw StoreError("cannot lock \(path): \(why)")
            }
        }
    }

    func release() {
        guard fd >= 0 else { return }
        flock(fd, LOCK_UN)
        close(fd)
        fd = -1
    }

    deinit { release() }
}
