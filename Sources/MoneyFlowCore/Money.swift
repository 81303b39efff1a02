import Foundation

/// An exact amount of money: integer minor units plus an ISO 4217 currency code.
///
/// Never built from a `Double`: parse it from decimal text with ``Money/parse(_:currency:)``
/// and print it with ``decimalString``. Negative means money out of the account.
public struct Money: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    /// Amount in the currency's minor units (cents, fen, ...).
    public var minorUnits: Int64
    /// ISO 4217 code, upper case (`CNY`, `USD`).
    public var currency: String

    public init(minorUnits: Int64, currency: String) {
        self.minorUnits = minorUnits
        // Codes are almost always upper-case ASCII already (`uppercased()` of them is the same
        // text): only other texts pay for the copy (two amounts a row of an import).
        self.currency = Self.isUpperASCII(currency) ? currency : currency.uppercased()
    }

    /// Number of digits after the decimal point for `currency` (ISO 4217 exponent).
    public static func exponent(for currency: String) -> Int {
        // Codes are almost always upper-case ASCII already, which `uppercased()` returns
        // unchanged: only other texts pay for the copy.
        let code = isUpperASCII(currency) ? currency : currency.uppercased()
        switch code {
        case "JPY", "KRW", "VND", "CLP", "ISK", "PYG", "UGX", "XAF", "XOF", "HUF0": return 0
        case "BHD", "KWD", "OMR", "JOD", "TND", "LYD", "IQD": return 3
        default: return 2
        }
    }

    public var exponent: Int { Money.exponent(for: currency) }

    /// True when `text` is ASCII without lower-case letters: its `uppercased()` is itself.
    static func isUpperASCII(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { $0.allSatisfy { $0 < 0x80 && !($0 >= 0x61 && $0 <= 0x7A) } }
    }

    /// Decimal text with exactly `exponent` fraction digits, `-` for negatives, no grouping.
    public var decimalString: String { Money.format(minorUnits: minorUnits, exponent: exponent) }

    public var description: String { "\(decimalString) \(currency)" }

    public static func < (lhs: Money, rhs: Money) -> Bool {
        precondition(lhs.currency == rhs.currency, "comparing \(lhs.currency) with \(rhs.currency)")
        return lhs.minorUnits < rhs.minorUnits
    }

    public static func format(minorUnits: Int64, exponent: Int) -> String {
        let negative = minorUnits < 0
        let magnitude = minorUnits.magnitude
        if exponent == 0 { return (negative ? "-" : "") + String(magnitude) }
        var divisor: UInt64 = 1
        for _ in 0..<exponent { divisor *= 10 }
        let whole = magnitude / divisor
        var fraction = String(magnitude % divisor)
        while fraction.count < exponent { fraction = "0" + fraction }
        return (negative ? "-" : "") + "\(whole).\(fraction)"
    }

    /// Parses decimal text such as `1,234.56`, `-5.00`, `(12.00)`, `+3`, `¥1 000,5`-free forms.
    ///
    /// Accepts an optional sign, parentheses for negatives, thousands separators (`,`, `'`, thin
    /// or plain spaces) and at most `exponent` fraction digits (extra digits must be zeros).
    /// `decimalSeparator` lets European exports (`1.234,56`) be read exactly.
    public static func parse(_ text: String, currency: String, decimalSeparator: Character = ".") throws(MoneyParseError) -> Money {
        let minor = try parseMinorUnits(text, exponent: exponent(for: currency), decimalSeparator: decimalSeparator)
        return Money(minorUnits: minor, currency: currency)
    }

    static let groupSeparatorsWithDecimalPoint: Set<Character> = [",", "'", " ", "\u{202F}", "\u{00A0}"]
    static let groupSeparatorsWithDecimalComma: Set<Character> = [".", "'", " ", "\u{202F}", "\u{00A0}"]

    /// Largest magnitude accepted from any source, in minor units (exclusive): 10^12, i.e.
    /// 9,999,999,999.99 in a two-decimal currency.
    ///
    /// Why this number: every balance, total and export sums amounts in `Int64`
    /// (max ≈ 9.22 × 10^18). With each value below 10^12, a sum over 9.2 million values can never
    /// overflow, so a ledger of millions of rows (2 M-row CSV imports are tested) stays exact
    /// without checked arithmetic at every site. No personal account moves ten billion in one row;
    /// a value that large is a damaged or hostile file, refused at parse.
    public static let maxMinorUnits: Int64 = 1_000_000_000_000

    /// Parses decimal text into minor units with a given exponent. See ``parse(_:currency:decimalSeparator:)``.
    ///
    /// Grouping separators must sit where grouping puts them: 1–3 digits, then groups of exactly
    /// three (`1,234,567.89`), one kind of separator per number. `12,34.5` or `1,2345.00` is a
    /// typo or a misread column, never silently read as 1234.50.
    public static func parseMinorUnits(_ text: String, exponent: Int, decimalSeparator: Character = ".") throws(MoneyParseError) -> Int64 {
        try parseMinorUnits(text, exponent: exponent, syntax: AmountSyntax(decimalSeparator: decimalSeparator))
    }

    /// The one amount parser: ``parseMinorUnits(_:exponent:decimalSeparator:)`` with the
    /// differences a source legitimately has (grouping rules, magnitude limit) made explicit.
    public static func parseMinorUnits(_ text: String, exponent: Int, syntax: AmountSyntax) throws(MoneyParseError) -> Int64 {
        let decimalSeparator = syntax.decimalSeparator
        let limit = magnitudeLimit(syntax, exponent: exponent)
        // Built only when thrown: spelling the limit for every amount cost as much as parsing it.
        func tooLarge() -> MoneyParseError {
            MoneyParseError(
                text: text,
                reason:
                    "amount too large (the limit is \(format(minorUnits: maxMinorUnits - 1, exponent: exponent)), i.e. 10^12 minor units)")
        }
        if decimalSeparator == ".", let plain = plainMinorUnits(text, exponent: exponent, grouping: syntax.grouping) {
            // Most amounts (`-1234.56`, `1,234.56`): same result as the general loop below, without it.
            guard plain.magnitude < limit else { throw tooLarge() }
            return plain.negative ? -Int64(plain.magnitude) : Int64(plain.magnitude)
        }
        let strictGroups = syntax.grouping == .threeDigitGroups
        var s = Substring(text.trimmed(.whitespacesAndNewlines))
        guard !s.isEmpty else { throw MoneyParseError(text: text, reason: "empty amount") }
        var negative = false
        if s.hasPrefix("(") && s.hasSuffix(")") {
            negative = true
            s = s.dropFirst().dropLast()
            s = Substring(s.trimmed(.whitespaces))
        }
        if s.hasSuffix("-") && !s.hasPrefix("-") { negative.toggle(); s = s.dropLast() } // trailing minus (some banks)
        if s.hasPrefix("-") || s.hasPrefix("−") { negative.toggle(); s = s.dropFirst() } else if s.hasPrefix("+") { s = s.dropFirst() }
        s = Substring(s.trimmed(.whitespaces))
        // Currency symbols sometimes precede the number.
        while let first = s.first, "$¥￥€£".contains(first) { s = s.dropFirst() }
        if s.hasPrefix("-") { negative.toggle(); s = s.dropFirst() }
        let groupSeparators = decimalSeparator == "." ? Self.groupSeparatorsWithDecimalPoint : Self.groupSeparatorsWithDecimalComma
        var whole: UInt64 = 0
        var fraction: UInt64 = 0
        var fractionDigits = 0
        var sawDigit = false
        var inFraction = false
        var groupSeparator: Character?
        var digitsInGroup = 0
        func misplaced() -> MoneyParseError {
            MoneyParseError(
                text: text, reason: "misplaced grouping separator (groups of three digits expected, e.g. 1,234,567\(decimalSeparator)89)")
        }
        for ch in s {
            if ch == decimalSeparator {
                if inFraction { throw MoneyParseError(text: text, reason: "two decimal separators") }
                if strictGroups && groupSeparator != nil && digitsInGroup != 3 { throw misplaced() }
                inFraction = true
                continue
            }
            if groupSeparators.contains(ch) {
                if inFraction { throw MoneyParseError(text: text, reason: "separator in the fraction") }
                if !strictGroups {
                    guard sawDigit else { throw misplaced() }
                } else if groupSeparator == nil {
                    guard (1...3).contains(digitsInGroup) else { throw misplaced() }
                    groupSeparator = ch
                } else {
                    guard ch == groupSeparator, digitsInGroup == 3 else { throw misplaced() }
                }
                digitsInGroup = 0
                continue
            }
            guard let d = ch.wholeNumberValue, ch.isASCII else {
                throw MoneyParseError(text: text, reason: "unexpected character '\(ch)'")
            }
            sawDigit = true
            if inFraction {
                fractionDigits += 1
                if fractionDigits > exponent {
                    if d != 0 { throw MoneyParseError(text: text, reason: "more than \(exponent) decimal places") }
                    continue
                }
                fraction = fraction * 10 + UInt64(d)
            } else {
                digitsInGroup += 1
                let (m, o1) = whole.multipliedReportingOverflow(by: 10)
                let (a, o2) = m.addingReportingOverflow(UInt64(d))
                if o1 || o2 || a >= limit { throw tooLarge() }
                whole = a
            }
        }
        guard sawDigit else { throw MoneyParseError(text: text, reason: "no digits") }
        if strictGroups && !inFraction && groupSeparator != nil && digitsInGroup != 3 { throw misplaced() }
        let usedFraction = min(fractionDigits, exponent)
        for _ in usedFraction..<exponent { fraction *= 10 }
        var scale: UInt64 = 1
        for _ in 0..<exponent { scale *= 10 }
        let (scaled, o1) = whole.multipliedReportingOverflow(by: scale)
        let (total, o2) = scaled.addingReportingOverflow(fraction)
        if o1 || o2 || total >= limit { throw tooLarge() }
        return negative ? -Int64(total) : Int64(total)
    }

    /// ``parseMinorUnits(_:exponent:syntax:)`` of the text whose valid UTF-8 is `utf8` (a cell
    /// read in place from a file's bytes): plain amounts are read from the bytes, without a String
    /// of their own; any other text (and every error) goes through the String reading.
    public static func parseMinorUnits(utf8 text: UnsafeBufferPointer<UInt8>, exponent: Int, syntax: AmountSyntax) throws(MoneyParseError)
        -> Int64
    {
        if syntax.decimalSeparator == ".", let plain = plainMinorUnits(utf8: text, exponent: exponent, grouping: syntax.grouping),
            plain.magnitude < magnitudeLimit(syntax, exponent: exponent)
        {
            return plain.negative ? -Int64(plain.magnitude) : Int64(plain.magnitude)
        }
        return try parseMinorUnits(String(decoding: text, as: UTF8.self), exponent: exponent, syntax: syntax)
    }

    /// The magnitude (exclusive, in minor units) `syntax` accepts.
    private static func magnitudeLimit(_ syntax: AmountSyntax, exponent: Int) -> UInt64 {
        switch syntax.limit {
        case .standard: return UInt64(maxMinorUnits)
        case .wholeUnits(let w):
            var scale: UInt64 = 1
            for _ in 0..<exponent { scale *= 10 }
            return w.multipliedReportingOverflow(by: scale).overflow ? UInt64(Int64.max) : w * scale
        }
    }

    /// `-?d{1,15}(.d{0,exponent})?` in minor units (magnitude unchecked), with `,` groups where
    /// `grouping` puts them (the rules of the general loop of ``parseMinorUnits(_:exponent:syntax:)``,
    /// which decides every other text: this returns nil for it). Internal for the tests that hold the
    /// two to the same results.
    static func plainMinorUnits(
        _ text: String, exponent: Int, grouping: AmountSyntax.Grouping
    ) -> (negative: Bool, magnitude: UInt64)? {
        // Read from the text's bytes: iterating `utf8` cost about 80 instructions a byte.
        var text = text
        return text.withUTF8 { plainMinorUnits(utf8: $0, exponent: exponent, grouping: grouping) }
    }

    private static func plainMinorUnits(
        utf8 text: UnsafeBufferPointer<UInt8>, exponent: Int, grouping: AmountSyntax.Grouping
    ) -> (negative: Bool, magnitude: UInt64)? {
        var whole: UInt64 = 0, fraction: UInt64 = 0
        var wholeDigits = 0, fractionDigits = 0
        var negative = false, inFraction = false
        let strictGroups = grouping == .threeDigitGroups
        var grouped = false
        var digitsInGroup = 0
        // A counted index, not `enumerated()`: its iterator was most of the cost of a bank file's amounts.
        var k = -1
        for c in text {
            k += 1
            switch c {
            case UInt8(ascii: "-") where k == 0: negative = true
            case UInt8(ascii: "."):
                if inFraction { return nil }
                if strictGroups && grouped && digitsInGroup != 3 { return nil }
                inFraction = true
            case UInt8(ascii: ","):
                if inFraction || wholeDigits == 0 { return nil }
                if strictGroups && (grouped ? digitsInGroup != 3 : digitsInGroup > 3) { return nil }
                grouped = true
                digitsInGroup = 0
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                let d = UInt64(c - 0x30)
                if inFraction {
                    fractionDigits += 1
                    if fractionDigits > exponent { return nil }
                    fraction = fraction * 10 + d
                } else {
                    wholeDigits += 1
                    digitsInGroup += 1
                    if wholeDigits > 15 { return nil }
                    whole = whole * 10 + d
                }
            default: return nil
            }
        }
        guard wholeDigits > 0 else { return nil }
        if strictGroups && !inFraction && grouped && digitsInGroup != 3 { return nil }
        for _ in fractionDigits..<exponent { fraction *= 10 }
        var scale: UInt64 = 1
        for _ in 0..<exponent { scale *= 10 }
        return (negative, whole * scale + fraction)
    }
}

/// How a source writes amounts, where sources legitimately differ. The default is what a
/// person types or a bank exports as text (see ``Money/parseMinorUnits(_:exponent:decimalSeparator:)``).
public struct AmountSyntax: Sendable, Equatable {
    public enum Grouping: Sendable, Equatable {
        /// 1–3 digits, then groups of exactly three, one kind of separator (`1,234,567.89`).
        case threeDigitGroups
        /// A separator anywhere after the first whole digit (`1,2345.00` reads 12345.00): only for
        /// sources whose layout already proved the text is a printed amount.
        case anywhereAfterADigit
    }

    /// Largest magnitude accepted (exclusive).
    public enum Limit: Sendable, Equatable {
        /// ``Money/maxMinorUnits``.
        case standard
        /// This many whole units (times 10^exponent in minor units).
        case wholeUnits(UInt64)
    }

    public var decimalSeparator: Character
    public var grouping: Grouping
    public var limit: Limit

    public init(decimalSeparator: Character = ".", grouping: Grouping = .threeDigitGroups, limit: Limit = .standard) {
        self.decimalSeparator = decimalSeparator
        self.grouping = grouping
        self.limit = limit
    }
}

/// Why a piece of text is not an amount of money.
public struct MoneyParseError: Error, Sendable, Equatable, CustomStringConvertible {
    public var text: String
    public var reason: String
    public var description: String { "invalid amount '\(text.prefix(40))': \(reason)" }
}
