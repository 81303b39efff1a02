import Foundation
import GRDB
import MoneyFlowCore

/// A whole row of any store table, as it was before a write changed it, kept in a batch's
/// undo log (``BatchChange/row(_:before:)``): undo writes it back with the same primary key (ids are never
/// handed out again, they come back to the row that had them), or deletes the row when it did
/// not exist before. For writes that move rows between accounts (``AccountMerge``), where a
/// change kind per column would be a second copy of every table's columns.
struct RowImage {
    /// One column value as SQLite stored it.
    enum Cell: Hashable {
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
    struct Key: Hashable {
        var table: String
        var columns: [String]
        var values: [Cell]
    }

    /// The row's columns and values (the log's `old_value`).
    struct Image: Equatable {
        var columns: [String]
        var values: [Cell]
    }

    /// The image of a fetched row.
    static func image(_ row: Row) -> Image { Image(columns: Array(row.columnNames), values: row.databaseValues.map(Cell.init)) }

    /// The row as it is now, or nil when there is none.
    static func capture(_ db: Database, _ key: Key) throws -> Image? {
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT * FROM \(WorkingCopy.quoted(key.table)) WHERE \(condition(key))"),
                arguments: StatementArguments(key.values.map(\.databaseValue)))
        else { return nil }
        return image(row)
    }

    /// Puts rows back as the undo log says, building each table's statements once.
    struct Restorer {
        let db: Database
        private var sql: [String: String] = [:]

        init(db: Database) { self.db = db }

        /// Puts the row back as `image` says (nil: removes it).
        mutating func restore(_ key: Key, _ image: Image?) throws {
            let text = try statement(key, image)
            try db.cachedStatement(sql: text).execute(arguments: StatementArguments((image?.values ?? key.values).map(\.databaseValue)))
        }

        /// `DELETE` by the key, or an upsert of every column.
        private mutating func statement(_ key: Key, _ image: Image?) throws -> String {
            let id = key.table + "|" + key.columns.joined(separator: ",") + "|" + (image?.columns.joined(separator: ",") ?? "-")
            if let known = sql[id] { return known }
            let table = WorkingCopy.quoted(key.table)
            let text: String
            if let image {
                let others = image.columns.filter { !key.columns.contains($0) }
                let update =
                    others.isEmpty
                    ? "NOTHING"
                    : "UPDATE SET "
                        + others.map { "\(WorkingCopy.quoted($0)) = excluded.\(WorkingCopy.quoted($0))" }.joined(separator: ", ")
                text = """
                    INSERT INTO \(table)(\(image.columns.map(WorkingCopy.quoted).joined(separator: ", ")))
                    VALUES (\(image.columns.map { _ in "?" }.joined(separator: ", ")))
                    ON CONFLICT(\(key.columns.map(WorkingCopy.quoted).joined(separator: ", "))) DO \(update)
                    """
            } else {
                text = "DELETE FROM \(table) WHERE \(RowImage.condition(key))"
            }
            sql[id] = text
            return text
        }
    }

    static func condition(_ key: Key) -> String {
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

    /// `after`: the last sequence number the batch's log already uses.
    init(db: Database, batchID: Int64, after seq: Int = 0) {
        self.db = db; self.batchID = batchID; self.seq = seq
    }

    /// Keeps the rows `sql` selects from `table`, as they are now, unless kept already.
    mutating func keep(_ table: String, where sql: String, _ arguments: StatementArguments) throws {
        let pk = try primaryKey(table)
        for row in try Row.fetchAll(
            db.cachedStatement(sql: "SELECT * FROM \(WorkingCopy.quoted(table)) WHERE \(sql)"), arguments: arguments)
        {
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
        try BatchChangeTable.append(db, batchID: batchID, seq: seq, .row(key, before: image))
    }

    /// A table's primary key columns, read once per table.
    private mutating func primaryKey(_ table: String) throws -> [String] {
        if let pk = primaryKeys[table] { return pk }
        let pk = try WorkingCopy.shape(db, table: table).primaryKey
        primaryKeys[table] = pk
        return pk
    }
}

/// The log's text of keys and images: JSON written by hand (a merge logs a row per record and
/// transaction it moves; Foundation's coders took most of its time). A cell is `null`, an
/// integer, a string, `{"real": number}` or `{"blob": "base64"}`.
extension RowImage.Cell {
    var logText: String {
        switch self {
        case .null: return "null"
        case .integer(let v): return String(v)
        case .real(let v): return #"{"real":\#(v)}"#
        case .text(let v): return JSONString.quoted(v, lineSeparators: .literal)
        case .blob(let v): return #"{"blob":"\#(v.base64EncodedString())"}"#
        }
    }

    init(logValue v: Any) throws {
        switch v {
        case is NSNull: self = .null
        case let s as String: self = .text(s)
        case let o as [String: Any]:
            if let r = o["real"] as? NSNumber {
                self = .real(r.doubleValue)
            } else if let b = o["blob"] as? String, let d = Data(base64Encoded: b) {
                self = .blob(d)
            } else {
                throw StoreError("unreadable value in the undo log: \(o)")
            }
        case let n as NSNumber: self = .integer(n.int64Value)
        default: throw StoreError("unreadable value in the undo log: \(v)")
        }
    }
}

extension RowImage.Key {
    var logText: String {
        #"{"table":\#(JSONString.quoted(table, lineSeparators: .literal)),"columns":\#(RowImage.logText(columns)),"values":\#(RowImage.logText(values))}"#
    }

    init(logText: String) throws {
        let o = try RowImage.logObject(logText)
        guard let table = o["table"] as? String else { throw StoreError("unreadable row key in the undo log: \(logText)") }
        let (columns, values) = try RowImage.columnsAndValues(o, logText)
        self.init(table: table, columns: columns, values: values)
    }
}

extension RowImage.Image {
    var logText: String { #"{"columns":\#(RowImage.logText(columns)),"values":\#(RowImage.logText(values))}"# }

    init(logText: String) throws {
        let (columns, values) = try RowImage.columnsAndValues(try RowImage.logObject(logText), logText)
        self.init(columns: columns, values: values)
    }
}

extension RowImage {
    static func logText(_ names: [String]) -> String {
        "[" + names.map { JSONString.quoted($0, lineSeparators: .literal) }.joined(separator: ",") + "]"
    }

    static func logText(_ cells: [Cell]) -> String { "[" + cells.map(\.logText).joined(separator: ",") + "]" }

    static func logObject(_ text: String) throws -> [String: Any] {
        guard let o = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
            throw StoreError("unreadable entry in the undo log: \(text.prefix(200))")
        }
        return o
    }

    static func columnsAndValues(_ o: [String: Any], _ text: String) throws -> ([String], [Cell]) {
        guard let columns = o["columns"] as? [String], let values = o["values"] as? [Any], columns.count == values.count else {
            throw StoreError("unreadable entry in the undo log: \(text.prefix(200))")
        }
        return (columns, try values.map(Cell.init(logValue:)))
    }
}
