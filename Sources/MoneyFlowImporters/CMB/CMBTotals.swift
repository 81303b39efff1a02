import Foundation
import MoneyFlowCore

extension CMBWork {
    // MARK: totals (合并统计)

    func parseTotals(_ scans: [CMBPageScan]) -> [CMBStatement.CurrencyTotal] {
        let label = Array("合并统计".unicodeScalars)
        var totals: [CMBStatement.CurrencyTotal] = []
        for s in scans {
            guard let start = s.lines.firstIndex(where: { $0.contains(label) }) else { continue }
            var found = 0
            var k = start
            while k < s.lines.count {
                let line = s.lines[k]
                var text = line.spacedText
                if k == start, let r = text.range(of: "合并统计") { text = String(text[r.upperBound...]) }
                if let t = CMBWork.parseTotalLine(text) {
                    totals.append(t); found += 1
                } else if k != start {
                    let compact = line.compactText
                    let isNotice = ["温馨提示", "本交易流水", "交易流水验真"].contains { compact.contains($0) }
                    let isDateRow = CMBWork.parseDate(Array(line.runs(gapFactor: 1.0).first?.compact ?? [])) != nil
                    if isNotice || isDateRow || (found > 0 && !CMBWork.isLabelLine(compact)) { break }
                    if k - start > 6 && found == 0 { break }
                }
                k += 1
            }
            if found > 0 { break }
        }
        return totals
    }

    static func isLabelLine(_ compact: String) -> Bool {
        !compact.unicodeScalars.contains { $0.properties.numericType != nil }
    }

    /// `CNY 2,183,210.75 -2,123,020.01` (currency, income, expense), tolerating labels around.
    static func parseTotalLine(_ text: String) -> CMBStatement.CurrencyTotal? {
        let tokens = text.split(whereSeparator: { $0 == " " || $0 == "：" || $0 == ":" || $0 == "|" }).map(String.init)
        var currency: String? = nil
        var amounts: [String] = []
        for t in tokens {
            if currency == nil, let c = CMBCurrency.isoCode(t) { currency = c; continue }
            if looksLikeAmount(t), t.contains(".") { amounts.append(t) }
        }
        guard let currency, amounts.count >= 2 else { return nil }
        let values = amounts.compactMap { a in
            parseMinorUnits(a, exponent: Money.exponent(for: currency)).map { Money(minorUnits: $0, currency: currency) }
        }
        guard values.count == amounts.count else { return nil }
        var income: Money? = nil
        var expense: Money? = nil
        if let neg = values.first(where: { $0.minorUnits < 0 }) {
            expense = neg
            income = values.first(where: { $0.minorUnits >= 0 })
        } else {
            income = values[0]
            expense = Money(minorUnits: -values[1].minorUnits, currency: currency)
        }
        guard let income, let expense else { return nil }
        return CMBStatement.CurrencyTotal(currency: currency, income: income, expense: expense)
    }
}
