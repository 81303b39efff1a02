import Foundation
import GRDB
import MoneyFlowCore

@testable import MoneyFlowStore

/// The home page's figures computed by scanning the whole ledger, as the page did before the
/// store kept them (v15): the oracle ``SummaryTablesTests`` holds the kept sums to.
struct ScannedOverview {
    var months: [LedgerOverview.Month]
    var categories: [LedgerOverview.CategorySpend]
    var balances: [LedgerOverview.BalancePoint]
    var uncategorized: Int
    var transactions: Int
    var lastImport: [String: String]
    var breaks: [LedgerStore.BalanceBreakRow]

    static func compute(_ store: LedgerStore, months limit: Int) throws -> ScannedOverview {
        try store.read { db in
            let months = try Row.fetchAll(
                db,
                sql: """
                    SELECT m, currency, inflow, outflow FROM (
                      SELECT substr(date, 1, 7) AS m, currency,
                        SUM(CASE WHEN amount_minor > 0 THEN amount_minor ELSE 0 END) AS inflow,
                        SUM(CASE WHEN amount_minor < 0 THEN -amount_minor ELSE 0 END) AS outflow
                      FROM txn WHERE status = 'active' GROUP BY m, currency)
                    WHERE m IN (SELECT DISTINCT substr(date, 1, 7) AS m FROM txn WHERE status = 'active' ORDER BY m DESC LIMIT ?)
                    ORDER BY m, currency
                    """, arguments: [limit]
            ).map { r in
                LedgerOverview.Month(
                    month: r[0], currency: r[1], moneyIn: Money(minorUnits: r[2], currency: r[1]), moneyOut: Money(minorUnits: r[3], currency: r[1]))
            }
            let categories = try Row.fetchAll(
                db,
                sql: """
                    SELECT c.account, t.currency, SUM(-t.amount_minor), COUNT(*)
                    FROM txn t LEFT JOIN txn_category c ON c.transaction_id = t.id
                    WHERE t.status = 'active' AND t.amount_minor < 0
                      AND NOT (c.transaction_id IS NOT NULL AND c.account IS NULL)
                    GROUP BY c.account, t.currency ORDER BY SUM(-t.amount_minor) DESC, c.account, t.currency LIMIT 12
                    """
            ).map { r in LedgerOverview.CategorySpend(category: r[0], spent: Money(minorUnits: r[2], currency: r[1]), count: r[3]) }
            let uncategorized =
                try Int.fetchOne(
                    db,
                    sql: "SELECT COUNT(*) FROM txn t WHERE t.status = 'active' AND NOT EXISTS (SELECT 1 FROM txn_category c WHERE c.transaction_id = t.id)"
                ) ?? 0
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM txn WHERE status = 'active'") ?? 0
            return ScannedOverview(
                months: months, categories: categories, balances: try balances(db, months: limit), uncategorized: uncategorized,
                transactions: count, lastImport: try lastImports(db), breaks: try breaks(db))
        }
    }

    static func balances(_ db: Database, months limit: Int) throws -> [LedgerOverview.BalancePoint] {
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
            let account: String = r[0], currency: String = r[1], month: String = r[2], net: Int64 = r[3], printed: Int64? = r[4]
            let key = account + "\u{1F}" + currency
            let value = printed ?? ((running[key] ?? 0) + net)
            running[key] = value
            out.append(.init(account: account, month: month, balance: Money(minorUnits: value, currency: currency), computed: printed == nil))
        }
        let newest = Set(out.map(\.month)).sorted().suffix(limit)
        return out.filter { newest.contains($0.month) }
    }

    static func lastImports(_ db: Database) throws -> [String: String] {
        let names = Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT id, name FROM account").map { ($0[0] as Int64, $0[1] as String) })
        var out: [String: String] = [:]
        for b in try Row.fetchAll(db, sql: "SELECT id, imported_at FROM batch WHERE undone_at IS NULL ORDER BY id DESC") {
            for id in try Int64.fetchAll(db, sql: "SELECT DISTINCT account_id FROM record WHERE batch_id = ?", arguments: [b[0] as Int64]) {
                if let name = names[id], out[name] == nil { out[name] = b[1] }
            }
        }
        return out
    }

    /// Balance runs as the report built them: bank records printing a balance, per batch,
    /// account and currency, in file order (reversed when the file lists newest first), of
    /// accounts holding live transactions.
    static func breaks(_ db: Database) throws -> [LedgerStore.BalanceBreakRow] {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT a.name, r.currency, r.batch_id, b.file_name, r.date, r.amount_minor, r.balance_minor, l.transaction_id
                FROM record r JOIN account a ON a.id = r.account_id JOIN batch b ON b.id = r.batch_id
                JOIN link l ON l.record_id = r.id
                WHERE r.balance_minor IS NOT NULL AND r.state = 'active' AND r.source_kind NOT IN \(SourceKindSQL.feeds)
                  AND EXISTS (SELECT 1 FROM txn t WHERE t.account_id = a.id AND t.status = 'active')
                ORDER BY r.batch_id, a.name, r.currency, r.file_seq
                """)
        var runs: [[Row]] = []
        for r in rows {
            if let last = runs.last?.last, last[2] as Int64 == r[2] as Int64, last[0] as String == r[0] as String, last[1] as String == r[1] as String {
                runs[runs.count - 1].append(r)
            } else {
                runs.append([r])
            }
        }
        var out: [LedgerStore.BalanceBreakRow] = []
        for run in runs {
            let ordered = (run.first![4] as String) > (run.last![4] as String) ? run.reversed() : run
            for (prev, cur) in zip(ordered, ordered.dropFirst()) {
                let (sum, overflow) = (prev[6] as Int64).addingReportingOverflow(cur[5] as Int64)
                guard overflow || sum != cur[6] as Int64 else { continue }
                out.append(
                    .init(account: cur[0], transactionID: cur[7], currency: cur[1], file: cur[3], expected: overflow ? nil : sum, printed: cur[6]))
            }
        }
        return out
    }
}
