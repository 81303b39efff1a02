import Foundation

/// A calendar date without time or time zone (what statements print).
public struct LocalDate: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// Creates a date, or nil when the components do not name a real day.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month), day >= 1,
              day <= LocalDate.daysIn(month: month, year: year) else { return nil }
        self.year = year; self.month = month; self.day = day
    }

    public static func isLeap(_ y: Int) -> Bool { (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 }
    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// `YYYY-MM-DD`.
    public var iso: String {
        func pad(_ v: Int, _ n: Int) -> String { let s = String(v); return String(repeating: "0", count: max(0, n - s.count)) + s }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }
    public var description: String { iso }

    /// Days since 1970-01-01 (proleptic Gregorian), for date arithmetic.
    public var dayNumber: Int {
        // Howard Hinnant's days_from_civil.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    public init(dayNumber z0: Int) {
        let z = z0 + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        self.year = yoe + era * 400 + (m <= 2 ? 1 : 0)
        self.month = m
        self.day = d
    }

    public func adding(days: Int) -> LocalDate { LocalDate(dayNumber: dayNumber + days) }

    public static func < (a: LocalDate, b: LocalDate) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }

    /// Parses `YYYY-MM-DD` strictly.
    public init?(iso text: some StringProtocol) {
        guard let d = try? LocalDate.parse(String(text), format: .iso) else { return nil }
        self = d
    }

    /// Date layouts found in bank exports.
    public enum Format: String, Sendable, CaseIterable, Codable {
        /// `YYYY-MM-DD` (also `YYYY/MM/DD`, `YYYY.MM.DD`)
        case iso = "YYYY-MM-DD"
        /// `MM/DD/YYYY` (US; also `M/D/YY`)
        case monthDayYear = "MM/DD/YYYY"
        /// `DD.MM.YYYY` (also `DD/MM/YYYY`)
        case dayMonthYear = "DD.MM.YYYY"
        /// `YYYYMMDD`
        case compact = "YYYYMMDD"
    }

    /// Parses text in the given format; a trailing time (`2024-01-02 13:45:00`, `T...`) is ignored.
    public static func parse(_ raw: String, format: Format) throws(DateParseError) -> LocalDate {
        var text = raw.trimmed(.whitespacesAndNewlines)
        if let cut = text.firstIndex(where: { $0 == " " || $0 == "T" }), format != .compact || text.count > 8 {
            text = String(text[..<cut])
        }
        func fail(_ why: String) -> DateParseError { DateParseError(text: raw, format: format, reason: why) }
        let parts: [Int]
        switch format {
        case .compact:
            guard text.count == 8, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { throw fail("expected 8 digits") }
            let v = Int(text)!
            parts = [v / 10000, (v / 100) % 100, v % 100]
        default:
            let seps: Set<Character> = ["-", "/", "."]
            let fields = text.split(whereSeparator: { seps.contains($0) }).map(String.init)
            guard fields.count == 3, fields.allSatisfy({ !$0.isEmpty && $0.count <= 4 && $0.allSatisfy { $0.isASCII && $0.isNumber } }) else {
                throw fail("expected three numeric fields")
            }
            let n = fields.map { Int($0)! }
            switch format {
            case .iso:
                guard fields[0].count == 4 else { throw fail("year must have 4 digits") }
                parts = n
            case .monthDayYear:
                guard fields[2].count == 4 || fields[2].count == 2 else { throw fail("bad year") }
                parts = [fields[2].count == 2 ? 2000 + n[2] : n[2], n[0], n[1]]
            case .dayMonthYear:
                guard fields[2].count == 4 || fields[2].count == 2 else { throw fail("bad year") }
                parts = [fields[2].count == 2 ? 2000 + n[2] : n[2], n[1], n[0]]
            case .compact: fatalError("unreachable")
            }
        }
        guard let date = LocalDate(year: parts[0], month: parts[1], day: parts[2]) else { throw fail("no such day") }
        return date
    }

    /// Guesses the format that reads every sample; nil when none or several disagree irreconcilably.
    public static func detectFormat(_ samples: [String]) -> Format? {
        let candidates: [Format] = [.iso, .compact, .monthDayYear, .dayMonthYear]
        let nonEmpty = samples.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        guard !nonEmpty.isEmpty else { return nil }
        return candidates.first { f in nonEmpty.allSatisfy { (try? parse($0, format: f)) != nil } }
    }
}

/// Why text is not a date in the expected format.
public struct DateParseError: Error, Sendable, Equatable, CustomStringConvertible {
    public init(text: String, format: LocalDate.Format, reason: String) { self.text = text; self.format = format; self.reason = reason }
    public var text: String
    public var format: LocalDate.Format
    public var reason: String
    public var description: String { "invalid date '\(text.prefix(40))' (expected \(format.rawValue)): \(reason)" }
}
