import Testing

@testable import MoneyFlowCore

/// The fast path of ``Money/parseMinorUnits(_:exponent:syntax:)`` (plain ASCII amounts, `,`
/// groups included: every amount of a CMB statement) reads what the general loop reads, and
/// leaves every text it is not sure of to that loop.
@Suite struct AmountFastPathTests {
    /// The fast path's value in signed minor units, nil when it leaves the text to the loop.
    static func fast(_ text: String, _ grouping: AmountSyntax.Grouping) -> Int64? {
        Money.plainMinorUnits(text, exponent: 2, grouping: grouping).map { $0.negative ? -Int64($0.magnitude) : Int64($0.magnitude) }
    }

    @Test func groupedAmountsTakeTheFastPath() {
        let strict = AmountSyntax.Grouping.threeDigitGroups, loose = AmountSyntax.Grouping.anywhereAfterADigit
        #expect(Self.fast("1,234.56", strict) == 123_456)
        #expect(Self.fast("-12,345,678.9", strict) == -1_234_567_890)
        #expect(Self.fast("1,2345.00", loose) == 1_234_500)
        #expect(Self.fast("1,,2", loose) == 1_200)
        #expect(Self.fast("1,", loose) == 100)
        #expect(Self.fast("1,.5", loose) == 150)
        // Left to the general loop: misplaced groups, a group before any digit, a separator in
        // the fraction, more fraction digits than the currency has, other characters.
        for text in ["1,2345.00", "12,34", "1234,567", "1,234,56", "1,23.4", "1,", ",5", "-,5"] {
            #expect(Self.fast(text, strict) == nil, "\(text)")
        }
        for text in [",5", "-,5", "1.2,3", "1.234", " 1,234", "+1,234", "1 234", "1,234-", "１,234"] {
            #expect(Self.fast(text, loose) == nil, "\(text)")
        }
    }

    @Test func bothPathsReadTheSameValuesAndRefuseTheSameTexts() throws {
        let strict = AmountSyntax(), loose = AmountSyntax(grouping: .anywhereAfterADigit)
        let wide = AmountSyntax(grouping: .anywhereAfterADigit, limit: .wholeUnits(900_000_000_000_010))
        let read: [(String, AmountSyntax, Int64)] = [
            ("1,234.56", strict, 123_456), ("1,234.", strict, 123_400), ("-0.01", strict, -1),
            ("1,2345.00", loose, 1_234_500), ("1,,2", loose, 1_200), ("12,34", loose, 123_400), ("1,.5", loose, 150),
            ("1,234.560", strict, 123_456), ("123,456,789,012,345.67", wide, 12_345_678_901_234_567),
        ]
        for (text, syntax, minor) in read {
            #expect(try Money.parseMinorUnits(text, exponent: 2, syntax: syntax) == minor, "\(text)")
        }
        for (text, syntax) in [("999,999.999", strict), ("12,34", strict), ("10,000,000,000.00", strict), ("1,000,000,000,000,000", wide)] {
            #expect(throws: MoneyParseError.self, "\(text)") { try Money.parseMinorUnits(text, exponent: 2, syntax: syntax) }
        }
        // The same error, whichever path found it.
        let fast = #expect(throws: MoneyParseError.self) { try Money.parseMinorUnits("10,000,000,000.00", exponent: 2) }
        let general = #expect(throws: MoneyParseError.self) { try Money.parseMinorUnits(" 10,000,000,000.00", exponent: 2) }
        #expect(fast?.reason == general?.reason)
    }

    /// An amount read from a cell's bytes (no String of its own) is what the String reading
    /// gives: the same value, or the same error.
    @Test func bytesReadAsTheirString() {
        let strict = AmountSyntax(), loose = AmountSyntax(grouping: .anywhereAfterADigit), comma = AmountSyntax(decimalSeparator: ",")
        let wide = AmountSyntax(grouping: .anywhereAfterADigit, limit: .wholeUnits(900_000_000_000_010))
        let texts = [
            "-9.99", "24990.01", "1,234.56", "1,2345.00", "12,34", "(5.00)", "$3", "5.00-", " 1.00 ", "1,23.4", "", "x",
            "10,000,000,000.00", "999999999999999.99", "123,456,789,012,345.67", "1.234,56", "１,234", "0.001",
        ]
        for syntax in [strict, loose, comma, wide] {
            for exponent in [0, 2, 3] {
                for text in texts {
                    var bytes = text
                    let fromBytes = bytes.withUTF8 { b in Result { () throws(MoneyParseError) in try Money.parseMinorUnits(utf8: b, exponent: exponent, syntax: syntax) } }
                    let fromString = Result { () throws(MoneyParseError) in try Money.parseMinorUnits(text, exponent: exponent, syntax: syntax) }
                    #expect(fromBytes == fromString, "\(text) \(exponent) \(syntax)")
                }
            }
        }
    }
}
