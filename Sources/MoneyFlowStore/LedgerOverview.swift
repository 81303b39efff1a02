import Foundation
import GRDB
import MoneyFlowCore

/// What a person looks at first (the web app's home page): money in and out per month,
/// spending by category, each account's balance at each month's end, and what waits for them.
/// The sums are kept by every write (``SummaryTables``, per account, currency, month and
/// category), so the overview of a ledger of 100,000 transactions reads a few hundred rows.
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
            // The newest `limit` months holding live transactions, then their sums per currency.
            let newest = try String.fetchAll(db, sql: "SELECT DISTINCT month FROM month_total ORDER BY month DESC LIMIT ?", arguments: [limit])
            var months: [LedgerOverview.Month] = []
            for r in try Row.fetchAll(
                db,
                sql: """
                    SELECT month, currency, sum(inflow), sum(outflow) FROM month_total
                    WHERE month >= ? GROUP BY month, currency ORDER BY month, currency
                    """, arguments: [newest.last ?? ""])
            {
                let currency: String = r[1]
                months.append(
                    .init(
                        month: r[0], currency: currency, moneyIn: Money(minorUnits: r[2], currency: currency),
                        moneyOut: Money(minorUnits: r[3], currency: currency)))
            }
            // Spending by category: an own transfer (a category row that books no account) is not spending.
            let categories = try Row.fetchAll(
                db,
                sql: """
                    SELECT CASE WHEN booked THEN category END, currency, sum(outflow), sum(out_count)
                    FROM month_total WHERE NOT (booked AND category = '') AND out_count > 0
                    GROUP BY booked, category, currency ORDER BY sum(outflow) DESC, 1, currency LIMIT 12
                    """
            ).map { r in
                LedgerOverview.CategorySpend(category: r[0], spent: Money(minorUnits: r[2], currency: r[1]), count: r[3])
            }
            let counts = try Row.fetchOne(db, sql: "SELECT sum(count), sum(CASE WHEN booked THEN 0 ELSE count END) FROM month_total")
            return LedgerOverview(
                months: months, categories: categories, balances: try Self.monthEndBalances(db, months: limit),
                uncategorized: counts?[1] ?? 0, transactions: counts?[0] ?? 0, lastImport: try Self.lastImports(db))
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
    public func uncategorizedCount() throws -> Int {
        try read { db in try Int.fetchOne(db, sql: "SELECT sum(count) FROM month_total WHERE NOT booked") ?? 0 }
    }

    /// The newest batch (not undone) that stored records of each account.
    private static func lastImports(_ db: Database) throws -> [String: String] {
        var out: [String: String] = [:]
        for r in try Row.fetchAll(
            db,
            sql: """
                SELECT a.name, b.imported_at FROM account a
                JOIN batch b ON b.id = (SELECT max(x.batch_id) FROM batch_account x JOIN batch y ON y.id = x.batch_id
                                        WHERE x.account_id = a.id AND y.undone_at IS NULL)
                """)
        {
            out[r[0]] = r[1]
        }
        return out
    }

    /// Each account's balance at each month's end (see ``LedgerOverview/BalancePoint``), newest `months` months.
    private static func monthEndBalances(_ db: Database, months limit: Int) throws -> [LedgerOverview.BalancePoint] {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT a.name, m.currency, m.month, m.net, b.balance_minor
                FROM (SELECT account_id, currency, month, sum(inflow) - sum(outflow) AS net FROM month_total
                      GROUP BY account_id, currency, month) m
                JOIN account a ON a.id = m.account_id
                LEFT JOIN month_balance b ON b.account_id = m.account_id AND b.currency = m.currency AND b.month = m.month
                ORDER BY a.name, m.currency, m.month
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
