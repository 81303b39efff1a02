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

    /// Grouping separators only where grouping puts them (issue 13: `12,34.5` was read as 1234.50).
    @Test(arguments: ["12,34.5", "1,2345.00", "1,23,456.00", ",123.00", "1,234,56.00", "1,234 567.00", "12,34"])
    func misplacedGroupingIsRefused(text: String) {
        #expect(throws: MoneyParseError.self) { try Money.parse(text, currency: "USD") }
    }

    @Test func wellPlacedGroupingIsRead() throws {
        #expect(try Money.parse("1,234.50", currency: "USD").minorUnits == 123_450)
        #expect(try Money.parse("-1,234,567.89", currency: "USD").minorUnits == -123_456_789)
        #expect(try Money.parse("1.234,50", currency: "EUR", decimalSeparator: ",").minorUnits == 123_450)
        #expect(try Money.parse("1 234 567,8", currency: "EUR", decimalSeparator: ",").minorUnits == 123_456_780)
        #expect(try Money.parse("1'234.50", currency: "CHF").minorUnits == 123_450)
        #expect(throws: MoneyParseError.self) { try Money.parse("1.23,50", currency: "EUR", decimalSeparator: ",") }
    }

    /// One documented limit (|x| < 10^12 minor units) so sums over millions of rows fit Int64.
    @Test func amountsBeyondTheLimitAreRefused() throws {
        #expect(try Money.parse("9,999,999,999.99", currency: "USD").minorUnits == Money.maxMinorUnits - 1)
        #expect(try Money.parse("-9999999999.99", currency: "USD").minorUnits == -(Money.maxMinorUnits - 1))
        #expect(throws: MoneyParseError.self) { try Money.parse("10000000000.00", currency: "USD") }
        #expect(throws: MoneyParseError.self) { try Money.parse("50000000000000000.00", currency: "USD") }
        #expect(throws: MoneyParseError.self) { try Money.parse("1000000000000", currency: "JPY") }
        // The guarantee the limit exists for: 9 million maximal values still sum inside Int64.
        let (_, overflow) = (Money.maxMinorUnits - 1).multipliedReportingOverflow(by: 9_000_000)
        #expect(!overflow)
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
        #expect(try LocalDate.parse("1/2/2026", format: .monthDayYear).iso == "2026-01-02")
        #expect(try LocalDate.parse("1/2/26", format: .monthDayYearShort).iso == "2026-01-02")
        #expect(try LocalDate.parse("01.06.2026", format: .dayMonthYear).iso == "2026-06-01")
        #expect(try LocalDate.parse("20260601", format: .compact).iso == "2026-06-01")
        #expect(try LocalDate.parse("2026-06-01 13:45:00", format: .iso).iso == "2026-06-01")
    }

    /// Every documented `date_format` reads its own layout, and only that layout.
    @Test(arguments: [
        ("DD/MM/YYYY", "04/03/2024", "2024-03-04"), ("MM/DD/YYYY", "04/03/2024", "2024-04-03"),
        ("DD.MM.YYYY", "04.03.2024", "2024-03-04"), ("DD-MM-YYYY", "04-03-2024", "2024-03-04"),
        ("MM-DD-YYYY", "04-03-2024", "2024-04-03"), ("YYYY-MM-DD", "2024-03-04", "2024-03-04"),
        ("YYYY/MM/DD", "2024/03/04", "2024-03-04"), ("YYYYMMDD", "20240304", "2024-03-04"),
        ("DD/MM/YY", "04/03/24", "2024-03-04"), ("MM/DD/YY", "04/03/99", "1999-04-03"),
    ])
    func everyDocumentedFormat(name: String, text: String, iso: String) throws {
        let f = try #require(LocalDate.Format(name: name))
        #expect(try LocalDate.parse(text, format: f).iso == iso)
        // Same digits, another separator: refused.
        let other = text.contains("/") ? text.replacingOccurrences(of: "/", with: "-") : text.replacingOccurrences(of: "-", with: "/")
        if other != text { #expect(throws: DateParseError.self) { try LocalDate.parse(other, format: f) } }
    }

    @Test func mixedSeparatorsAndWrongYearLengthsAreRefused() {
        #expect(throws: DateParseError.self) { try LocalDate.parse("08-10/2025", format: .monthDayYear) }
        #expect(throws: DateParseError.self) { try LocalDate.parse("08/10/25", format: .monthDayYear) }
        #expect(throws: DateParseError.self) { try LocalDate.parse("08/10/2025", format: .monthDayYearShort) }
        #expect(LocalDate.Format(name: "DD/MM/YYYYY") == nil)
        #expect(LocalDate.expandTwoDigitYear(69) == 2069 && LocalDate.expandTwoDigitYear(70) == 1970)
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
}

@Suite struct FingerprintTests {
    func record(_ desc: String, _ minor: Int64) -> IncomingRecord {
        IncomingRecord(
            accountKey: "a", sourceKind: .csv, date: LocalDate(year: 2026, month: 1, day: 2)!,
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

/// The byte-level date reading must answer exactly as the Character-level one it shortcuts.
@Suite struct DateFastPathTests {
    @Test func asciiReadingAgreesWithTheGeneralOne() {
        // Mostly well-formed pieces (so the byte reading is taken often), some of every kind of wrong.
        let lead = ["", "", "", " ", "\t", "\u{00A0}", "\n"]
        let numbers = ["1", "01", "12", "13", "31", "29", "02", "24", "2024", "2024", "1999", "", "99999", "0", "١"]
        let separators = ["/", "/", "-", "-", ".", "x", "//"]
        let tails = ["", "", "", " ", "\t", "T09:00", " 10:00 星期一", "\tx", "/1", "\r\n", "\u{3000}"]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func pick(_ a: [String]) -> String {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return a[Int((state >> 33) % UInt64(a.count))]
        }
        var fast = 0
        for _ in 0..<6_000 {
            let text = pick(lead) + pick(numbers) + pick(separators) + pick(numbers) + pick(separators) + pick(numbers) + pick(tails)
            for format in LocalDate.Format.allCases {
                let general = Result { () throws(DateParseError) in try LocalDate.parseGeneral(text, format: format) }
                if let d = LocalDate.parseASCII(text, format: format) {
                    fast += 1
                    #expect(general == .success(d), "\(text.debugDescription) \(format.rawValue)")
                }
                #expect(Result { () throws(DateParseError) in try LocalDate.parse(text, format: format) } == general)
            }
        }
        #expect(fast > 50)
        // Well-formed dates take the byte reading.
        #expect(LocalDate.parseASCII(" 12/31/2024 10:00", format: .monthDayYear) == LocalDate(year: 2024, month: 12, day: 31))
        #expect(LocalDate.parseASCII("2024-02-29T09:00:00Z", format: .iso) == LocalDate(year: 2024, month: 2, day: 29))
        #expect(LocalDate.parseASCII("3.1.24", format: .dayMonthYear) == nil) // two-digit year: not this format
        #expect(LocalDate.parseASCII("31/01/69\t", format: .dayMonthYearShort) == LocalDate(year: 2069, month: 1, day: 31))
    }
}
