import MoneyFlowCore
import Testing

/// The explicit options of the shared primitives: each source's differences are a parameter of
/// the one implementation, and each option is pinned here once.
@Suite struct AmountSyntaxTests {
    @Test func anywhereGroupingReadsWhatThreeDigitGroupsRefuse() throws {
        let loose = AmountSyntax(grouping: .anywhereAfterADigit)
        #expect(try Money.parseMinorUnits("1,2345.00", exponent: 2, syntax: loose) == 1_234_500)
        #expect(try Money.parseMinorUnits("-1,234.56", exponent: 2, syntax: loose) == -123_456)
        #expect(try Money.parseMinorUnits("1,", exponent: 2, syntax: loose) == 100)
        #expect(throws: MoneyParseError.self) { try Money.parseMinorUnits("1,2345.00", exponent: 2) }
        #expect(throws: MoneyParseError.self) { try Money.parseMinorUnits(",5", exponent: 2, syntax: loose) }
        #expect(throws: MoneyParseError.self) { try Money.parseMinorUnits("1.2,3", exponent: 2, syntax: loose) }
        #expect(throws: MoneyParseError.self) { try Money.parseMinorUnits("1.234", exponent: 2, syntax: loose) }
    }

    @Test func wholeUnitLimitReplacesTheStandardOne() throws {
        let wide = AmountSyntax(limit: .wholeUnits(1_000_000_000_000_000))
        #expect(try Money.parseMinorUnits("999999999999999.99", exponent: 2, syntax: wide) == 99_999_999_999_999_999)
        #expect(try Money.parseMinorUnits("12,345,678,901,234.50", exponent: 2, syntax: wide) == 1_234_567_890_123_450)
        #expect(throws: MoneyParseError.self) { try Money.parseMinorUnits("1000000000000000", exponent: 2, syntax: wide) }
        #expect(throws: MoneyParseError.self) { try Money.parseMinorUnits("999999999999999.99", exponent: 2) }
        // The plain fast path and the general loop agree on the standard limit.
        #expect(try Money.parseMinorUnits("9999999999.99", exponent: 2) == Money.maxMinorUnits - 1)
        #expect(throws: MoneyParseError.self) { try Money.parseMinorUnits("10000000000.00", exponent: 2) }
        #expect(throws: MoneyParseError.self) { try Money.parseMinorUnits("10,000,000,000.00", exponent: 2) }
    }
}

@Suite struct ISODateStrictnessTests {
    @Test func exactIsTenCharactersWithTheGivenSeparators() {
        #expect(LocalDate(iso: "2024-02-29", .exact)?.iso == "2024-02-29")
        for text in ["2024-2-29", " 2024-02-29", "2024-02-29T10:00", "2024/02/29", "2023-02-29", "２024-02-29"] {
            #expect(LocalDate(iso: text, .exact) == nil, "\(text)")
        }
        #expect(LocalDate(iso: "2024/02/29", .exact(separators: "-/."))?.iso == "2024-02-29")
        #expect(LocalDate(iso: "2024.02.29", .exact(separators: "-/."))?.iso == "2024-02-29")
        #expect(LocalDate(iso: "2024/02.29", .exact(separators: "-/.")) == nil)
    }

    @Test func lenientIsTheISOFormatOfParse() {
        for text in ["2024-2-9", " 2024-02-09 ", "2024-02-09T10:00", "2024-02-09 10:00:00"] {
            #expect(LocalDate(iso: text, .lenient)?.iso == (try? LocalDate.parse(text, format: .iso))?.iso, "\(text)")
            #expect(LocalDate(iso: text, .lenient) != nil, "\(text)")
        }
        #expect(LocalDate(iso: "2024/02/09", .lenient) == nil)
    }
}

@Suite struct PlaidSyncScopeTests {
    @Test func scopesAreWrittenAndRecognisedInOnePlace() {
        let item = SyncUpdate(scope: SyncUpdate.plaidItemScope(itemID: "it_1"), startCursor: nil, nextCursor: "c", complete: true)
        let accounts = SyncUpdate(
            scope: SyncUpdate.plaidAccountsScope(accountIDs: ["b", "a"]), startCursor: nil, nextCursor: "c", complete: true)
        #expect(item.scope == "plaid:item:it_1" && item.isItemScope && !item.isAccountsScope)
        #expect(accounts.scope == "plaid:accounts:a,b" && accounts.isAccountsScope && !accounts.isItemScope)
    }
}
