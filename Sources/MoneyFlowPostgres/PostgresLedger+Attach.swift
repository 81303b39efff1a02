import Foundation
import GRDB
import MoneyFlowStore
import PostgresNIO

extension PostgresLedger {
    /// Opens the ledger: creates it (schema, tables, version row) or upgrades its tables to
    /// this MoneyFlow's schema when `access` allows it, then loads the working copy. An existing
    /// ledger of this schema is loaded from one consistent snapshot without any lock. Creation
    /// and upgrade run in one transaction under the ledger's lock, so processes starting at once
    /// on a new ledger take turns: the first creates it, the others find it made.
    public func attach(copy: DatabaseQueue, migrator: DatabaseMigrator, access: StoreAccess) throws {
        do {
            try session.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            let exists = try ledgerExists()
            let done = try exists && load(copy: copy, migrator: migrator, mayUpgrade: false)
            if !done && access == .readOnly {
                throw exists
                    ? StoreError(
                        "store \(displayName) was written by an older MoneyFlow; run a command that writes (such as moneyflow import) once to upgrade it"
                    )
                    : StoreError.missingStore(displayName)
            }
            try session.execute("COMMIT")
            if !done {
                try session.execute("BEGIN")
                try lockLedger()
                if try ledgerExists() {
                    _ = try load(copy: copy, migrator: migrator, mayUpgrade: true)
                } else {
                    try create(copy: copy, migrator: migrator)
                }
                try session.execute("COMMIT")
            }
        } catch {
            try? session.execute("ROLLBACK")
            throw error
        }
        try copy.inDatabase { db in try WorkingCopy.installChangeTracking(db, shapes) }
    }

    /// Loads an existing ledger into the copy, upgrading it first when it was written by an
    /// older MoneyFlow and `mayUpgrade`; false when it needs that upgrade and may not.
    func load(copy: DatabaseQueue, migrator: DatabaseMigrator, mayUpgrade: Bool) throws -> Bool {
        let known = migrator.migrations
        let applied = try appliedMigrations()
        let unknown = applied.filter { !known.contains($0) }
        if !unknown.isEmpty {
            throw StoreError(
                "store \(displayName) was written by a newer MoneyFlow (schema changes this version does not know: \(unknown.sorted().joined(separator: ", "))); use that newer moneyflow. The store was not changed"
            )
        }
        guard let last = known.last(where: applied.contains) else {
            throw StoreError("store \(displayName) is damaged: it records no schema version; restore it from a backup")
        }
        if applied.count < known.count && !mayUpgrade { return false }
        let version = try currentVersion()
        // A cache file of this very ledger and schema is used as it is: the first read or
        // write brings it up to date by the change log.
        if applied.count == known.count, try copy.inDatabase({ db in try cacheFits(db, server: version, applied: applied) }) {
            shapes = try copy.inDatabase { db in try WorkingCopy.shapes(db) }
            return true
        }
        try copy.inDatabase { db in try wipeCopy(db) }
        try migrator.migrate(copy, upTo: last)
        shapes = try copy.inDatabase { db in try WorkingCopy.shapes(db) }
        try copy.inDatabase { db in try reload(db, to: version) }
        if applied.count < known.count { try upgrade(copy: copy, migrator: migrator) }
        return true
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

    /// A new ledger: the copy migrated to this MoneyFlow's schema, its tables made on the
    /// server, and the rows the migrations wrote (their own record, the id counters) sent.
    func create(copy: DatabaseQueue, migrator: DatabaseMigrator) throws {
        try copy.inDatabase { db in try wipeCopy(db) }
        try migrator.migrate(copy)
        shapes = try copy.read { db in try WorkingCopy.shapes(db) }
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
        try sendAllRows(copy)
        let version = LedgerVersion(incarnation: UUID().uuidString.lowercased(), version: 1)
        var binds = PostgresBindings()
        binds.append(version.incarnation)
        try session.execute("INSERT INTO \(metaTable) (incarnation, version) VALUES ($1, 1)", binds)
        try copy.inDatabase { db in try setCopyState(db, version) }
    }

    /// A ledger from an older MoneyFlow: the copy (holding its rows) is migrated, and the
    /// server's tables are made again in the new shape with every row.
    func upgrade(copy: DatabaseQueue, migrator: DatabaseMigrator) throws {
        for shape in shapes { try session.execute("DROP TABLE \(table(shape))") }
        try migrator.migrate(copy)
        shapes = try copy.read { db in try WorkingCopy.shapes(db) }
        try createTables()
        try sendAllRows(copy)
        let version = try bumpVersion()
        try logChanges([:], version: version.version, wholeLedger: true)
        try copy.inDatabase { db in try setCopyState(db, version) }
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
