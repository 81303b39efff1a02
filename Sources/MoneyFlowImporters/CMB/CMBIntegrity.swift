import Foundation
import MoneyFlowCore

extension CMBWork {
    // MARK: integrity: page markers, balance chain, totals

    mutating func checkPageMarkers(_ scans: [CMBPageScan]) -> Int? {
        let marked = scans.filter { $0.marker != nil }
        guard !marked.isEmpty else { return nil }
        var counts: [Int: Int] = [:]
        for s in marked { counts[s.marker!.m, default: 0] += 1 }
        let declared = counts.max { a, b in a.value != b.value ? a.value < b.value : a.key > b.key }!.key
        for s in scans {
            guard let mk = s.marker else {
                warnings.append(ImportWarning("no page marker N/\(declared) on this page", at: Locator(page: s.number)))
                continue
            }
            if mk.m != declared {
                warnings.append(
                    ImportWarning(
                        "page marker \(mk.n)/\(mk.m) disagrees with \(declared) pages declared elsewhere",
                        at: Locator(page: s.number)))
            }
            if mk.n != s.number {
                warnings.append(
                    ImportWarning(
                        "page marker \(mk.n)/\(mk.m) printed on page \(s.number)",
                        at: Locator(page: s.number)))
            }
        }
        if declared != scans.count {
            warnings.append(ImportWarning("the statement declares \(declared) pages (N/\(declared)) but \(scans.count) were read"))
        }
        return declared
    }

    /// CMB statements list rows oldest first; the chain is checked by the shared ``BalanceChain``.
    mutating func checkBalances(_ rows: [CMBStatement.Row]) {
        let entries = rows.map {
            BalanceChain.Entry(amount: $0.amount, balance: $0.balance, date: nil, locator: Locator(page: $0.page, row: $0.rowOnPage))
        }
        warnings += BalanceChain.check(entries, direction: .oldestFirst).breaks.map(\.warning)
    }

    mutating func checkTotals(_ rows: [CMBStatement.Row], _ totals: [CMBStatement.CurrencyTotal]) {
        guard !totals.isEmpty else { return }
        var income: [String: Int64] = [:]
        var expense: [String: Int64] = [:]
        var order: [String] = []
        for r in rows {
            if income[r.currency] == nil { order.append(r.currency); income[r.currency] = 0; expense[r.currency] = 0 }
            if r.amount.minorUnits >= 0 { income[r.currency]! += r.amount.minorUnits } else { expense[r.currency]! += r.amount.minorUnits }
        }
        var seen = Set<String>()
        for t in totals {
            seen.insert(t.currency)
            let inc = income[t.currency] ?? 0
            let exp = expense[t.currency] ?? 0
            if inc != t.income.minorUnits {
                warnings.append(
                    ImportWarning(
                        "合并统计 \(t.currency) income \(t.income.decimalString) but rows sum to \(Money(minorUnits: inc, currency: t.currency).decimalString)"
                    ))
            }
            if exp != t.expense.minorUnits {
                warnings.append(
                    ImportWarning(
                        "合并统计 \(t.currency) expense \(t.expense.decimalString) but rows sum to \(Money(minorUnits: exp, currency: t.currency).decimalString)"
                    ))
            }
        }
        for c in order where !seen.contains(c) {
            warnings.append(ImportWarning("合并统计 has no line for \(c), which has rows"))
        }
    }
}
