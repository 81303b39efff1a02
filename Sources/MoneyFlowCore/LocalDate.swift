import Foundation

/// A calendar date without time or time zone (what statements print).
///
/// Held as one 32-bit day number (days since 1970-01-01): every record, stored transaction and
/// candidate the engine sees carries dates, and three `Int`s (24 bytes) inline several times per
/// candidate were a large share of a million-row import's peak memory. The engine compares and
/// subtracts day numbers, so it reads the stored value directly; `year`, `month` and `day` are
/// computed from it. It encodes as before (`{"year":…,"month":…,"day":…}`).
public struct LocalDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Days since 1970-01-01 (proleptic Gregorian). `Int32` spans ±5.8 million years, far beyond
    /// the years 1...9999 a date can be made from (and the few days' margins added to them).
    @usableFromInline let days: Int32

    /// Creates a date, or nil when the components do not name a real day.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month), day >= 1,
            day <= LocalDate.daysIn(month: month, year: year)
        else { return nil }
        days = Int32(LocalDate.daysFromCivil(year: year, month: month, day: day))
    }

    public static func isLeap(_ y: Int) -> Bool { (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 }
    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    public var year: Int { civil.year }
    public var month: Int { civil.month }
    public var day: Int { civil.day }

    /// `YYYY-MM-DD`.
    public var iso: String {
        func pad(_ v: Int, _ n: Int) -> String { let s = String(v); return String(repeating: "0", count: max(0, n - s.count)) + s }
        let c = civil
        return "\(pad(c.year, 4))-\(pad(c.month, 2))-\(pad(c.day, 2))"
    }
    public var description: String { iso }

    /// Days since 1970-01-01 (proleptic Gregorian), for date arithmetic.
    @inlinable public var dayNumber: Int { Int(days) }

    /// The date `z` days after 1970-01-01 (negative: before); `z` must fit in 32 bits.
    @inlinable public init(dayNumber z: Int) { days = Int32(z) }

    @inlinable public func adding(days n: Int) -> LocalDate { LocalDate(dayNumber: dayNumber + n) }

    @inlinable public static func < (a: LocalDate, b: LocalDate) -> Bool { a.days < b.days }

    /// Howard Hinnant's days_from_civil.
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    /// Howard Hinnant's civil_from_days: the year, month and day of the stored day number.
    var civil: (year: Int, month: Int, day: Int) {
        let z = Int(days) + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    /// How closely text must follow `YYYY-MM-DD`; every ISO date read says which it wants.
    public struct ISOStrictness: Sendable, Equatable {
        /// nil: lenient; otherwise the separators allowed (the same one in both places).
        let exactSeparators: [UInt8]?

        /// `LocalDate.parse(_:format: .iso)`: surrounding whitespace, one-digit month or day and a
        /// trailing time (`2024-01-02T13:45`) are accepted. For what a person types and for
        /// values this program wrote itself.
        public static let lenient = ISOStrictness(exactSeparators: nil)
        /// Exactly ten ASCII characters `YYYY-MM-DD`, nothing around them: for formats that
        /// specify the form (Plaid's JSON dates).
        public static let exact = ISOStrictness(exactSeparators: [UInt8(ascii: "-")])
        /// Exactly ten ASCII characters with `separators` (one of them, twice) between the
        /// fields: for printed statements that use `2024/01/02` or `2024.01.02`.
        public static func exact(separators: String) -> ISOStrictness {
            ISOStrictness(exactSeparators: Array(separators.utf8))
        }
    }

    /// Parses an ISO `YYYY-MM-DD` date as `strictness` says; nil when `text` is not one or the
    /// day does not exist.
    public init?(iso text: some StringProtocol, _ strictness: ISOStrictness) {
        guard let separators = strictness.exactSeparators else {
            guard let d = try? LocalDate.parse(String(text), format: .iso) else { return nil }
            self = d
            return
        }
        // The bytes in place when the text has them contiguous (a String does): this generic
        // initialiser is not specialised across modules, and importers read a date per row.
        let read = text.utf8.withContiguousStorageIfAvailable { LocalDate.exactISO($0, separators: separators) }
        guard let date = read ?? LocalDate.exactISO(text.utf8, separators: separators) else { return nil }
        self = date
    }

    /// `YYYY?MM?DD` in exactly ten bytes, `?` one of `separators` (the same twice), in one pass
    /// with nothing allocated; nil for any other bytes or a day that does not exist.
    private static func exactISO(_ bytes: some Sequence<UInt8>, separators: [UInt8]) -> LocalDate? {
        var y = 0, m = 0, d = 0, n = 0
        var separator: UInt8 = 0
        for b in bytes {
            switch n {
            case 4:
                guard separators.contains(b) else { return nil }
                separator = b
            case 7:
                guard b == separator else { return nil }
            case 0..<10:
                guard b >= 0x30 && b <= 0x39 else { return nil }
                let v = Int(b - 0x30)
                if n < 4 { y = y * 10 + v } else if n < 7 { m = m * 10 + v } else { d = d * 10 + v }
            default:
                return nil
            }
            n += 1
        }
        guard n == 10 else { return nil }
        return LocalDate(year: y, month: m, day: d)
    }

    /// Date layouts found in bank exports (the raw value is how a profile's `date_format` names it).
    ///
    /// The separator is part of the format: `MM/DD/YYYY` does not read `08-10/2025`. Day and
    /// month may have one or two digits; four-digit-year formats need four digits and `YY`
    /// formats two (pivot: `00`–`69` are 2000–2069, `70`–`99` are 1970–1999, as POSIX `%y`).
    public enum Format: String, Sendable, CaseIterable, Codable {
        case iso = "YYYY-MM-DD"
        case isoSlash = "YYYY/MM/DD"
        case compact = "YYYYMMDD"
        case monthDayYear = "MM/DD/YYYY"
        case monthDayYearDash = "MM-DD-YYYY"
        case monthDayYearShort = "MM/DD/YY"
        case dayMonthYearSlash = "DD/MM/YYYY"
        case dayMonthYear = "DD.MM.YYYY"
        case dayMonthYearDash = "DD-MM-YYYY"
        case dayMonthYearShort = "DD/MM/YY"

        /// Reads a `date_format` value (case-insensitive).
        public init?(name: String) {
            self.init(rawValue: name.trimmed(.whitespaces).uppercased())
        }

        /// Every accepted `date_format` value, for error messages.
        public static var validNames: String { allCases.map(\.rawValue).joined(separator: ", ") }

        /// Component order, separator, year digits.
        public var layout: (order: Order, separator: Character?, yearDigits: Int) {
            switch self {
            case .iso: return (.ymd, "-", 4)
            case .isoSlash: return (.ymd, "/", 4)
            case .compact: return (.ymd, nil, 4)
            case .monthDayYear: return (.mdy, "/", 4)
            case .monthDayYearDash: return (.mdy, "-", 4)
            case .monthDayYearShort: return (.mdy, "/", 2)
            case .dayMonthYearSlash: return (.dmy, "/", 4)
            case .dayMonthYear: return (.dmy, ".", 4)
            case .dayMonthYearDash: return (.dmy, "-", 4)
            case .dayMonthYearShort: return (.dmy, "/", 2)
            }
        }

        public enum Order: Sendable { case ymd, mdy, dmy }

        /// ``layout``'s separator as a byte, without a Character (asked for every date of a file).
        var separatorByte: UInt8? {
            switch self {
            case .iso, .monthDayYearDash, .dayMonthYearDash: return UInt8(ascii: "-")
            case .isoSlash, .monthDayYear, .monthDayYearShort, .dayMonthYearSlash, .dayMonthYearShort: return UInt8(ascii: "/")
            case .dayMonthYear: return UInt8(ascii: ".")
            case .compact: return nil
            }
        }

        /// The format with this component order, separator and year length, if one exists.
        public static func matching(order: Order, separator: Character?, yearDigits: Int) -> Format? {
            allCases.first { $0.layout.order == order && $0.layout.separator == separator && $0.layout.yearDigits == yearDigits }
        }
    }

    /// Two-digit year pivot (POSIX `%y`): `00`–`69` → 2000–2069, `70`–`99` → 1970–1999.
    public static func expandTwoDigitYear(_ yy: Int) -> Int { yy < 70 ? 2000 + yy : 1900 + yy }

    /// Parses text in the given format; a trailing time (`2024-01-02 13:45:00`, `T...`) is ignored.
    public static func parse(_ raw: String, format: Format) throws(DateParseError) -> LocalDate {
        if let date = parseASCII(raw, format: format) { return date }
        return try parseGeneral(raw, format: format)
    }

    /// ``parse(_:format:)`` of any text, Character by Character.
    static func parseGeneral(_ raw: String, format: Format) throws(DateParseError) -> LocalDate {
        var text = raw.trimmed(.whitespacesAndNewlines)
        if let cut = text.firstIndex(where: { $0 == " " || $0 == "T" }), format != .compact || text.count > 8 {
            text = String(text[..<cut])
        }
        func fail(_ why: String) -> DateParseError { DateParseError(text: raw, format: format, reason: why) }
        let layout = format.layout
        let parts: [Int]
        if let sep = layout.separator {
            let fields = text.split(separator: sep, omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 3 else { throw fail("expected three numbers separated by '\(sep)'") }
            guard fields.allSatisfy({ !$0.isEmpty && $0.count <= 4 && $0.allSatisfy { $0.isASCII && $0.isNumber } }) else {
                throw fail("expected three numbers separated by '\(sep)'")
            }
            let n = fields.map { Int($0)! }
            let yearIndex = layout.order == .ymd ? 0 : 2
            guard fields[yearIndex].count == layout.yearDigits else { throw fail("year must have \(layout.yearDigits) digits") }
            let year = layout.yearDigits == 2 ? expandTwoDigitYear(n[yearIndex]) : n[yearIndex]
            let others = [0, 1, 2].filter { $0 != yearIndex }
            guard others.allSatisfy({ fields[$0].count <= 2 }) else { throw fail("day and month have one or two digits") }
            switch layout.order {
            case .ymd: parts = [year, n[1], n[2]]
            case .mdy: parts = [year, n[0], n[1]]
            case .dmy: parts = [year, n[1], n[0]]
            }
        } else {
            guard text.count == 8, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { throw fail("expected 8 digits") }
            let v = Int(text)!
            parts = [v / 10000, (v / 100) % 100, v % 100]
        }
        guard let date = LocalDate(year: parts[0], month: parts[1], day: parts[2]) else { throw fail("no such day") }
        return date
    }
}

extension LocalDate {
    /// ``parse(_:format:)`` of a date in a separated format written in ASCII, read from its bytes
    /// (an import parses every row's date): nil for anything else or anything wrong, which the
    /// general reading then answers, with its error.
    static func parseASCII(_ raw: String, format: Format) -> LocalDate? {
        // Read from the text's bytes: iterating `utf8` cost about 80 instructions a byte.
        var raw = raw
        return raw.withUTF8 { parseASCII(utf8: $0, format: format) }
    }

    private static func parseASCII(utf8 raw: UnsafeBufferPointer<UInt8>, format: Format) -> LocalDate? {
        let layout = format.layout
        guard let sep = format.separatorByte else { return nil }
        // Numbers and digit counts in fixed slots (arrays here were most of a bank file's dates).
        var n = (0, 0, 0), d = (0, 0, 0), k = 0
        var started = false, trailing = false
        for b in raw {
            let blank = b == 0x20 || (b >= 0x09 && b <= 0x0D)
            if trailing { if blank { continue } else { return nil } }
            if !started && blank { continue }
            started = true
            if b == 0x20 || b == 0x54 { break } // " " or "T": a time follows
            if blank { trailing = true; continue }
            if b >= 0x30 && b <= 0x39 {
                let v = Int(b - 0x30)
                switch k {
                case 0: guard d.0 < 4 else { return nil }; n.0 = n.0 * 10 + v; d.0 += 1
                case 1: guard d.1 < 4 else { return nil }; n.1 = n.1 * 10 + v; d.1 += 1
                default: guard d.2 < 4 else { return nil }; n.2 = n.2 * 10 + v; d.2 += 1
                }
            } else if b == sep && k < 2 {
                k += 1
            } else {
                return nil
            }
        }
        let yearFirst = layout.order == .ymd
        guard k == 2, d.0 >= 1, d.1 >= 1, d.2 >= 1, (yearFirst ? d.0 : d.2) == layout.yearDigits else { return nil }
        guard yearFirst || d.0 <= 2, d.1 <= 2, !yearFirst || d.2 <= 2 else { return nil }
        let yearNumber = yearFirst ? n.0 : n.2
        let year = layout.yearDigits == 2 ? expandTwoDigitYear(yearNumber) : yearNumber
        switch layout.order {
        case .ymd: return LocalDate(year: year, month: n.1, day: n.2)
        case .mdy: return LocalDate(year: year, month: n.0, day: n.1)
        case .dmy: return LocalDate(year: year, month: n.1, day: n.0)
        }
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
