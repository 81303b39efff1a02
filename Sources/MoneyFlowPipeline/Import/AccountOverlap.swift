import Foundation
import MoneyFlowCore
import MoneyFlowStore

/// The same bank account downloaded in two formats (a CSV and an OFX of one checking account)
/// becomes two accounts with every transaction twice: the importers cannot know it (each
/// format names the account its own way) and the engine matches only within an account. So,
/// after planning, the rows of each account the import is about to create are compared with
/// every existing account's transactions; when almost all of them (``share``, and at least
/// ``minimumRows``) have a transaction of the same amount within the matching window there,
/// the import says so in a warning naming the account and `--account`.
///
/// A warning, not a refusal: two accounts can share a month of identical payments (a card
/// and the checking account paying it). Counted by amount and date only, one transaction per row.
enum AccountOverlap {
    /// Share of the new account's rows that must match for the warning.
    static let share = 0.9
    /// Fewer rows than this say nothing (a few equal amounts are coincidence).
    static let minimumRows = 5

    static func warnings(
        _ plan: ImportPlan, existing: [LedgerAccount], view: any LedgerView, windowDays: Int
    ) throws -> [ImportWarning] {
        let created = plan.accounts.filter { $0.accountID == nil }
        guard !created.isEmpty, !existing.isEmpty else { return [] }
        var out: [ImportWarning] = []
        // Rows per new account name (an `--account` override gives every key one name).
        var rowsByName: [String: [IncomingRecord]] = [:]
        var names: [String] = []
        let nameOfKey = Dictionary(created.map { ($0.key, $0.name) }, uniquingKeysWith: { a, _ in a })
        for r in plan.statement.records {
            guard let name = nameOfKey[r.accountKey] else { continue }
            if rowsByName[name] == nil { names.append(name) }
            rowsByName[name, default: []].append(r)
        }
        for name in names {
            let rows = rowsByName[name]!
            guard rows.count >= minimumRows else { continue }
            for account in existing {
                let matched = try matchedRows(rows, accountID: account.id, view: view, windowDays: windowDays)
                guard Double(matched) >= share * Double(rows.count) else { continue }
                out.append(
                    ImportWarning(
                        "\(matched) of the \(rows.count) rows for the new account '\(name)' match transactions of the existing account "
                            + "'\(account.name)' (same amount, dates within \(windowDays) days): if both are one bank account, "
                            + "`moneyflow undo` this batch and import the file again with --account \"\(account.name)\", "
                            + "or merge the accounts: moneyflow accounts merge \"\(account.name)\" \"\(name)\""))
            }
        }
        return out
    }

    /// How many of `rows` find a transaction of `accountID` of the same currency and amount
    /// within the window, each transaction used once (nearest date first, rows in date order).
    static func matchedRows(_ rows: [IncomingRecord], accountID: Int64, view: any LedgerView, windowDays: Int) throws -> Int {
        var matched = 0
        for (currency, group) in Dictionary(grouping: rows, by: \.amount.currency) {
            let days = group.map(\.date.dayNumber)
            let candidates = try view.candidateTransactions(
                accountID: accountID, currency: currency, from: LocalDate(dayNumber: days.min()! - windowDays),
                through: LocalDate(dayNumber: days.max()! + windowDays))
            var free: [Int64: [Int]] = [:]
            for c in candidates { free[c.amount.minorUnits, default: []].append(c.date.dayNumber) }
            for r in group.sorted(by: { $0.date < $1.date }) {
                guard var pool = free[r.amount.minorUnits], !pool.isEmpty else { continue }
                let day = r.date.dayNumber
                let best = pool.indices.min { abs(pool[$0] - day) < abs(pool[$1] - day) }!
                guard abs(pool[best] - day) <= windowDays else { continue }
                pool.remove(at: best)
                free[r.amount.minorUnits] = pool
                matched += 1
            }
        }
        return matched
    }
}
