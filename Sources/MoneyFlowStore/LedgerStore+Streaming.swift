import Foundation
import GRDB
import MoneyFlowCore

/// Read-only queries for output that must not hold the whole ledger in memory
/// (`transactions --format json|csv` on millions of rows) and small read-backs for summaries.
extension LedgerStore {
    /// Calls `body` with each transaction, in the order of ``transactions(account:from:through:includeAll:)``
    /// (account name, date, source order, id) and with the same content, reading rows with two
    /// database cursors inside one read transaction (one consistent snapshot): the
    /// transactions, and their sources sorted the same way and merged in step. Memory stays
    /// bounded by one transaction and SQLite's sorter.
    public func forEachTransaction(account: String? = nil, from: LocalDate? = nil, through: LocalDate? = nil,
                                   includeAll: Bool = false, _ body: (LedgerTransaction) throws -> Void) throws {
        var conditions: [String] = []
        var args: [any DatabaseValueConvertible] = []
        if !includeAll { conditions.append("t.status = 'active'") }
        if let account { conditions.append("a.name = ?"); args.append(account) }
        if let from { conditions.append("t.date >= ?"); args.append(from.iso) }
        if let through { conditions.append("t.date <= ?"); args.append(through.iso) }
        let whereClause = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        let order = "ORDER BY a.name, t.date, t.sort_key, t.id"
        try pool.read { db in
            let txs = try Row.fetchCursor(db, sql: """
                SELECT t.*, a.name AS account_name FROM txn t JOIN account a ON a.id = t.account_id
                \(whereClause) \(order)
                """, arguments: StatementArguments(args))
            let srcs = try Row.fetchCursor(db, sql: """
                SELECT l.transaction_id, r.id AS rid, r.source_kind, r.external_id, b.file_name, r.line, r.page, r.row, r.state,
                       r.date AS rdate, r.amount_minor AS ramount, r.currency AS rcurrency, r.description AS rdescription,
                       r.counterparty AS rcounterparty, r.pending AS rpending
                FROM link l JOIN record r ON r.id = l.record_id JOIN batch b ON b.id = r.batch_id
                JOIN txn t ON t.id = l.transaction_id JOIN account a ON a.id = t.account_id
                \(whereClause) \(includeAll ? "" : (whereClause.isEmpty ? "WHERE" : "AND") + " r.state = 'active'")
                \(order), r.id
                """, arguments: StatementArguments(args))
            // Rows are copied out of the cursor: a cursor reuses its row between steps.
            var pending: (id: Int64, source: LedgerSource)?
            if let r = try srcs.next() { pending = (r["transaction_id"], Queries.source(r)) }
            while let r = try txs.next() {
                let id: Int64 = r["id"]
                var sources: [LedgerSource] = []
                while let p = pending, p.id == id {
                    sources.append(p.source)
                    pending = try srcs.next().map { ($0["transaction_id"], Queries.source($0)) }
                }
                let currency: String = r["currency"]
                try body(LedgerTransaction(
                    id: id, accountID: r["account_id"], account: r["account_name"], date: LocalDate(iso: r["date"] as String, .lenient)!,
                    amount: Money(minorUnits: r["amount_minor"], currency: currency),
                    description: (r["user_description"] as String?) ?? r["description"],
                    counterparty: (r["user_counterparty"] as String?) ?? r["counterparty"],
                    note: (r["user_note"] as String?) ?? r["note"],
                    balance: (r["balance_minor"] as Int64?).map { Money(minorUnits: $0, currency: currency) },
                    category: r["category"], pending: r["pending"], status: r["status"], needsReview: r["needs_review"],
                    sources: sources))
            }
        }
    }

    /// Current names of the accounts that hold these import identities (`cmb:8705`,
    /// `plaid:<id>`), by key. An import summary reads names back here so a renamed account
    /// is shown by its current name.
    public func accountNames(forKeys keys: [String]) throws -> [String: String] {
        guard !keys.isEmpty else { return [:] }
        return try pool.read { db in
            var names: [String: String] = [:]
            let marks = Array(repeating: "?", count: keys.count).joined(separator: ",")
            for r in try Row.fetchAll(db, sql: """
                SELECT k.key, a.name FROM account_key k JOIN account a ON a.id = k.account_id WHERE k.key IN (\(marks))
                """, arguments: StatementArguments(keys)) {
                names[r["key"]] = r["name"]
            }
            return names
        }
    }

    /// Current names of accounts by id.
    public func accountNames(forIDs ids: [Int64]) throws -> [Int64: String] {
        guard !ids.isEmpty else { return [:] }
        return try pool.read { db in
            var names: [Int64: String] = [:]
            for r in try Row.fetchAll(db, sql: "SELECT id, name FROM account WHERE id IN (\(ids.map(String.init).joined(separator: ",")))") {
                names[r["id"]] = r["name"]
            }
            return names
        }
    }
}
