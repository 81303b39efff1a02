import Foundation
import GRDB
import MoneyFlowCore

extension LedgerStore {
    /// Live transactions in id order after `afterID`, at most `limit`, filtered like
    /// ``transactions(account:from:through:includeAll:)``. Ids only grow (never reused), so
    /// paging by id never skips or repeats a row while imports happen between pages: new
    /// transactions appear on later pages, voided ones drop out.
    public func transactionsPage(
        account: String? = nil, from: LocalDate? = nil, through: LocalDate? = nil, afterID: Int64, limit: Int
    ) throws -> [LedgerTransaction] {
        try read { db in
            var conditions = ["t.status = 'active'", "t.id > ?"]
            var args: [any DatabaseValueConvertible] = [afterID]
            if let account { conditions.append("a.name = ?"); args.append(account) }
            if let from { conditions.append("t.date >= ?"); args.append(from.iso) }
            if let through { conditions.append("t.date <= ?"); args.append(through.iso) }
            args.append(limit)
            let ids = try Int64.fetchAll(
                db,
                sql: """
                    SELECT t.id FROM txn t JOIN account a ON a.id = t.account_id
                    WHERE \(conditions.joined(separator: " AND ")) ORDER BY t.id LIMIT ?
                    """, arguments: StatementArguments(args))
            guard !ids.isEmpty else { return [] }
            return try Queries.transactions(db, account: nil, from: nil, through: nil, includeAll: false, ids: ids).sorted { $0.id < $1.id }
        }
    }
}

extension LedgerStore {
    /// Tables whose ids users see (and pass back: links, undo, review).
    static let visibleIDTables = ["account", "batch", "txn", "record"]

    /// Makes a NEW, empty store hand out ids from `base + 1` on (SQLite's AUTOINCREMENT
    /// counter), so that stores serving different users never share an id: a server then
    /// answers 404 for another user's id instead of acting on an own row with the same number.
    /// A store that already holds rows, or was already started elsewhere, is left as it is.
    public func startIDs(after base: Int64) throws {
        try write { db in
            for table in Self.visibleIDTables {
                let used =
                    try Int64.fetchOne(
                        db,
                        sql:
                            "SELECT max(coalesce((SELECT max(id) FROM \(table)), 0), coalesce((SELECT seq FROM sqlite_sequence WHERE name = ?), 0))",
                        arguments: [table]) ?? 0
                guard used == 0 else { continue }
                // The schema's table rebuild may have left a row with seq 0: one row per table.
                try db.execute(sql: "UPDATE sqlite_sequence SET seq = ? WHERE name = ?", arguments: [base, table])
                if db.changesCount == 0 {
                    try db.execute(sql: "INSERT INTO sqlite_sequence(name, seq) VALUES (?, ?)", arguments: [table, base])
                }
            }
        }
    }
}
