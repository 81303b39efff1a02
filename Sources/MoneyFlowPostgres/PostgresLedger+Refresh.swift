import Foundation
import GRDB
import MoneyFlowStore
import PostgresNIO

/// Bringing a working copy up to date without loading the whole ledger again: every write
/// logs, per table, the primary keys it changed (`moneyflow_change`, one version per write); a
/// copy a few versions behind fetches just those rows. A copy too far behind (the log keeps the
/// last ``keptVersions`` versions), or behind a write too big to log (more than
/// ``loggedKeysLimit`` keys, logged as `*`), or of another incarnation of the ledger, is loaded in
/// full instead.
extension PostgresLedger {
    static let keptVersions: Int64 = 1_000
    static let loggedKeysLimit = 50_000
    var changeTable: String { schema + ".moneyflow_change" }

    static let changeTableDDL = """
        (version BIGINT NOT NULL, table_name TEXT NOT NULL, keys TEXT NOT NULL, PRIMARY KEY (version, table_name))
        """

    /// One part of a logged primary key: ids are integers, names are text.
    enum KeyPart: Codable, Equatable {
        case int(Int64)
        case text(String)
        init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let i = try? c.decode(Int64.self) { self = .int(i) } else { self = .text(try c.decode(String.self)) }
        }
        func encode(to encoder: any Encoder) throws {
            var c = encoder.singleValueContainer()
            switch self {
            case .int(let i): try c.encode(i)
            case .text(let s): try c.encode(s)
            }
        }
        init(_ v: DatabaseValue) {
            switch v.storage {
            case .int64(let i): self = .int(i)
            case .string(let s): self = .text(s)
            default: self = .text(v.description)
            }
        }
        var databaseValue: DatabaseValue {
            switch self {
            case .int(let i): return i.databaseValue
            case .text(let s): return s.databaseValue
            }
        }
    }

    /// Logs the keys each table changed in `version` (called by the write that made it);
    /// `wholeLedger` (an upgrade) makes every copy load in full.
    func logChanges(_ changed: [String: [[DatabaseValue]]], version: Int64, wholeLedger: Bool = false) throws {
        let total = changed.values.reduce(0) { $0 + $1.count }
        var entries: [(String, String)] = []
        if wholeLedger || total > Self.loggedKeysLimit {
            entries = [("*", "[]")]
        } else {
            let encoder = JSONEncoder()
            for (table, keys) in changed.sorted(by: { $0.key < $1.key }) {
                let data = try encoder.encode(keys.map { $0.map(KeyPart.init) })
                entries.append((table, String(decoding: data, as: UTF8.self)))
            }
            if entries.isEmpty { entries = [("", "[]")] } // a write that moved only the id counters
        }
        for (table, keys) in entries {
            var binds = PostgresBindings()
            binds.append(version); binds.append(table); binds.append(keys)
            try session.execute("INSERT INTO \(changeTable) (version, table_name, keys) VALUES ($1, $2, $3)", binds)
        }
        var prune = PostgresBindings()
        prune.append(version - Self.keptVersions)
        try session.execute("DELETE FROM \(changeTable) WHERE version <= $1", prune)
    }

    /// Brings the copy to `target`, by the logged keys when it can, else in full.
    /// Never moves the copy back: a cache file another process already brought further is
    /// left as it is. Called inside the copy's write transaction.
    func refresh(_ db: Database, to target: LedgerVersion) throws {
        let held = try copyState(db)
        if let held, held.incarnation == target.incarnation, held.version >= target.version { return }
        guard let from = held, from.incarnation == target.incarnation,
            let changed = try loggedChanges(after: from.version, through: target.version)
        else {
            try reload(db, to: target)
            return
        }
        do {
            try db.inSavepoint {
                try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
                for shape in shapes where !shape.isIDCounter {
                    guard let keys = changed[shape.name], !keys.isEmpty else { continue }
                    try fetchRows(db, shape, keys: keys)
                }
                if let counter = shapes.first(where: \.isIDCounter) { try load(db, counter) }
                try WorkingCopy.endLoad(db)
                try WorkingCopy.clearChanges(db, shapes)
                try setCopyState(db, target)
                return .commit
            }
        } catch is DatabaseError {
            // The changed rows could not be applied one by one (say, two accounts swapped
            // names): the copy is loaded in full instead.
            try reload(db, to: target)
        }
    }

    /// The keys changed per table after version `from` up to `through`; nil when the log
    /// does not hold every one of those versions, or one of them was too big to log.
    func loggedChanges(after from: Int64, through: Int64) throws -> [String: [[DatabaseValue]]]? {
        var binds = PostgresBindings()
        binds.append(from); binds.append(through)
        let rows = try session.query(
            "SELECT version, table_name, keys FROM \(changeTable) WHERE version > $1 AND version <= $2 ORDER BY version", binds)
        var versions = Set<Int64>()
        var keys: [String: Set<[KeyPart]>] = [:]
        let decoder = JSONDecoder()
        for row in rows {
            let (version, table, text) = try row.decode((Int64, String, String).self)
            if table == "*" { return nil }
            versions.insert(version)
            if table.isEmpty { continue }
            keys[table, default: []].formUnion(try decoder.decode([[KeyPart]].self, from: Data(text.utf8)))
        }
        guard Int64(versions.count) == through - from else { return nil }
        return keys.mapValues { $0.map { $0.map(\.databaseValue) } }
    }

    /// Makes the copy's rows of these keys what the server holds: updated in place, inserted,
    /// or deleted when the server no longer has them.
    func fetchRows(_ db: Database, _ shape: TableShape, keys: [[DatabaseValue]]) throws {
        let upsert = try WorkingCopy.upserter(db, shape)
        let delete = try WorkingCopy.deleter(db, shape)
        let positions = shape.primaryKeyPositions
        let columns = shape.columns.map { Self.quoted($0.name) }.joined(separator: ", ")
        let key = shape.primaryKey.map(Self.quoted).joined(separator: ", ")
        let types = positions.map { shape.columns[$0].affinity == .integer ? "bigint[]" : "text[]" }
        let unnest = types.enumerated().map { "$\($0.offset + 1)::\($0.element)" }.joined(separator: ", ")
        var start = 0
        while start < keys.count {
            let chunk = Array(keys[start..<min(start + 20_000, keys.count)])
            let rows = try session.query(
                "SELECT \(columns) FROM \(table(shape)) WHERE (\(key)) IN (SELECT * FROM unnest(\(unnest)))", try keyBinds(shape, chunk))
            var present = Set<[KeyPart]>()
            for row in rows {
                var values: [DatabaseValue] = []
                for (cell, column) in zip(row, shape.columns) { values.append(try Self.value(cell, column, shape)) }
                present.insert(positions.map { KeyPart(values[$0]) })
                try upsert.execute(arguments: StatementArguments(values))
            }
            for k in chunk where !present.contains(k.map(KeyPart.init)) {
                try delete.execute(arguments: StatementArguments(k))
            }
            start += chunk.count
        }
    }

    /// The keys as one array parameter per key column (for `unnest`).
    func keyBinds(_ shape: TableShape, _ keys: [[DatabaseValue]]) throws -> PostgresBindings {
        var binds = PostgresBindings()
        for (k, position) in shape.primaryKeyPositions.enumerated() {
            if shape.columns[position].affinity == .integer {
                binds.append(try keys.map { try Self.int64($0[k], shape) })
            } else {
                binds.append(try keys.map { try Self.text($0[k], shape) })
            }
        }
        return binds
    }
}

extension PostgresLedger.KeyPart: Hashable {}
