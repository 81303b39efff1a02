import Testing
@testable import MoneyFlowCore

@Suite struct MoneyTests {
    @Test func parsesExactDecimalText() throws {
        #expect(try Money.parse("1,234.56", currency: "USD").minorUnits == 123_456)
        #expect(try Money.parse("-5.00", currency: "CNY").minorUnits == -500)
        #expect(try Money.parse("(12.30)", currency: "USD").minorUnits == -1230)
        #expect(try Money.parse("+3", currency: "USD").minorUnits == 300)
        #expect(try Money.parse("1234.12", currency: "USD").decimalString == "1234.12")
        #expect(try Money.parse("0.1", currency: "USD").minorUnits == 10)
        #expect(try Money.parse("1.234,56", currency: "EUR", decimalSeparator: ",").minorUnits == 123_456)
        #expect(try Money.parse("1500", currency: "JPY").decimalString == "1500")
        #expect(try Money.parse("1.250", currency: "KWD").minorUnits == 1250)
        #expect(try Money.parse("12.50", currency: "USD", decimalSeparator: ".").minorUnits == 1250)
        #expect(try Money.parse("12.500", currency: "USD").minorUnits == 1250) // extra zero digits are exact
    }

    @Test func rejectsWhatIsNotAnAmount() {
        #expect(throws: MoneyParseError.self) { try Money.parse("", currency: "USD") }
        #expect(throws: MoneyParseError.self) { try Money.parse("12.345", currency: "USD") }
        #expect(throws: MoneyParseError.self) { try Money.parse("1.2.3", currency: "USD") }
        #expect(throws: MoneyParseError.self) { try Money.parse("abc", currency: "USD") }
        #expect(throws: MoneyParseError.self) { try Money.parse("99999999999999999999999", currency: "USD") }
    }

    @Test func formatsNegativeAndSmallValues() {
        #expect(Money(minorUnits: -5, currency: "USD").decimalString == "-0.05")
        #expect(Money(minorUnits: 0, currency: "CNY").decimalString == "0.00")
        #expect(Money(minorUnits: Int64.min + 1, currency: "USD").decimalString.hasPrefix("-92233720368547758"))
    }
}

@Suite struct LocalDateTests {
    @Test func parsesCommonForms() throws {
        #expect(try LocalDate.parse("2026-06-01", format: .iso).iso == "2026-06-01")
        #expect(try LocalDate.parse("06/01/2026", format: .monthDayYear).iso == "2026-06-01")
        #expect(try LocalDate.parse("1/2/26", format: .monthDayYear).iso == "2026-01-02")
        #expect(try LocalDate.parse("01.06.2026", format: .dayMonthYear).iso == "2026-06-01")
        #expect(try LocalDate.parse("20260601", format: .compact).iso == "2026-06-01")
        #expect(try LocalDate.parse("2026-06-01 13:45:00", format: .iso).iso == "2026-06-01")
    }

    @Test func rejectsImpossibleDays() {
        #expect(throws: DateParseError.self) { try LocalDate.parse("02/30/2026", format: .monthDayYear) }
        #expect(throws: DateParseError.self) { try LocalDate.parse("2026-13-01", format: .iso) }
        #expect(throws: DateParseError.self) { try LocalDate.parse("2026061", format: .compact) }
    }

    @Test func dayArithmeticRoundTrips() {
        let d = LocalDate(year: 2024, month: 2, day: 28)!
        #expect(d.adding(days: 1).iso == "2024-02-29")
        #expect(d.adding(days: 2).iso == "2024-03-01")
        #expect(LocalDate(dayNumber: d.dayNumber) == d)
        #expect(LocalDate(year: 1970, month: 1, day: 1)!.dayNumber == 0)
    }

    @Test func detectsFormatFromSamples() {
        #expect(LocalDate.detectFormat(["13.01.2026", "02.02.2026"]) == .dayMonthYear)
        #expect(LocalDate.detectFormat(["01/13/2026", "02/02/2026"]) == .monthDayYear)
        #expect(LocalDate.detectFormat(["20260113"]) == .compact)
    }
}

@Suite struct FingerprintTests {
    func record(_ desc: String, _ minor: Int64) -> IncomingRecord {
        IncomingRecord(accountKey: "a", sourceKind: .csv, date: LocalDate(year: 2026, month: 1, day: 2)!,
                       amount: Money(minorUnits: minor, currency: "USD"), description: desc, locator: Locator(line: 1))
    }

    @Test func identicalRowsGetOccurrenceIndexes() {
        let keys = Fingerprint.keys(for: [record("COFFEE", -500), record("COFFEE", -500), record("TEA", -500)])
        #expect(keys[0] != keys[1])
        #expect(keys[0].hasSuffix("#0") && keys[1].hasSuffix("#1") && keys[2].hasSuffix("#0"))
        // The same rows in another file produce the same keys (idempotent re-import).
        #expect(Fingerprint.keys(for: [record("COFFEE", -500), record("COFFEE", -500)]) == Array(keys.prefix(2)))
    }

    @Test func providerIDsWin() {
        var r = record("COFFEE", -500)
        r.externalID = "tx1"
        #expect(Fingerprint.keys(for: [r]) == ["id:tx1"])
    }
}
