import Testing

@testable import MoneyFlowCore

/// Fingerprints are stored in every store, so the byte writers that spell their dates and
/// amounts must give exactly the plain `String` forms (``LocalDate/iso``,
/// ``Money/decimalString``, `String(Int)`) for every value, not only the pinned ones
/// (`FingerprintPinTests` pins whole keys).
@Suite struct FingerprintTextTests {
    static func written(_ write: (inout [UInt8]) -> Void) -> [UInt8] {
        var buf: [UInt8] = Array("x|".utf8) // writers append after what is there
        write(&buf)
        return Array(buf.dropFirst(2))
    }

    /// Every day from 1900 to 2100 (leap days, month ends), every year's first and last day and
    /// leap day from 1 to 9999, and days beyond them (years 0 and 10000: the fallback).
    static var dates: [LocalDate] {
        let first = LocalDate(year: 1900, month: 1, day: 1)!.dayNumber
        let last = LocalDate(year: 2100, month: 12, day: 31)!.dayNumber
        var out = (first...last).map { LocalDate(dayNumber: $0) }
        for year in 1...9999 {
            out.append(LocalDate(year: year, month: 1, day: 1)!)
            out.append(LocalDate(year: year, month: 12, day: 31)!)
            if let leap = LocalDate(year: year, month: 2, day: 29) { out.append(leap) }
        }
        let one = LocalDate(year: 1, month: 1, day: 1)!, end = LocalDate(year: 9999, month: 12, day: 31)!
        for d in 1...400 { out += [one.adding(days: -d), end.adding(days: d)] }
        return out
    }

    @Test func datesAreWrittenAsISO() {
        let dates = Self.dates
        #expect(dates.count > 90_000)
        var mismatches = 0
        for date in dates where Self.written({ FingerprintText.appendISODate(date, to: &$0) }) != Array(date.iso.utf8) {
            mismatches += 1
            if mismatches <= 5 { Issue.record("day \(date.dayNumber): \(date.iso)") }
        }
        #expect(mismatches == 0)
    }

    /// Zero, small values, every power of ten and its neighbours, values of every length, and
    /// the extremes of `Int64`, each both signs.
    static var minorUnits: [Int64] {
        var out: [Int64] = [0, Int64.max, Int64.min, Int64.min + 1]
        out += (1...1_200).map(Int64.init)
        var p: Int64 = 1
        for _ in 0...18 {
            out += [p - 1, p, p + 1, p * 7 / 3, p + p / 2]
            if p <= Int64.max / 10 { p *= 10 }
        }
        var v: Int64 = 1
        while v < Int64.max / 13 { out.append(v); v = v * 13 + 5 }
        return out + out.map { $0 == Int64.min ? Int64.max : -$0 }
    }

    /// Every exponent of ``Money/exponent(for:)`` (0, 2, 3), the codes read by their bytes,
    /// lower case, unknown and odd-length codes.
    static let currencies = ["USD", "CNY", "EUR", "GBP", "HKD", "JPY", "KRW", "HUF0", "KWD", "BHD", "CHF", "XYZ", "", "US", "USDX"]

    @Test func amountsAreWrittenAsDecimalString() {
        var mismatches = 0
        for code in Self.currencies + ["usd", "kwd", "jpy", "Eur"] {
            for minor in Self.minorUnits {
                var m = Money(minorUnits: minor, currency: "USD")
                m.currency = code // as stored, lower case included
                if Self.written({ FingerprintText.appendMoney(m, to: &$0) }) != Array(m.decimalString.utf8) {
                    mismatches += 1
                    if mismatches <= 5 { Issue.record("\(minor) \(code): \(m.decimalString)") }
                }
            }
        }
        #expect(mismatches == 0)
    }

    @Test func integersAreWrittenAsString() {
        for v in Self.minorUnits {
            let written = Self.written { FingerprintText.appendDecimal(v.magnitude, negative: v < 0, to: &$0) }
            #expect(written == Array(String(v).utf8), "\(v)")
        }
    }
}
