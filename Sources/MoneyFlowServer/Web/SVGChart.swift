import Foundation
import MoneyFlowCore
import MoneyFlowStore

/// The home page's charts, drawn on the server as SVG (no script, no chart library). Every
/// label is escaped here (the charts are the one markup the templates insert unescaped).
/// Heights are scaled from exact minor units; only the drawing coordinates are fractional.
enum SVGChart {
    static func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "'", with: "&#39;")
    }

    /// Money in and out per month of the ledger's main currency: two bars per month.
    static func monthly(_ months: [LedgerOverview.Month]) -> String {
        let currency = mainCurrency(months.map(\.currency))
        let shown = months.filter { $0.currency == currency }
        let top = max(shown.map { max($0.moneyIn.minorUnits, $0.moneyOut.minorUnits) }.max() ?? 0, 1)
        let width = max(shown.count * 48, 200), height = 180, base = 150
        var out =
            #"<svg data-testid="monthly-chart" role="img" viewBox="0 0 \#(width) \#(height)" width="\#(width)" height="\#(height)" aria-label="Money in and out per month, \#(escape(currency))"><title>Money in and out per month (\#(escape(currency)))</title>"#
        for (i, m) in shown.enumerated() {
            let x = i * 48 + 6
            let hIn = Double(m.moneyIn.minorUnits) / Double(top) * 130, hOut = Double(m.moneyOut.minorUnits) / Double(top) * 130
            out += #"<g data-testid="month" data-month="\#(escape(m.month))">"#
            out += #"<rect class="in" x="\#(x)" y="\#(fmt(Double(base) - hIn))" width="18" height="\#(fmt(hIn))"><title>\#(escape(m.month)) in \#(escape(m.moneyIn.description))</title></rect>"#
            out += #"<rect class="out" x="\#(x + 19)" y="\#(fmt(Double(base) - hOut))" width="18" height="\#(fmt(hOut))"><title>\#(escape(m.month)) out \#(escape(m.moneyOut.description))</title></rect>"#
            out += #"<text x="\#(x + 18)" y="\#(base + 16)" text-anchor="middle">\#(escape(String(m.month.suffix(5))))</text></g>"#
        }
        if shown.isEmpty { out += #"<text x="10" y="90">No transactions yet</text>"# }
        return out + "</svg>"
    }

    /// Spending by category of the main currency: one horizontal bar each.
    static func categories(_ spends: [LedgerOverview.CategorySpend]) -> String {
        let currency = mainCurrency(spends.map(\.spent.currency))
        let shown = spends.filter { $0.spent.currency == currency }
        let top = max(shown.map(\.spent.minorUnits).max() ?? 0, 1)
        let height = max(shown.count * 26 + 10, 40)
        var out =
            #"<svg data-testid="category-chart" role="img" viewBox="0 0 400 \#(height)" width="400" height="\#(height)" aria-label="Spending by category, \#(escape(currency))"><title>Spending by category (\#(escape(currency)))</title>"#
        for (i, s) in shown.enumerated() {
            let y = i * 26 + 5, w = Double(s.spent.minorUnits) / Double(top) * 200
            let name = s.category ?? "Uncategorised"
            out += #"<text x="0" y="\#(y + 15)">\#(escape(String(name.suffix(24))))</text>"#
            out += #"<rect class="out" x="170" y="\#(y + 3)" width="\#(fmt(w))" height="16"><title>\#(escape(name)) \#(escape(s.spent.description))</title></rect>"#
        }
        if shown.isEmpty { out += #"<text x="10" y="25">No spending yet</text>"# }
        return out + "</svg>"
    }

    /// Each account's month-end balance as a line (accounts of the main currency).
    static func balances(_ points: [LedgerOverview.BalancePoint]) -> String {
        let currency = mainCurrency(points.map(\.balance.currency))
        let shown = points.filter { $0.balance.currency == currency }
        let months = Array(Set(shown.map(\.month))).sorted()
        let values = shown.map(\.balance.minorUnits)
        let lo = min(values.min() ?? 0, 0), hi = max(values.max() ?? 1, lo + 1)
        let width = max(months.count * 48, 200)
        func y(_ v: Int64) -> String { fmt(150 - Double(v - lo) / Double(hi - lo) * 140) }
        var out =
            #"<svg data-testid="balance-chart" role="img" viewBox="0 0 \#(width) 180" width="\#(width)" height="180" aria-label="Balance over time per account, \#(escape(currency))"><title>Balance over time per account (\#(escape(currency)))</title>"#
        var accounts: [String] = []
        for p in shown where !accounts.contains(p.account) { accounts.append(p.account) }
        for (n, account) in accounts.enumerated() {
            let line = shown.filter { $0.account == account }.compactMap { p in
                months.firstIndex(of: p.month).map { "\($0 * 48 + 24),\(y(p.balance.minorUnits))" }
            }
            out += #"<polyline class="line l\#(n % 4)" fill="none" points="\#(line.joined(separator: " "))"><title>\#(escape(account))</title></polyline>"#
            out += #"<text class="legend l\#(n % 4)" x="4" y="\#(172 - n * 0)" dx="\#(n * 120)">\#(escape(String(account.suffix(18))))</text>"#
        }
        if shown.isEmpty { out += #"<text x="10" y="90">No balances yet</text>"# }
        return out + "</svg>"
    }

    /// The currency most amounts are in (the charts draw one currency; the tables show all).
    static func mainCurrency(_ currencies: [String]) -> String {
        var counts: [String: Int] = [:]
        for c in currencies { counts[c, default: 0] += 1 }
        let best = counts.max { a, b in a.value < b.value || (a.value == b.value && a.key > b.key) }
        return best?.key ?? ""
    }

    private static func fmt(_ d: Double) -> String { String(format: "%.1f", d) }
}
