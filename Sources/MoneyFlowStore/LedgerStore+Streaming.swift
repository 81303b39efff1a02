import Foundation
import GRDB
import MoneyFlowCore

/// Read-only queries for output that must not hold the whole ledger in memory
/// (`transactions --format json|csv` on millions of rows) and small read-backs for summaries.
extension LedgerStore {
    /// Calls `body` with each transaction, in the order and with the content of
    /// ``transactions(account:from:through:includeAll:)``, inside one read transaction (one
    /// consistent snapshot) without holding the ledger in memory (see `Queries.forEachTransaction`).
    public func forEachTransaction(
        account: String? = nil, from: LocalDate? = nil, through: LocalDate? = nil,
        includeAll: Bool = false, _ body: (LedgerTransaction) throws -> Void
    ) throws {
        try read { db in
            try Queries.forEachTransaction(db, account: account, from: from, through: through, includeAll: includeAll, body)
        }
    }

    /// Current names of the accounts that hold these import identities (`cmb:8705`,
    /// `plaid:<id>`), by key. An import summary reads names back here so a renamed account
    /// is shown by its current name.
    public func accountNames(forKeys keys: [String]) throws -> [String: String] {
        guard !keys.isEmpty else { return [:] }
        return try read { db in
            var names: [String: String] = [:]
            let marks = Array(repeating: "?", count: keys.count).joined(separator: ",")
            for r in try Row.fetchAll(
                db,
                sql: """
                    SELECT k.key, a.name FROM account_key k JOIN account a ON a.id = k.account_id WHERE k.key IN (\(marks))
                    """, arguments: StatementArguments(keys))
            {
                names[r["key"]] = r["name"]
            }
            return names
        }
    }

    /// Current names of accounts by id.
    public func accountNames(forIDs ids: [Int64]) throws -> [Int64: String] {
        guard !ids.isEmpty else { return [:] }
        return try read { db in
            var names: [Int64: String] = [:]
            for r in try Row.fetchAll(db, sql: "SELECT id, name FROM account WHERE id IN (\(ids.map(String.init).joined(separator: ",")))")
            {
                names[r["id"]] = r["name"]
            }
            return names
        }
    }
}
