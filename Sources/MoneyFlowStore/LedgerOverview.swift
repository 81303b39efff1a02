import Foundation
import GRDB
import MoneyFlowCore

/// What a person looks at first (the web app's home page): money in and out per month,
/// spending by category, each account's balance at each month's end, and what waits for them.
/// Sums are computed by SQLite over the live transactions, so the overview of a ledger of
/// 100,000 transactions reads no transaction into memory.
public struct LedgerOverview: Sendable, Hashable {
    /// One month's money in (positive amounts) and out (negative amounts, as a positive sum), per currency.
    public struct Month: Sendable, Hashable {
        public var month: String
        public var currency: String
        public var moneyIn: Money
        public var moneyOut: Money
    }

    /// Money spent (negative amounts, as a positive sum) booked to one category; nil is uncategorised.
    public struct CategorySpend: Sendable, Hashable {
        public var category: String?
        public var spent: Money
        public var count: Int
    }

    /// An account's balance at the end of a month: the last balance its statements printed
    /// that month, or (for an account whose rows carry none) the running sum of its amounts.
    public struct BalancePoint: Sendable, Hashable {
        public var account: String
        public var month: String
        public var balance: Money
        /// True when `balance` is the running sum of amounts (no printed balance to go by).
        public var computed: Bool
    }

    public var months: [Month]
    public var categories: [CategorySpend]
    public var balances: [BalancePoint]
    /// Live transactions with no category at all (the sort page's pile).
    public var uncategorized: Int
    public var transactions: Int
    /// When each account last got records from an import still in force (account name -> batch time).
    public var lastImport: [String: String] = [:]
}

extension LedgerStore {
    /// The overview of the live transactions (see ``LedgerOverview``); `months` limits the
    /// series to the newest months.
    public func overview(months limit: Int = 12) throws -> LedgerOverview {
        try read { db in
            var months: [LedgerOverview.Month] = []
            for r in try Row.fetchAll(
                db,
                sql: """
                    SELECT m, currency, inflow, outflow FROM (
                      SELECT substr(date, 1, 7) AS m, currency,
                        SUM(CASE WHEN amount_minor > 0 THEN amount_minor ELSE 0 END) AS inflow,
                        SUM(CASE WHEN amount_minor < 0 THEN -amount_minor ELSE 0 END) AS outflow
                      FROM txn WHERE status = 'active' GROUP BY m, currency)
                    WHERE m IN (SELECT DISTINCT substr(date, 1, 7) AS m FROM txn WHERE status = 'active' ORDER BY m DESC LIMIT ?)
                    ORDER BY m, currency
                    """, arguments: [limit])
            {
                let currency: String = r[1]
                months.append(
                    .init(
                        month: r[0], currency: currency, moneyIn: Money(minorUnits: r[2], currency: currency),
                        moneyOut: Money(minorUnits: r[3], currency: currency)))
            }
            let categories = try Row.fetchAll(
                db,
                sql: """
                    SELECT c.account, t.currency, SUM(-t.amount_minor), COUNT(*)
                    FROM txn t LEFT JOIN txn_category c ON c.transaction_id = t.id
                    WHERE t.status = 'active' AND t.amount_minor < 0
                      AND NOT (c.transaction_id IS NOT NULL AND c.account IS NULL)
                    GROUP BY c.account, t.currency ORDER BY SUM(-t.amount_minor) DESC LIMIT 12
                    """
            ).map { r in
                LedgerOverview.CategorySpend(category: r[0], spent: Money(minorUnits: r[2], currency: r[1]), count: r[3])
            }
            let balances = try Self.monthEndBalances(db, months: limit)
            let uncategorized = try Self.uncategorizedCount(db)
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM txn WHERE status = 'active'") ?? 0
            return LedgerOverview(
                months: months, categories: categories, balances: balances, uncategorized: uncategorized, transactions: count,
                lastImport: try Self.lastImports(db))
        }
    }

    /// The names of the accounts holding at least one live transaction (one index probe per account).
    public func accountsWithLiveTransactions() throws -> Set<String> {
        try read { db in
            Set(
                try String.fetchAll(
                    db, sql: "SELECT a.name FROM account a WHERE EXISTS (SELECT 1 FROM txn t WHERE t.account_id = a.id AND t.status = 'active')"))
        }
    }

    /// Live transactions with no category at all (the sort page's pile).
    public func uncategorizedCount() throws -> Int { try read { db in try Self.uncategorizedCount(db) } }

    static func uncategorizedCount(_ db: Database) throws -> Int {
        try Int.fetchOne(
            db,
            sql: """
                SELECT COUNT(*) FROM txn t WHERE t.status = 'active'
                  AND NOT EXISTS (SELECT 1 FROM txn_category c WHERE c.transaction_id = t.id)
                """) ?? 0
    }

    /// The newest batch (not undone) that stored records of each account: batches newest first,
    /// each read through the record's batch index, until every account has one.
    private static func lastImports(_ db: Database) throws -> [String: String] {
        let names = Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT id, name FROM account").map { ($0[0] as Int64, $0[1] as String) })
        var out: [String: String] = [:]
        let batches = try Row.fetchAll(db, sql: "SELECT id, imported_at FROM batch WHERE undone_at IS NULL ORDER BY id DESC")
        for b in batches where out.count < names.count {
            let batchID: Int64 = b[0], at: String = b[1]
            for id in try Int64.fetchAll(db, sql: "SELECT DISTINCT account_id FROM record WHERE batch_id = ?", arguments: [batchID]) {
                if let name = names[id], out[name] == nil { out[name] = at }
            }
        }
        return out
    }

    /// Each account's balance at each month's end (see ``LedgerOverview/BalancePoint``), newest `months` months.
    private static func monthEndBalances(_ db: Database, months limit: Int) throws -> [LedgerOverview.BalancePoint] {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT a.name, t.currency, substr(t.date, 1, 7) AS m, SUM(t.amount_minor),
                  (SELECT t2.balance_minor FROM txn t2 WHERE t2.account_id = t.account_id AND t2.currency = t.currency
                     AND t2.status = 'active' AND t2.balance_minor IS NOT NULL
                     AND t2.date BETWEEN substr(t.date, 1, 7) || '-01' AND substr(t.date, 1, 7) || '-31'
                   ORDER BY t2.date DESC, t2.sort_key DESC, t2.id DESC LIMIT 1)
                FROM txn t JOIN account a ON a.id = t.account_id
                WHERE t.status = 'active'
                GROUP BY t.account_id, t.currency, m ORDER BY a.name, t.currency, m
                """)
        var out: [LedgerOverview.BalancePoint] = []
        var running: [String: Int64] = [:]
        for r in rows {
            let account: String = r[0], currency: String = r[1], month: String = r[2], net: Int64 = r[3]
            let printed: Int64? = r[4]
            let key = account + "\u{1F}" + currency
            let value = printed ?? ((running[key] ?? 0) + net)
            running[key] = value
            out.append(.init(account: account, month: month, balance: Money(minorUnits: value, currency: currency), computed: printed == nil))
        }
        let newest = Set(out.map(\.month)).sorted().suffix(limit)
        return out.filter { newest.contains($0.month) }
    }
}
