import Testing

@testable import MoneyFlowCore

@Suite struct BalanceChainTests {
    func entry(_ amount: Int64, _ balance: Int64?, _ day: Int, line: Int, currency: String = "USD") -> BalanceChain.Entry {
        BalanceChain.Entry(
            amount: Money(minorUnits: amount, currency: currency), balance: balance.map { Money(minorUnits: $0, currency: currency) },
            date: LocalDate(year: 2026, month: 3, day: day), locator: Locator(line: line))
    }

    @Test func oldestFirstChainsAndOneAlteredAmountBreaksOnce() {
        let good = [entry(-100, 900, 1, line: 2), entry(-50, 850, 2, line: 3), entry(200, 1050, 3, line: 4), entry(-5, 1045, 4, line: 5)]
        let r = BalanceChain.check(good)
        #expect(r.direction == .oldestFirst && r.breaks.isEmpty)
        var bad = good
        bad[2].amount = Money(minorUnits: 210, currency: "USD")
        let b = BalanceChain.check(bad)
        #expect(b.breaks.count == 1)
        #expect(b.breaks.first?.locator.line == 4)
        #expect(b.breaks.first?.message == "balance chain break (USD): previous balance 8.50 + amount 2.10 = 10.60, printed balance 10.50")
    }

    /// Newest-first, several rows a day: the file's same-day order is the chronological order
    /// reversed; nothing may re-sort within a day.
    @Test func newestFirstWithSameDayRows() {
        // Chronological: 1000 -> -10 (990) -> -20 (970) -> +5 (975) on day 2, then -75 (900) day 3.
        let file = [entry(-75, 900, 3, line: 2), entry(5, 975, 2, line: 3), entry(-20, 970, 2, line: 4), entry(-10, 990, 2, line: 5)]
        let r = BalanceChain.check(file)
        #expect(r.direction == .newestFirst)
        #expect(r.breaks.isEmpty)
        var bad = file
        bad[1].amount = Money(minorUnits: 6, currency: "USD")
        let b = BalanceChain.check(bad)
        #expect(b.breaks.map(\.locator.line) == [3])
    }

    @Test func sameDayOnlyFilesPickTheDirectionThatChains() {
        let file = [entry(-75, 900, 2, line: 2), entry(5, 975, 2, line: 3), entry(-20, 970, 2, line: 4)]
        #expect(BalanceChain.check(file).direction == .newestFirst)
        #expect(BalanceChain.check(file).breaks.isEmpty)
    }

    @Test func rowsWithoutBalanceCarryTheirAmountAndCurrenciesChainApart() {
        let file = [
            entry(-10, 990, 1, line: 2), entry(-5, nil, 2, line: 3), entry(-1, 984, 3, line: 4),
            entry(100, 5000, 3, line: 5, currency: "EUR"), entry(-100, 4900, 4, line: 6, currency: "EUR"),
        ]
        #expect(BalanceChain.check(file).breaks.isEmpty)
        #expect(BalanceChain.check([entry(1, 1, 1, line: 2)]).direction == nil)
    }
}
