import Foundation

/// A calendar day (proleptic Gregorian, no time zone) as Plaid's `date` fields carry it.
///
/// Kept as a day number so "90 days back" is subtraction; converted with the civil-from-days
/// algorithm (H. Hinnant) rather than `Calendar`, so no time zone can shift a day.
public struct PlaidDay: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// Days since 1970-01-01.
    public let dayNumber: Int

    public init(dayNumber: Int) { self.dayNumber = dayNumber }

    /// Parses `YYYY-MM-DD`; nil for anything else or a day that does not exist.
    public init?(iso: String) {
        let parts = iso.split(separator: "-", omittingEmptySubsequences: false)
        guard iso.utf8.count == 10, parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }),
            let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]),
            (1...12).contains(m), d >= 1, d <= Self.daysIn(month: m, year: y)
        else { return nil }
        let yy = m <= 2 ? y - 1 : y
        let era = (yy >= 0 ? yy : yy - 399) / 400
        let yoe = yy - era * 400
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        dayNumber = era * 146097 + doe - 719468
    }

    /// Today in UTC.
    public static func today(_ now: Date = Date()) -> PlaidDay {
        PlaidDay(dayNumber: Int((now.timeIntervalSince1970 / 86400).rounded(.down)))
    }

    public var iso: String {
        let z = dayNumber + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        func pad(_ v: Int, _ n: Int) -> String { String(repeating: "0", count: max(0, n - String(v).count)) + String(v) }
        return "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))"
    }

    public var description: String { iso }

    public func adding(days: Int) -> PlaidDay { PlaidDay(dayNumber: dayNumber + days) }

    public static func < (a: PlaidDay, b: PlaidDay) -> Bool { a.dayNumber < b.dayNumber }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
