import MoneyFlowCore

/// Decides one date format for a whole CSV file from ALL its date cells.
///
/// Why the whole file: `04/03/2024` is April 3 or 4 March; only a row with a day above 12 says
/// which, and that row may be the last. A format read from a few rows would silently swap day
/// and month for the rest. Rules:
/// - every cell must be written the same way (same separators, year in the same place with the
///   same number of digits): `08-10/2025` among `MM/DD/YYYY` is refused, naming its line;
/// - a first component above 12 proves DD/MM, a second above 12 proves MM/DD; both in one file
///   is a contradiction (the later line is named);
/// - a file that never proves either is ambiguous: the user must set `date_format`.
enum CSVDateInference {
    struct Cell {
        var line: Int
        var text: String
    }

    /// How a date cell is written, ignoring the digits' values.
    struct Shape: Equatable {
        /// `-` `/` or `.`; nil for `YYYYMMDD`.
        var separator: Unicode.Scalar?
        var yearFirst: Bool
        var yearDigits: Int
        var numbers: Numbers

        var pattern: String {
            guard let separator else { return "YYYYMMDD" }
            let y = String(repeating: "Y", count: yearDigits)
            return yearFirst ? "\(y)\(separator)NN\(separator)NN" : "NN\(separator)NN\(separator)\(y)"
        }
    }

    /// A date's three numbers in the order written, held inline (every date cell of a file is
    /// shaped, and an array per cell was most of the shaping).
    struct Numbers: Equatable {
        var first: Int, second: Int, third: Int
        subscript(i: Int) -> Int { i == 0 ? first : i == 1 ? second : third }
    }

    static func shape(_ raw: String) -> Shape? {
        var text = CSVImporter.clean(raw)
        // Every date cell of a file is shaped (twice with a sniffed profile): ASCII text, nearly
        // all of it, is read from its bytes; the Character reading below is the same for it.
        var ascii = true
        let shaped = text.withUTF8 { bytes -> Shape? in
            for b in bytes where b >= 0x80 { ascii = false; return nil }
            return asciiShape(bytes)
        }
        return ascii ? shaped : characterShape(text)
    }

    /// ``shape(_:)`` of trimmed ASCII text.
    private static func asciiShape(_ bytes: UnsafeBufferPointer<UInt8>) -> Shape? {
        let isDigit = { (b: UInt8) in b >= 0x30 && b <= 0x39 }
        if bytes.count == 8, bytes.allSatisfy(isDigit) {
            let v = bytes.reduce(0) { $0 * 10 + Int($1 - 0x30) }
            return Shape(
                separator: nil, yearFirst: true, yearDigits: 4, numbers: Numbers(first: v / 10000, second: (v / 100) % 100, third: v % 100))
        }
        // Three numbers and their digit counts in fixed slots.
        var n = (0, 0, 0), d = (0, 0, 0), k = 0, separator: UInt8 = 0
        for b in bytes {
            if b == 0x20 || b == 0x54 { break } // " " or "T": a time follows
            if isDigit(b) {
                let v = Int(b - 0x30)
                switch k {
                case 0: guard d.0 < 4 else { return nil }; n.0 = n.0 * 10 + v; d.0 += 1
                case 1: guard d.1 < 4 else { return nil }; n.1 = n.1 * 10 + v; d.1 += 1
                default: guard d.2 < 4 else { return nil }; n.2 = n.2 * 10 + v; d.2 += 1
                }
            } else if b == 0x2D || b == 0x2F || b == 0x2E { // - / .
                guard k < 2, k == 0 || b == separator else { return nil }
                separator = b; k += 1
            } else {
                return nil
            }
        }
        guard k == 2, d.0 >= 1, d.1 >= 1, d.2 >= 1 else { return nil }
        return shape(numbers: Numbers(first: n.0, second: n.1, third: n.2), digits: d, separator: Unicode.Scalar(separator))
    }

    /// ``shape(_:)`` of trimmed text read Character by Character (text that is not all ASCII).
    static func characterShape(_ trimmed: String) -> Shape? {
        var text = trimmed
        if text.count == 8, text.allSatisfy({ $0.isASCII && $0.isNumber }) {
            let v = Int(text)!
            return Shape(
                separator: nil, yearFirst: true, yearDigits: 4, numbers: Numbers(first: v / 10000, second: (v / 100) % 100, third: v % 100))
        }
        if let cut = text.firstIndex(where: { $0 == " " || $0 == "T" }) { text = String(text[..<cut]) }
        var groups: [String] = [""]
        var separators: [Unicode.Scalar] = []
        for ch in text {
            if ch.isASCII && ch.isNumber {
                groups[groups.count - 1].append(ch)
            } else if "-/.".contains(ch) {
                separators.append(ch.unicodeScalars.first!); groups.append("")
            } else {
                return nil
            }
        }
        guard groups.count == 3, separators.count == 2, separators[0] == separators[1],
            groups.allSatisfy({ (1...4).contains($0.count) })
        else { return nil }
        let n = groups.map { Int($0)! }
        return shape(
            numbers: Numbers(first: n[0], second: n[1], third: n[2]), digits: (groups[0].count, groups[1].count, groups[2].count),
            separator: separators[0])
    }

    /// The shape of three numbers of 1-4 digits between two equal separators.
    static func shape(numbers: Numbers, digits: (Int, Int, Int), separator: Unicode.Scalar) -> Shape? {
        if digits.0 == 4 && digits.1 <= 2 && digits.2 <= 2 {
            return Shape(separator: separator, yearFirst: true, yearDigits: 4, numbers: numbers)
        }
        if digits.0 <= 2 && digits.1 <= 2 && (digits.2 == 4 || digits.2 == 2) {
            return Shape(separator: separator, yearFirst: false, yearDigits: digits.2, numbers: numbers)
        }
        return nil
    }

    /// The first cell proving day-first (a first number above 12) and the first proving
    /// month-first (a second number above 12), for day/month-ordered cells.
    static func orderEvidence(_ cells: [Cell]) -> (dayFirst: Cell?, monthFirst: Cell?) {
        var dayFirst: Cell?, monthFirst: Cell?
        for cell in cells {
            guard let s = shape(cell.text), !s.yearFirst else { continue }
            if s.numbers[0] > 12, s.numbers[1] <= 12, dayFirst == nil { dayFirst = cell }
            if s.numbers[1] > 12, s.numbers[0] <= 12, monthFirst == nil { monthFirst = cell }
        }
        return (dayFirst, monthFirst)
    }

    /// A built-in profile picked by sniffing the header brings its bank's date order, but a
    /// header is weak evidence: `Date,Description,Amount` is American Express's and also many
    /// other banks'. So the rows get the last word. Rows that prove the other order are refused
    /// (naming the line and the profile that did not fit), and when the header is generic and
    /// no row decides, the profile's order is used with a warning instead of silently.
    static func checkSniffedFormat(
        _ format: LocalDate.Format, cells: [Cell], profile: String, genericHeader: Bool,
        file: String, column: String
    ) throws -> ImportWarning? {
        let order = format.layout.order
        guard order != .ymd else { return nil }
        let evidence = orderEvidence(cells)
        let contrary = order == .mdy ? evidence.dayFirst : evidence.monthFirst
        let supporting = order == .mdy ? evidence.monthFirst : evidence.dayFirst
        if let contrary {
            let other = order == .mdy ? "day" : "month"
            throw ImportError(
                .malformed, file: file, locator: Locator(line: contrary.line), column: column,
                problem:
                    "date '\(contrary.text.prefix(40))' puts the \(other) first, but the header matched the built-in profile '\(profile)' whose dates are \(format.rawValue); this is another bank's export: import it with --csv-profile FILE setting date_format (see `moneyflow profiles`)"
            )
        }
        guard genericHeader, supporting == nil, let first = cells.first else { return nil }
        return ImportWarning(
            "no date in the file says whether the day or the month comes first (e.g. '\(first.text.prefix(40))' on line \(first.line)); read as \(format.rawValue) because the header matched the built-in profile '\(profile)'. If this is another bank's export, import it with --csv-profile FILE setting date_format"
        )
    }

    /// The one format that reads every cell, or an error naming the line that prevents it.
    static func format(for cells: [Cell], file: String, column: String) throws -> LocalDate.Format {
        func refuse(_ line: Int?, _ problem: String) -> ImportError {
            ImportError(.malformed, file: file, locator: line.map { Locator(line: $0) }, column: column, problem: problem)
        }
        guard let first = cells.first else { return .iso }
        guard let reference = shape(first.text) else {
            throw refuse(
                first.line,
                "cannot read date '\(first.text.prefix(40))'; set date_format in a CSV profile (one of \(LocalDate.Format.validNames))")
        }
        var dayFirstProof: Cell?
        var monthFirstProof: Cell?
        for cell in cells {
            guard let s = shape(cell.text), s.separator == reference.separator, s.yearFirst == reference.yearFirst,
                s.yearDigits == reference.yearDigits
            else {
                throw refuse(
                    cell.line,
                    "date '\(cell.text.prefix(40))' is not written like the file's other dates (\(reference.pattern), e.g. '\(first.text)' on line \(first.line)); fix the line"
                )
            }
            guard !reference.yearFirst else { continue }
            if s.numbers[0] > 12 && s.numbers[1] > 12 {
                throw refuse(
                    cell.line, "date '\(cell.text.prefix(40))' has neither a day nor a month in its first two numbers; fix the line")
            }
            if s.numbers[0] > 12, dayFirstProof == nil { dayFirstProof = cell }
            if s.numbers[1] > 12, monthFirstProof == nil { monthFirstProof = cell }
            if let d = dayFirstProof, let m = monthFirstProof {
                let later = d.line > m.line ? d : m, earlier = d.line > m.line ? m : d
                throw refuse(
                    later.line,
                    "date '\(later.text)' contradicts '\(earlier.text)' on line \(earlier.line): one puts the day first, the other the month; fix the line or set date_format in a CSV profile"
                )
            }
        }
        let sep = reference.separator.map(Character.init)
        let order: LocalDate.Format.Order
        if reference.yearFirst {
            order = .ymd
        } else if dayFirstProof != nil {
            order = .dmy
        } else if monthFirstProof != nil {
            order = .mdy
        } else {
            let dm = LocalDate.Format.matching(order: .dmy, separator: sep, yearDigits: reference.yearDigits)?.rawValue ?? "DD/MM/YYYY"
            let md = LocalDate.Format.matching(order: .mdy, separator: sep, yearDigits: reference.yearDigits)?.rawValue ?? "MM/DD/YYYY"
            throw refuse(
                nil,
                "day/month order is ambiguous (no date in the file has a day above 12, e.g. '\(first.text)' on line \(first.line)); set date_format = \"\(dm)\" or \"\(md)\" in a CSV profile (--csv-profile FILE)"
            )
        }
        guard let format = LocalDate.Format.matching(order: order, separator: sep, yearDigits: reference.yearDigits) else {
            throw refuse(
                first.line,
                "dates written \(reference.pattern) match no supported date_format; convert them to one of \(LocalDate.Format.validNames)")
        }
        return format
    }
}
