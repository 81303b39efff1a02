import GRDB

/// One table of the store as a remote ledger mirrors it: columns with their SQLite affinity,
/// the primary key, and the unique keys.
public struct TableShape: Sendable, Equatable {
    public enum Affinity: Sendable, Equatable { case integer, real, text, blob }
    public struct Column: Sendable, Equatable {
        public var name: String
        public var affinity: Affinity
    }
    /// The table's name in the working copy.
    public var name: String
    public var columns: [Column]
    /// Column names of the primary key (never empty).
    public var primaryKey: [String]
    /// Column lists of the unique indexes other than the primary key.
    public var uniqueKeys: [[String]]
    /// True for SQLite's own id counter (`sqlite_sequence`): it cannot carry triggers, so it is
    /// sent whole with every write (a handful of rows).
    public var isIDCounter: Bool { name == "sqlite_sequence" }

    /// Positions of the primary key's columns in ``columns``.
    public var primaryKeyPositions: [Int] { primaryKey.map { k in columns.firstIndex { $0.name == k }! } }
}

/// The SQLite side of a remote ledger's working copy (see ``RemoteLedger``): which tables to
/// mirror, which rows a write changed (temporary triggers record their primary keys), and
/// replacing the copy's content with the server's rows. Nothing here knows the server's SQL.
/// Tables named `mf_...` are the copy's own bookkeeping, never mirrored.
public enum WorkingCopy {
    static func quoted(_ name: String) -> String {
        // Names almost never hold a quote; an undo of a merge quotes a few per restored row.
        name.utf8.contains(0x22) ? "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : "\"" + name + "\""
    }

    /// Every table of the copy in name order, then the id counter: loading rows with explicit
    /// ids into an AUTOINCREMENT table writes the counter too, so it is loaded last (see
    /// ``inserter(_:_:)``).
    public static func shapes(_ db: Database) throws -> [TableShape] {
        let names = try String.fetchAll(
            db,
            sql:
                """
                SELECT name FROM sqlite_master WHERE type = 'table' AND (name NOT LIKE 'sqlite_%' OR name = 'sqlite_sequence')
                  AND substr(name, 1, 3) <> 'mf_' ORDER BY name = 'sqlite_sequence', name
                """
        )
        return try names.map { try shape(db, table: $0) }
    }

    static func shape(_ db: Database, table: String) throws -> TableShape {
        var columns: [TableShape.Column] = []
        var pk: [(Int, String)] = []
        for r in try Row.fetchAll(db, sql: "PRAGMA table_info(\(quoted(table)))") {
            let name: String = r["name"]
            // SQLite's own counter declares no types: its columns hold a table name and an id.
            let declared = table == "sqlite_sequence" ? (name == "seq" ? "INTEGER" : "TEXT") : ((r["type"] as String?) ?? "").uppercased()
            // SQLite's affinity rules (https://sqlite.org/datatype3.html#determination_of_column_affinity).
            let affinity: TableShape.Affinity =
                declared.contains("INT")
                ? .integer
                : (declared.contains("CHAR") || declared.contains("CLOB") || declared.contains("TEXT"))
                    ? .text
                    : (declared.contains("BLOB") || declared.isEmpty)
                        ? .blob
                        : .real
            columns.append(.init(name: name, affinity: affinity))
            let position: Int = r["pk"]
            if position > 0 { pk.append((position, name)) }
        }
        var primaryKey = pk.sorted { $0.0 < $1.0 }.map(\.1)
        if table == "sqlite_sequence" { primaryKey = ["name"] }
        var unique: [[String]] = []
        for r in try Row.fetchAll(db, sql: "PRAGMA index_list(\(quoted(table)))")
        where (r["unique"] as Int) == 1 && (r["origin"] as String) != "pk" && (r["partial"] as Int) == 0 {
            let index: String = r["name"]
            let cols = try Row.fetchAll(db, sql: "PRAGMA index_info(\(quoted(index)))").sorted {
                ($0["seqno"] as Int) < ($1["seqno"] as Int)
            }
            .compactMap { $0["name"] as String? }
            if !cols.isEmpty && cols != primaryKey { unique.append(cols) }
        }
        guard !primaryKey.isEmpty else { throw StoreError("table \(table) has no primary key; a remote ledger cannot mirror it") }
        return TableShape(
            name: table, columns: columns, primaryKey: primaryKey,
            uniqueKeys: unique.sorted { $0.joined(separator: ",") < $1.joined(separator: ",") })
    }

    static func changeTable(_ s: TableShape) -> String { "temp." + quoted("mf_changed_" + s.name) }

    /// Records, from now on, the primary key of every row inserted, updated or deleted in the
    /// copy (REPLACE's implicit deletes included: recursive triggers are turned on). The key
    /// tables are looked up by primary key, so a write of N rows adds N indexed lookups.
    public static func installChangeTracking(_ db: Database, _ shapes: [TableShape]) throws {
        try db.execute(sql: "PRAGMA recursive_triggers = ON")
        for s in shapes where !s.isIDCounter {
            let keys = s.primaryKey.map(quoted).joined(separator: ", ")
            try db.execute(
                sql: "CREATE TEMP TABLE IF NOT EXISTS \(quoted("mf_changed_" + s.name)) (\(keys), PRIMARY KEY (\(keys))) WITHOUT ROWID")
            let t = quoted(s.name)
            for (event, rows) in [("INSERT", ["NEW"]), ("UPDATE", ["OLD", "NEW"]), ("DELETE", ["OLD"])] {
                // Not INSERT OR IGNORE: an outer statement's conflict policy (an upsert's)
                // replaces the one written in a trigger, and a second change of the same row
                // would then fail. An upsert clause is the trigger's own and stays; and not
                // `INSERT … WHERE NOT EXISTS (SELECT …)`, which SQLite 3.40 runs as a scan of
                // the key table inside a trigger (a write of N rows cost N² steps).
                let changed = quoted("mf_changed_" + s.name)
                let body = rows.map { (row: String) -> String in
                    let values = s.primaryKey.map { "\(row).\(quoted($0))" }
                    return "INSERT INTO \(changed) VALUES (\(values.joined(separator: ", "))) ON CONFLICT DO NOTHING;"
                }.joined(separator: " ")
                try db.execute(
                    sql:
                        "CREATE TEMP TRIGGER IF NOT EXISTS \(quoted("mf_track_\(event.lowercased())_" + s.name)) AFTER \(event) ON main.\(t) BEGIN \(body) END"
                )
            }
        }
    }

    /// Stops recording (before the copy's content is replaced wholesale).
    public static func removeChangeTracking(_ db: Database, _ shapes: [TableShape]) throws {
        for s in shapes where !s.isIDCounter {
            for event in ["insert", "update", "delete"] {
                try db.execute(sql: "DROP TRIGGER IF EXISTS temp.\(quoted("mf_track_\(event)_" + s.name))")
            }
            try db.execute(sql: "DROP TABLE IF EXISTS \(changeTable(s))")
        }
    }

    /// Primary keys of the rows of `shape` changed since the last ``clearChanges(_:_:)`` (all
    /// rows for the id counter), in the primary key's column order.
    public static func changedKeys(_ db: Database, _ shape: TableShape) throws -> [[DatabaseValue]] {
        let keys = shape.primaryKey.map(quoted).joined(separator: ", ")
        let from = shape.isIDCounter ? "main.sqlite_sequence" : changeTable(shape)
        return try Row.fetchAll(db, sql: "SELECT \(keys) FROM \(from)").map { Array($0.databaseValues) }
    }

    /// The current rows (all columns, in ``TableShape/columns`` order) of the changed keys that
    /// still exist.
    public static func changedRows(_ db: Database, _ shape: TableShape, _ each: ([DatabaseValue]) throws -> Void) throws {
        let cols = shape.columns.map { "t." + quoted($0.name) }.joined(separator: ", ")
        let sql: String
        if shape.isIDCounter {
            sql = "SELECT \(cols) FROM main.sqlite_sequence t"
        } else {
            let on = shape.primaryKey.map { "t.\(quoted($0)) = c.\(quoted($0))" }.joined(separator: " AND ")
            sql = "SELECT \(cols) FROM \(changeTable(shape)) c JOIN main.\(quoted(shape.name)) t ON \(on)"
        }
        let cursor = try Row.fetchCursor(db, sql: sql)
        while let row = try cursor.next() { try each(Array(row.databaseValues)) }
    }

    /// Every row of `shape` (all columns, in ``TableShape/columns`` order).
    public static func allRows(_ db: Database, _ shape: TableShape, _ each: ([DatabaseValue]) throws -> Void) throws {
        let cols = shape.columns.map { quoted($0.name) }.joined(separator: ", ")
        let cursor = try Row.fetchCursor(db, sql: "SELECT \(cols) FROM main.\(quoted(shape.name))")
        while let row = try cursor.next() { try each(Array(row.databaseValues)) }
    }

    /// Forgets the recorded changes (after they reached the server).
    public static func clearChanges(_ db: Database, _ shapes: [TableShape]) throws {
        for s in shapes where !s.isIDCounter { try db.execute(sql: "DELETE FROM \(changeTable(s))") }
    }

    /// Number of changed rows recorded for all tables (0: the write changed nothing).
    public static func changeCount(_ db: Database, _ shapes: [TableShape]) throws -> Int {
        var n = 0
        for s in shapes where !s.isIDCounter { n += try Int.fetchOne(db, sql: "SELECT count(*) FROM \(changeTable(s))") ?? 0 }
        return n
    }

    /// Empties every table of the copy (inside the caller's transaction, foreign keys checked
    /// at its commit) before the server's rows are loaded with ``inserter(_:_:)``.
    public static func clear(_ db: Database, _ shapes: [TableShape]) throws {
        try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
        for s in shapes { try db.execute(sql: "DELETE FROM main.\(quoted(s.name))") }
    }

    /// After a load: checks foreign keys at once again for what follows in the same
    /// transaction (the write a refresh precedes must fail before the server commits it, not at
    /// the copy's commit after). What the load itself left is still checked at the commit.
    public static func endLoad(_ db: Database) throws {
        try db.execute(sql: "PRAGMA defer_foreign_keys = OFF")
    }

    /// A prepared insert-or-update of one row of `shape` by its primary key (values in column
    /// order). An update in place, never a delete and insert: deleting a row would cascade to
    /// rows that point at it and did not change.
    public static func upserter(_ db: Database, _ shape: TableShape) throws -> Statement {
        let cols = shape.columns.map { quoted($0.name) }.joined(separator: ", ")
        let marks = Array(repeating: "?", count: shape.columns.count).joined(separator: ", ")
        let others = shape.columns.map(\.name).filter { !shape.primaryKey.contains($0) }
        let action =
            others.isEmpty ? "NOTHING" : "UPDATE SET " + others.map { "\(quoted($0)) = excluded.\(quoted($0))" }.joined(separator: ", ")
        return try db.makeStatement(
            sql:
                "INSERT INTO main.\(quoted(shape.name)) (\(cols)) VALUES (\(marks)) ON CONFLICT (\(shape.primaryKey.map(quoted).joined(separator: ", "))) DO \(action)"
        )
    }

    /// A prepared DELETE of one row of `shape` by its primary key (values in key order).
    public static func deleter(_ db: Database, _ shape: TableShape) throws -> Statement {
        try db.makeStatement(
            sql: "DELETE FROM main.\(quoted(shape.name)) WHERE " + shape.primaryKey.map { "\(quoted($0)) = ?" }.joined(separator: " AND "))
    }

    /// A prepared INSERT of one row of `shape` (values in column order). For the id counter,
    /// the rows SQLite wrote itself while the other tables were loaded are removed first.
    public static func inserter(_ db: Database, _ shape: TableShape) throws -> Statement {
        if shape.isIDCounter { try db.execute(sql: "DELETE FROM main.sqlite_sequence") }
        let cols = shape.columns.map { quoted($0.name) }.joined(separator: ", ")
        let marks = Array(repeating: "?", count: shape.columns.count).joined(separator: ", ")
        return try db.makeStatement(sql: "INSERT INTO main.\(quoted(shape.name)) (\(cols)) VALUES (\(marks))")
    }
}
