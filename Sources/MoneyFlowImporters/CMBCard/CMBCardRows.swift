import MoneyFlowCore

extension CMBCardWork {
    /// Labels the bill prints on a row of their own above each group of rows. Not transactions.
    static let sectionLabels: Set<String> = [
        "还款", "退款", "消费", "分期", "费用", "利息", "取现", "预借现金", "调整", "其他", "年费", "转账", "溢缴款",
    ]

    /// Reads the table lines of one page (below its column header). Returns true at `[END]`.
    mutating func readTable(
        _ lines: [CMBLine], columns: CMBCardColumns, page: Int, header: CMBCardStatement.Header,
        section: inout String?, into rows: inout [CMBCardStatement.Row]
    ) throws(ImportError) -> Bool {
        var rowOnPage = 0
        for line in lines {
            let compact = line.compactText
            if compact.contains("[END]") { return true }
            let runs = line.runs(gapFactor: 1.0)
            if runs.allSatisfy({ CMBWork.parseMarker($0.compact) != nil }) { continue } // page marker `N/M`
            var cells = Array(repeating: [CMBLine](), count: columns.kinds.count)
            for run in runs { cells[columns.band(run.x0)].append(run) }
            func cell(_ kind: CMBCardColumnKind, spaced: Bool = false) -> String {
                guard let b = columns.index(of: kind) else { return "" }
                return CMBLine.text(cells[b], spaced: spaced)
            }
            let postedText = cell(.posted), amountText = cell(.amount)
            if postedText.isEmpty && amountText.isEmpty {
                if CMBCardWork.sectionLabels.contains(compact) {
                    section = compact
                } else if !CMBCardWork.isFootnote(compact) {
                    warnings.append(
                        ImportWarning("text in the transaction table that is no row, ignored: \(line.spacedText)", at: Locator(page: page)))
                }
                continue
            }
            rowOnPage += 1
            let loc = Locator(page: page, row: rowOnPage)
            func bad(_ column: String, _ problem: String) -> ImportError {
                ImportError(.malformed, file: fileName, locator: loc, column: column, problem: problem)
            }
            guard let posted = try date(postedText, header: header, loc: loc, column: "记账日") else {
                throw bad("记账日", "missing posting date")
            }
            let soldText = cell(.sold)
            let sold = try date(soldText, header: header, loc: loc, column: "交易日")
            guard !amountText.isEmpty else { throw bad("人民币金额", "missing amount") }
            guard let minor = CMBWork.parseMinorUnits(amountText, exponent: 2), minor.magnitude < Money.maxMinorUnits.magnitude else {
                throw bad("人民币金额", "unreadable amount '\(amountText)'")
            }
            let cardText = cell(.card)
            guard cardText.isEmpty || (cardText.count == 4 && cardText.allSatisfy { $0.isASCII && $0.isNumber }) else {
                throw bad("卡号末四位", "'\(cardText)' is not the last four digits of a card")
            }
            let originalText = cell(.original)
            var original: (amount: String, region: String?)? = nil
            if !originalText.isEmpty {
                guard let o = CMBCardWork.parseOriginal(originalText) else {
                    throw bad("交易地金额", "unreadable original amount '\(originalText)' (expected like 8,000.00(CN))")
                }
                original = o
            }
            rows.append(
                CMBCardStatement.Row(
                    sold: sold, posted: posted, description: cell(.description, spaced: true),
                    rmbAmount: Money(minorUnits: minor, currency: "CNY"), card: cardText.isEmpty ? nil : cardText,
                    originalAmount: original?.amount, originalRegion: original?.region, section: section,
                    page: page, rowOnPage: rowOnPage, printedSold: soldText, printedPosted: postedText,
                    printedAmount: amountText, printedOriginal: originalText))
        }
        return false
    }

    /// `MM/DD` with the year of the statement month; a month after the statement month is of the
    /// year before (a January bill holds December rows). Nil for an empty cell.
    func date(_ text: String, header: CMBCardStatement.Header, loc: Locator, column: String) throws(ImportError) -> LocalDate? {
        guard !text.isEmpty else { return nil }
        guard let (month, day) = CMBCardWork.parseMonthDay(text),
            let d = LocalDate(year: month > header.month ? header.year - 1 : header.year, month: month, day: day)
        else {
            throw ImportError(
                .malformed, file: fileName, locator: loc, column: column, problem: "unreadable date '\(text)' (expected MM/DD)")
        }
        return d
    }

    /// `MM/DD` (also `MMDD`, as the e-mailed bill prints it).
    static func parseMonthDay(_ text: String) -> (Int, Int)? {
        let digits = text.unicodeScalars.filter { $0 != "/" }
        guard digits.count == 4, digits.allSatisfy({ $0.value >= 48 && $0.value <= 57 }),
            text.count == 4 || (text.count == 5 && Array(text)[2] == "/")
        else { return nil }
        let v = digits.map { Int($0.value - 48) }
        let month = v[0] * 10 + v[1], day = v[2] * 10 + v[3]
        guard (1...12).contains(month), (1...31).contains(day) else { return nil }
        return (month, day)
    }

    /// `8,000.00(CN)`, `-18.50(US)`, `1,580(JP)` or a bare amount: the amount as a plain decimal
    /// (sign kept, `,` removed, fraction digits as printed) and the region code.
    static func parseOriginal(_ text: String) -> (amount: String, region: String?)? {
        var number = Substring(text), region: String? = nil
        if text.hasSuffix(")") || text.hasSuffix("）"), let open = text.lastIndex(where: { $0 == "(" || $0 == "（" }) {
            let code = text[text.index(after: open)..<text.index(before: text.endIndex)]
            guard (2...3).contains(code.count), code.allSatisfy({ $0.isASCII && $0.isLetter }) else { return nil }
            region = code.uppercased()
            number = text[..<open]
        }
        guard CMBWork.looksLikeAmount(String(number)) else { return nil }
        let fraction = number.firstIndex(of: ".").map { number.distance(from: $0, to: number.endIndex) - 1 } ?? 0
        guard let minor = try? Money.parseMinorUnits(String(number), exponent: fraction, syntax: CMBWork.amountSyntax) else { return nil }
        return (Money.format(minorUnits: minor, exponent: fraction), region)
    }
}
