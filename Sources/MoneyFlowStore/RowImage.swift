import Foundation
import GRDB

/// A whole row of any store table, as it was before a write changed it, kept in a batch's
/// undo log (change kind `row`): undo writes it back with the same primary key (ids are never
/// handed out again, they come back to the row that had them), or deletes the row when it did
/// not exist before. For writes that move rows between accounts (``AccountMerge``), where a
/// change kind per column would be a second copy of every table's columns.
struct RowImage {
    /// One column value as SQLite stored it.
    enum Cell: Codable, Hashable {
        case null, integer(Int64), real(Double), text(String), blob(Data)

        init(_ value: DatabaseValue) {
            switch value.storage {
            case .null: self = .null
            case .int64(let v): self = .integer(v)
            case .double(let v): self = .real(v)
            case .string(let v): self = .text(v)
            case .blob(let v): self = .blob(v)
            }
        }

        var databaseValue: DatabaseValue {
            switch self {
            case .null: return .null
            case .integer(let v): return v.databaseValue
            case .real(let v): return v.databaseValue
            case .text(let v): return v.databaseValue
            case .blob(let v): return v.databaseValue
            }
        }
    }

    /// Which row: its table and primary key (the log's `target`).
    struct Key: Codable, Hashable {
        var table: String
        var columns: [String]
        var values: [Cell]
    }

    /// The row's columns and values (the log's `old_value`).
    struct Image: Codable {
        var columns: [String]
        var values: [Cell]
    }

    /// The image of a fetched row.
    static func image(_ row: Row) -> Image { Image(columns: Array(row.columnNames), values: row.databaseValues.map(Cell.init)) }

    /// The row as it is now, or nil when there is none.
    static func capture(_ db: Database, _ key: Key) throws -> Image? {
        guard
            let row = try Row.fetchOne(
                db, sql: "SELECT * FROM \(WorkingCopy.quoted(key.table)) WHERE \(condition(key))",
                arguments: StatementArguments(key.values.map(\.databaseValue)))
        else { return nil }
        return image(row)
    }

    /// Puts the row back as `image` says (nil: removes it).
    static func restore(_ db: Database, _ key: Key, _ image: Image?) throws {
        let table = WorkingCopy.quoted(key.table)
        guard let image else {
            try db.execute(
                sql: "DELETE FROM \(table) WHERE \(condition(key))", arguments: StatementArguments(key.values.map(\.databaseValue)))
            return
        }
        let others = image.columns.filter { !key.columns.contains($0) }
        let update =
            others.isEmpty
            ? "NOTHING"
            : "UPDATE SET " + others.map { "\(WorkingCopy.quoted($0)) = excluded.\(WorkingCopy.quoted($0))" }.joined(separator: ", ")
        try db.execute(
            sql: """
                INSERT INTO \(table)(\(image.columns.map(WorkingCopy.quoted).joined(separator: ", ")))
                VALUES (\(image.columns.map { _ in "?" }.joined(separator: ", ")))
                ON CONFLICT(\(key.columns.map(WorkingCopy.quoted).joined(separator: ", "))) DO \(update)
                """, arguments: StatementArguments(image.values.map(\.databaseValue)))
    }

    /// Undo of one `row` change of the log; returns the row's table.
    @discardableResult
    static func restore(_ db: Database, target: String, old: String?) throws -> String {
        let key = try JSONDecoder().decode(Key.self, from: Data(target.utf8))
        try restore(db, key, try old.map { try JSONDecoder().decode(Image.self, from: Data($0.utf8)) })
        return key.table
    }

    private static func condition(_ key: Key) -> String {
        key.columns.map { "\(WorkingCopy.quoted($0)) = ?" }.joined(separator: " AND ")
    }
}

/// Writes a batch's undo log: each row's image before the batch first changed it.
struct RowImageLog {
    let db: Database
    let batchID: Int64
    private var seq = 0
    private var saved = Set<RowImage.Key>()
    private var primaryKeys: [String: [String]] = [:]
    private let encoder = JSONEncoder()

    /// `after`: the last sequence number the batch's log already uses.
    init(db: Database, batchID: Int64, after seq: Int = 0) {
        self.db = db; self.batchID = batchID; self.seq = seq
    }

    /// Keeps the rows `sql` selects from `table`, as they are now, unless kept already.
    mutating func keep(_ table: String, where sql: String, _ arguments: StatementArguments) throws {
        let pk = try primaryKey(table)
        for row in try Row.fetchAll(db, sql: "SELECT * FROM \(WorkingCopy.quoted(table)) WHERE \(sql)", arguments: arguments) {
            let key = RowImage.Key(table: table, columns: pk, values: pk.map { RowImage.Cell(row[$0] as DatabaseValue) })
            try save(key, RowImage.image(row))
        }
    }

    /// Keeps the row of `key` as it is now (nothing: undo removes whatever is there then).
    mutating func keep(_ key: RowImage.Key) throws {
        try save(key, try RowImage.capture(db, key))
    }

    private mutating func save(_ key: RowImage.Key, _ image: RowImage.Image?) throws {
        guard saved.insert(key).inserted else { return }
        seq += 1
        try db.execute(
            sql: "INSERT INTO batch_change(batch_id, seq, kind, target, old_value) VALUES (?, ?, 'row', ?, ?)",
            arguments: [
                batchID, seq, String(decoding: try encoder.encode(key), as: UTF8.self),
                try image.map { String(decoding: try encoder.encode($0), as: UTF8.self) },
            ])
    }

    /// A table's primary key columns, read once per table.
    private mutating func primaryKey(_ table: String) throws -> [String] {
        if let pk = primaryKeys[table] { return pk }
        let pk = try WorkingCopy.shape(db, table: table).primaryKey
        primaryKeys[table] = pk
        return pk
    }
}
