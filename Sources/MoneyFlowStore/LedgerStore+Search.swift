import Foundation
import GRDB
import MoneyFlowCore

/// What a person asks of the ledger beyond an account and dates: a text, a category, or the
/// transactions nothing categorised yet (the web app's transactions and sort pages).
public struct TransactionSearch: Sendable, Hashable {
    public var account: String?
    public var from: LocalDate?
    public var through: LocalDate?
    /// Found in the description, the counterparty or the note (the user's edits included); ASCII letters in any case.
    public var text: String?
    /// The category account exactly (`Expenses:Food`); ``uncategorized`` for those without one.
    public var category: String?
    /// Only transactions with no category at all.
    public var uncategorizedOnly: Bool

    public init(
        account: String? = nil, from: LocalDate? = nil, through: LocalDate? = nil, text: String? = nil, category: String? = nil,
        uncategorizedOnly: Bool = false
    ) {
        self.account = account; self.from = from; self.through = through; self.text = text; self.category = category
        self.uncategorizedOnly = uncategorizedOnly
    }
}

extension LedgerStore {
    /// Live transactions matching `search` in id order after `afterID`, at most `limit` (ids
    /// only grow, so the pages are stable while imports happen between them, as
    /// ``transactionsPage(account:from:through:afterID:limit:)``'s).
    public func transactionsPage(matching search: TransactionSearch, afterID: Int64, limit: Int) throws -> [LedgerTransaction] {
        try read { db in
            var conditions = ["t.status = 'active'", "t.id > ?"]
            var args: [any DatabaseValueConvertible] = [afterID]
            if let account = search.account { conditions.append("a.name = ?"); args.append(account) }
            if let from = search.from { conditions.append("t.date >= ?"); args.append(from.iso) }
            if let through = search.through { conditions.append("t.date <= ?"); args.append(through.iso) }
            if let text = search.text?.trimmingCharacters(in: .whitespaces), !text.isEmpty {
                let like = "%" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
                    .replacingOccurrences(of: "_", with: "\\_") + "%"
                conditions.append(
                    """
                    (coalesce(t.user_description, t.description) LIKE ? ESCAPE '\\'
                     OR coalesce(t.user_counterparty, t.counterparty, '') LIKE ? ESCAPE '\\'
                     OR coalesce(t.user_note, t.note, '') LIKE ? ESCAPE '\\')
                    """)
                args += [like, like, like]
            }
            if search.uncategorizedOnly {
                conditions.append("NOT EXISTS (SELECT 1 FROM txn_category c WHERE c.transaction_id = t.id)")
            } else if let category = search.category, !category.isEmpty {
                conditions.append("EXISTS (SELECT 1 FROM txn_category c WHERE c.transaction_id = t.id AND c.account = ?)")
                args.append(category)
            }
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

    /// The category accounts of live transactions, most used first (the sort page's one-click
    /// choices and the search's list), with how many transactions each holds.
    public func categoryUsage(limit: Int = 1000) throws -> [(category: String, count: Int)] {
        try read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT c.account, COUNT(*) FROM txn_category c JOIN txn t ON t.id = c.transaction_id
                    WHERE t.status = 'active' AND c.account IS NOT NULL
                    GROUP BY c.account ORDER BY COUNT(*) DESC, c.account LIMIT ?
                    """, arguments: [limit]
            ).map { ($0[0], $0[1]) }
        }
    }
}

extension LedgerStore {
    public func overview(months: Int = 12) async throws -> LedgerOverview {
        try await perform { try $0.overview(months: months) }
    }

    public func transactionsPage(matching search: TransactionSearch, afterID: Int64, limit: Int) async throws -> [LedgerTransaction] {
        try await perform { try $0.transactionsPage(matching: search, afterID: afterID, limit: limit) }
    }

    public func uncategorizedCount() async throws -> Int {
        try await perform { try $0.uncategorizedCount() }
    }

    public func categoryUsage(limit: Int = 1000) async throws -> [(category: String, count: Int)] {
        try await perform { try $0.categoryUsage(limit: limit) }
    }
}
