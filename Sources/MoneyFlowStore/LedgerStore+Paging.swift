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
    /// The live transaction with this id, as one entry of ``transactionsPage(account:from:through:afterID:limit:)``
    /// gives it; nil when no live transaction has it (never was, or voided).
    public func transaction(id: Int64) throws -> LedgerTransaction? {
        try read { db in
            try Queries.transactions(db, account: nil, from: nil, through: nil, includeAll: false, ids: [id]).first
        }
    }
}
