import Foundation
import MoneyFlowCore

extension CMBWork {
    // MARK: rows

    func buildRows(_ s: CMBPageScan, reach: Double) throws(ImportError) -> ([CMBStatement.Row], [ImportWarning]) {
        var rows: [CMBStatement.Row] = []
        var warnings: [ImportWarning] = []
        guard let cols = s.columns, !s.anchors.isEmpty || !s.badDates.isEmpty else { return (rows, warnings) }
        rows.reserveCapacity(s.anchors.count)
        let anchors = s.anchors
        let centres = anchors.map(\.midY)
        let dateBand = cols.index(of: .date)!
        if let bad = s.badDates.first {
            let row = centres.filter { $0 < bad.midY }.count + 1
            throw ImportError(
                .malformed, file: fileName, locator: Locator(page: s.number, row: row), column: "记账日期",
                problem: "unreadable date '\(bad.spacedText)'")
        }
        // cells[row][band] = fragments
        var cells = Array(repeating: Array(repeating: [CMBLine](), count: cols.kinds.count), count: anchors.count)
        var stray: [String] = []
        for b in s.bandLines.indices {
            for frag in s.bandLines[b] {
                if b == dateBand && CMBWork.parseDate(frag.compact) != nil { continue }
                // Nearest row centre (binary search over sorted centres).
                var lo = 0, hi = centres.count
                while lo < hi { let mid = (lo + hi) / 2; if centres[mid] < frag.midY { lo = mid + 1 } else { hi = mid } }
                var best = -1
                var bestD = Double.infinity
                for c in [lo - 1, lo] where c >= 0 && c < centres.count {
                    let d = abs(centres[c] - frag.midY)
                    if d < bestD { bestD = d; best = c }
                }
                if best >= 0 && bestD <= reach && b != dateBand {
                    cells[best][b].append(frag)
                } else {
                    stray.append(frag.spacedText)
                }
            }
        }
        for t in stray {
            warnings.append(ImportWarning("text outside any row ignored: \(t)", at: Locator(page: s.number)))
        }
        for (r, anchor) in anchors.enumerated() {
            let loc = Locator(page: s.number, row: r + 1)
            func text(_ kind: CMBColumnKind, spaced: Bool = true) -> String? {
                guard let b = cols.index(of: kind) else { return nil }
                var frags = cells[r][b]
                if frags.isEmpty { return "" }
                if frags.count > 1 { frags.sort { $0.midY != $1.midY ? $0.midY < $1.midY : $0.x0 < $1.x0 } }
                return CMBLine.text(frags, spaced: spaced)
            }
            let dateText = anchor.compactText
            guard let date = CMBWork.parseDate(anchor.compact) else {
                throw ImportError(.malformed, file: fileName, locator: loc, column: "记账日期", problem: "unreadable date '\(dateText)'")
            }
            let curText = text(.currency, spaced: false) ?? ""
            guard let currency = CMBCurrency.isoCode(curText) else {
                throw ImportError(
                    .malformed, file: fileName, locator: loc, column: "货币",
                    problem: curText.isEmpty ? "missing currency" : "unknown currency '\(curText)'")
            }
            let amountText = text(.amount, spaced: false) ?? ""
            let balanceText = text(.balance, spaced: false) ?? ""
            let amount = try parseAmount(amountText, currency: currency, loc: loc, column: "交易金额")
            let balance = try parseAmount(balanceText, currency: currency, loc: loc, column: "联机余额")
            let description = text(.description) ?? ""
            let counterparty = text(.counterparty).flatMap { $0.isEmpty ? nil : $0 }
            let note = text(.note).flatMap { $0.isEmpty ? nil : $0 }
            rows.append(
                CMBStatement.Row(
                    date: date, currency: currency, amount: amount, balance: balance,
                    description: description, counterparty: counterparty, note: note,
                    page: s.number, rowOnPage: r + 1,
                    printed: .init(date: dateText, currency: curText, amount: amountText, balance: balanceText)))
        }
        return (rows, warnings)
    }

    func parseAmount(_ text: String, currency: String, loc: Locator, column: String) throws(ImportError) -> Money {
        guard !text.isEmpty else {
            throw ImportError(.malformed, file: fileName, locator: loc, column: column, problem: "missing amount")
        }
        guard let minor = CMBWork.parseMinorUnits(text, exponent: Money.exponent(for: currency)) else {
            throw ImportError(.malformed, file: fileName, locator: loc, column: column, problem: "unreadable amount '\(text)'")
        }
        // Layout detection reads wider values (see `amountSyntax`); a stored value keeps the one
        // limit every source has, so no sum over the ledger can overflow.
        guard minor.magnitude < Money.maxMinorUnits.magnitude else {
            throw ImportError(
                .limitExceeded, file: fileName, locator: loc, column: column,
                problem:
                    "amount '\(text)' is beyond the limit of \(Money(minorUnits: Money.maxMinorUnits - 1, currency: currency).decimalString); check the statement"
            )
        }
        return Money(minorUnits: minor, currency: currency)
    }

    /// How the statement prints amounts: `,` groups anywhere after the first digit (the layout,
    /// not the grouping, proves a cell is an amount) and, for telling amount columns apart, whole
    /// values up to 900,000,000,000,009; a row's value must also be below ``Money/maxMinorUnits``
    /// (``parseAmount``).
    static let amountSyntax = AmountSyntax(grouping: .anywhereAfterADigit, limit: .wholeUnits(900_000_000_000_010))

    /// Exact minor units of a printed amount (`-1,234.56`: optional sign, `,` groups, at most
    /// `exponent` fraction digits beyond which only zeros); nil when the text is not one.
    static func parseMinorUnits(_ text: String, exponent: Int) -> Int64? {
        guard looksLikeAmount(text) else { return nil }
        return try? Money.parseMinorUnits(text, exponent: exponent, syntax: amountSyntax)
    }

    /// `-1,234.56` / `1234.56` / `5`: optional minus, digits with `,` groups, optional fraction.
    /// Read as UTF-8 bytes: every accepted character is one ASCII byte, and any other byte (a
    /// letter, a combining mark, a non-ASCII digit) refuses the text, as it did read by Characters.
    static func looksLikeAmount(_ text: String) -> Bool {
        var dot = false
        var first = true
        var signed = false
        for b in text.utf8 {
            if first && !signed && (b == UInt8(ascii: "-") || b == UInt8(ascii: "+")) { signed = true; continue }
            if first {
                guard b >= 0x30 && b <= 0x39 else { return false }
                first = false
                continue
            }
            if b == UInt8(ascii: ".") { if dot { return false }; dot = true; continue }
            if b == UInt8(ascii: ",") { if dot { return false }; continue }
            guard b >= 0x30 && b <= 0x39 else { return false }
        }
        return !first
    }

    /// Separators `parseDate` accepts between the fields.
    static let dateSeparators = LocalDate.ISOStrictness.exact(separators: "-/.")

    /// `YYYY-MM-DD` (also `/` or `.` separators), exactly.
    static func parseDate(_ s: [Unicode.Scalar]) -> LocalDate? {
        // Ten ASCII characters or nothing (a longer UTF-8 spelling is never a date): the text is
        // spelled from the bytes, without growing a String scalar by scalar.
        guard s.count == 10, s.allSatisfy({ $0.value < 0x80 }) else { return nil }
        let text = String(unsafeUninitializedCapacity: 10) { buf in
            for k in 0..<10 { buf[k] = UInt8(s[k].value) }
            return 10
        }
        return LocalDate(iso: text, CMBWork.dateSeparators)
    }
}
