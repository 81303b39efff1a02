import GRDB

extension LedgerStore {
    /// Tables whose rows make a ledger non-empty.
    static let contentTables = ["account", "batch", "txn", "record", "plaid_item", "sync_state"]

    /// True when nothing was ever imported or linked here.
    public func isEmptyLedger() throws -> Bool {
        try read { db in
            for t in Self.contentTables where try Int.fetchOne(db, sql: "SELECT count(*) FROM \(WorkingCopy.quoted(t))") ?? 0 > 0 {
                return false
            }
            return true
        }
    }

    /// Copies every row of `source` (ids, id counters, undo history, user decisions, Plaid
    /// items and cursors) into this store, which must be empty, in one write transaction.
    /// Returns the number of rows copied per table.
    @discardableResult
    public func copyLedger(from source: LedgerStore) throws -> [String: Int] {
        guard try isEmptyLedger() else {
            throw StoreError("\(path) already holds a ledger; copy into a new, empty store (nothing was changed)")
        }
        return try write { dst in
            let shapes = try WorkingCopy.shapes(dst)
            return try source.read { src in
                let sourceShapes = try WorkingCopy.shapes(src)
                guard sourceShapes == shapes else {
                    throw StoreError("\(source.path) and \(path) have different schemas; open both with this moneyflow first")
                }
                try WorkingCopy.clear(dst, shapes)
                var counts: [String: Int] = [:]
                for s in shapes {
                    let insert = try WorkingCopy.inserter(dst, s)
                    let cols = s.columns.map { WorkingCopy.quoted($0.name) }.joined(separator: ", ")
                    let rows = try Row.fetchCursor(src, sql: "SELECT \(cols) FROM main.\(WorkingCopy.quoted(s.name))")
                    var n = 0
                    while let row = try rows.next() {
                        try insert.execute(arguments: StatementArguments(Array(row.databaseValues)))
                        n += 1
                    }
                    counts[s.name] = n
                }
                try WorkingCopy.endLoad(dst)
                return counts
            }
        }
    }
}
