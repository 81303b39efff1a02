import Foundation
import MoneyFlowCore

/// OFX date and amount values (spec §3.2.8, §3.2.9), parsed strictly.
enum OFXValues {
    struct DateValue: Equatable {
        /// The calendar day in the file's own offset: the day the statement shows.
        var date: LocalDate
        /// `HH:MM:SS` when the value has a time.
        var time: String?
    }

    /// `YYYYMMDD`, `YYYYMMDDHHMMSS`, `YYYYMMDDHHMMSS.XXX`, each optionally followed by
    /// `[offset:TZ]` (`[-5:EST]`, `[0:GMT]`, `[+5.45]`, `[-3.30:NST]`). The date is the local date
    /// in the given offset, so it is the digits as written: converting to UTC would move an
    /// evening purchase to the next day. Returns a reason when the text is not such a date.
    static func date(_ raw: String) -> Result<DateValue, ValueError> {
        let text = raw.trimmed(.whitespaces)
        var body = Substring(text)
        if let bracket = body.firstIndex(of: "[") {
            guard body.hasSuffix("]") else { return .failure(ValueError("unclosed time zone bracket")) }
            let zone = body[body.index(after: bracket)..<body.index(before: body.endIndex)]
            let offset = zone.prefix { $0 != ":" }
            guard validOffset(offset) else { return .failure(ValueError("bad time zone offset '\(offset)'")) }
            body = body[..<bracket]
        }
        var millis: Substring = ""
        if let dot = body.firstIndex(of: ".") { millis = body[body.index(after: dot)...]; body = body[..<dot] }
        guard millis.allSatisfy({ $0.isASCII && $0.isNumber }), millis.count <= 3 else {
            return .failure(ValueError("bad fraction of a second"))
        }
        let digits = Array(body)
        guard digits.allSatisfy({ $0.isASCII && $0.isNumber }), [8, 12, 14].contains(digits.count) else {
            return .failure(ValueError("expected YYYYMMDD or YYYYMMDDHHMMSS[.XXX][[offset:TZ]]"))
        }
        func n(_ r: Range<Int>) -> Int { Int(String(digits[r]))! }
        guard let d = LocalDate(year: n(0..<4), month: n(4..<6), day: n(6..<8)) else { return .failure(ValueError("no such day")) }
        guard digits.count > 8 else { return .success(DateValue(date: d, time: nil)) }
        let h = n(8..<10), m = n(10..<12), s = digits.count == 14 ? n(12..<14) : 0
        guard h < 24, m < 60, s <= 60 else { return .failure(ValueError("no such time of day")) }
        let time = String(digits[8..<10]) + ":" + String(digits[10..<12]) + ":" + (digits.count == 14 ? String(digits[12..<14]) : "00")
        return .success(DateValue(date: d, time: time))
    }

    /// `-5`, `+5.45`, `0`, `-3.30`: hours (and minutes after a dot) within ±14.
    static func validOffset(_ s: Substring) -> Bool {
        var t = s.trimmed(.whitespaces)[...]
        if t.hasPrefix("+") || t.hasPrefix("-") { t = t.dropFirst() }
        let parts = t.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let h = Int(parts[0]), parts[0].allSatisfy(\.isNumber), h <= 14 else { return false }
        if parts.count == 2 { guard let m = Int(parts[1]), parts[1].allSatisfy(\.isNumber), m < 60 else { return false } }
        return true
    }

    struct ValueError: Error { var reason: String; init(_ r: String) { reason = r } }

    /// An OFX amount: optional sign, digits, `.` or `,` as the decimal point (the spec allows
    /// both), no grouping. Exact, through ``Money/parse(_:currency:decimalSeparator:)``.
    static func amount(_ raw: String, currency: String) throws(ValueError) -> Money {
        let text = raw.trimmed(.whitespaces)
        let hasComma = text.contains(","), hasDot = text.contains(".")
        guard !(hasComma && hasDot), text.allSatisfy({ $0.isASCII && ($0.isNumber || "+-.,".contains($0)) }) else {
            throw ValueError("'\(raw.prefix(40))' is not a plain signed number such as -12.34")
        }
        do throws(MoneyParseError) {
            return try Money.parse(text, currency: currency, decimalSeparator: hasComma ? "," : ".")
        } catch {
            throw ValueError(error.description)
        }
    }
}
