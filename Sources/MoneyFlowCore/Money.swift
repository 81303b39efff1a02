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
        self.currency = currency.uppercased()
    }

    /// Number of digits after the decimal point for `currency` (ISO 4217 exponent).
    public static func exponent(for currency: String) -> Int {
        switch currency.uppercased() {
        case "JPY", "KRW", "VND", "CLP", "ISK", "PYG", "UGX", "XAF", "XOF", "HUF0": return 0
        case "BHD", "KWD", "OMR", "JOD", "TND", "LYD", "IQD": return 3
        default: return 2
        }
    }

    public var exponent: Int { Money.exponent(for: currency) }

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
        var s = Substring(text.trimmed(.whitespacesAndNewlines))
        guard !s.isEmpty else { throw MoneyParseError(text: text, reason: "empty amount") }
        var negative = false
        if s.hasPrefix("(") && s.hasSuffix(")") {
            negative = true
            s = s.dropFirst().dropLast()
            s = Substring(s.trimmed(.whitespaces))
        }
        if s.hasSuffix("-") && !s.hasPrefix("-") { negative.toggle(); s = s.dropLast() } // trailing minus (some banks)
        if s.hasPrefix("-") || s.hasPrefix("−") { negative.toggle(); s = s.dropFirst() }
        else if s.hasPrefix("+") { s = s.dropFirst() }
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
        let tooLarge = MoneyParseError(text: text, reason: "amount too large (the limit is \(format(minorUnits: maxMinorUnits - 1, exponent: exponent)), i.e. 10^12 minor units)")
        func misplaced() -> MoneyParseError {
            MoneyParseError(text: text, reason: "misplaced grouping separator (groups of three digits expected, e.g. 1,234,567\(decimalSeparator)89)")
        }
        for ch in s {
            if ch == decimalSeparator {
                if inFraction { throw MoneyParseError(text: text, reason: "two decimal separators") }
                if groupSeparator != nil && digitsInGroup != 3 { throw misplaced() }
                inFraction = true
                continue
            }
            if groupSeparators.contains(ch) {
                if inFraction { throw MoneyParseError(text: text, reason: "separator in the fraction") }
                if groupSeparator == nil {
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
                if o1 || o2 || a >= UInt64(maxMinorUnits) { throw tooLarge }
                whole = a
            }
        }
        guard sawDigit else { throw MoneyParseError(text: text, reason: "no digits") }
        if !inFraction && groupSeparator != nil && digitsInGroup != 3 { throw misplaced() }
        let usedFraction = min(fractionDigits, exponent)
        for _ in usedFraction..<exponent { fraction *= 10 }
        var scale: UInt64 = 1
        for _ in 0..<exponent { scale *= 10 }
        let (scaled, o1) = whole.multipliedReportingOverflow(by: scale)
        let (total, o2) = scaled.addingReportingOverflow(fraction)
        if o1 || o2 || total >= UInt64(maxMinorUnits) { throw tooLarge }
        return negative ? -Int64(total) : Int64(total)
    }
}

/// Why a piece of text is not an amount of money.
public struct MoneyParseError: Error, Sendable, Equatable, CustomStringConvertible {
    public var text: String
    public var reason: String
    public var description: String { "invalid amount '\(text.prefix(40))': \(reason)" }
}
