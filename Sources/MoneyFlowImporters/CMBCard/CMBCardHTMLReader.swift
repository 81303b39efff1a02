import MoneyFlowCore

/// Reads the CMB credit-card e-statement (招商银行信用卡电子账单, the HTML the bank e-mails;
/// FORMAT.md §3b) into the same ``CMBCardStatement`` the PDF bill gives.
///
/// Only the reading differs from the PDF: the header facts are label and value cells, and the
/// transactions are table rows of 8 cells `["", 交易日 MMDD, 记账日 MMDD, 交易摘要, "¥ -7.81",
/// 卡号末四位, 交易地, 交易地金额]`. Dates, the card, the original amount, the bill's check and the
/// mapping to records are the PDF reader's own code, so the same bill read from either file gives
/// the same records (and the same fingerprints: importing one after the other adds nothing).
public struct CMBCardHTMLReader: Sendable {
    public init() {}

    /// True when the text looks like the e-statement (its title or table labels), for sniffing.
    public static func looksLikeCardEStatement(_ html: String) -> Bool {
        (html.contains("信用卡") || html.contains("招商银行")) && html.contains("记账日") && html.contains("交易摘要")
    }

    /// - Throws: ``ImportError`` `.notAStatement` without the transaction table's header or the
    ///   statement month, `.malformed` (row, column) for a transaction cell that cannot be read.
    public func statement(html: String, fileName: String = "") throws(ImportError) -> CMBCardStatement {
        var work = CMBCardWork(fileName: fileName)
        return try work.runHTML(CMBHTMLScanner.scan(html))
    }
}

extension CMBCardWork {
    mutating func runHTML(_ doc: CMBHTMLScanner.Document) throws(ImportError) -> CMBCardStatement {
        func labels(_ r: [String]) -> Bool { r.contains { $0.hasPrefix("记账日") } && r.contains { $0.hasPrefix("交易摘要") } }
        guard let headRow = doc.rows.firstIndex(where: labels) else {
            throw ImportError(
                .notAStatement, file: fileName,
                problem: "not a CMB credit-card e-statement: no table with the 交易日 / 记账日 / 交易摘要 / 人民币金额 columns")
        }
        var header = try parseHTMLHeader(doc, rows: Array(doc.rows[..<headRow]))
        var rows: [CMBCardStatement.Row] = []
        var section: String? = nil
        for cells in doc.rows[(headRow + 1)...] {
            let filled = cells.filter { !$0.isEmpty }
            if filled.count == 1, CMBCardWork.sectionLabels.contains(filled[0].filter { $0 != " " }) {
                section = filled[0].filter { $0 != " " }
                continue
            }
            guard cells.count == 8 else { continue }
            if CMBCardWork.htmlAmount(cells[4]) == nil && cells[2].isEmpty {
                if !filled.isEmpty && !CMBCardWork.isFootnote(filled.joined()) {
                    warnings.append(ImportWarning("text in the transaction table that is no row, ignored: \(filled.joined(separator: " "))"))
                }
                continue
            }
            rows.append(try htmlRow(cells, header: header, section: section, number: rows.count + 1))
        }
        let candidates = try resolveCard(&header, rows: rows)
        checkTotals(header)
        return CMBCardStatement(header: header, rows: rows, pageCount: 1, warnings: warnings, cardCandidates: candidates)
    }

    /// One 8-cell transaction row. Its locator is the row number within the table (no page).
    func htmlRow(_ c: [String], header: CMBCardStatement.Header, section: String?, number: Int) throws(ImportError) -> CMBCardStatement.Row {
        let loc = Locator(row: number)
        func bad(_ column: String, _ problem: String) -> ImportError {
            ImportError(.malformed, file: fileName, locator: loc, column: column, problem: problem)
        }
        guard let posted = try date(c[2], header: header, loc: loc, column: "记账日") else { throw bad("记账日", "missing posting date") }
        let sold = try date(c[1], header: header, loc: loc, column: "交易日")
        guard let minor = CMBCardWork.htmlAmount(c[4]), minor.magnitude < Money.maxMinorUnits.magnitude else {
            throw bad("人民币金额", c[4].isEmpty ? "missing amount" : "unreadable amount '\(c[4])' (expected like ¥ -7.81)")
        }
        let card = c[5].filter { $0 != " " }
        guard card.isEmpty || (card.count == 4 && card.allSatisfy { $0.isASCII && $0.isNumber }) else {
            throw bad("卡号末四位", "'\(c[5])' is not the last four digits of a card")
        }
        let region = c[6].filter { $0 != " " }
        guard region.isEmpty || ((2...3).contains(region.count) && region.allSatisfy { $0.isASCII && $0.isLetter }) else {
            throw bad("交易地", "'\(c[6])' is not a region code (expected like CN, US)")
        }
        var original: (amount: String, region: String?)? = nil
        var printedOriginal = ""
        let originalText = c[7].filter { $0 != " " }
        if !originalText.isEmpty {
            guard let o = CMBCardWork.parseOriginal(originalText) else {
                throw bad("交易地金额", "unreadable original amount '\(c[7])' (expected like -7.81)")
            }
            original = (o.amount, region.isEmpty ? nil : region.uppercased())
            // Written as the PDF bill prints it (`8,000.00(CN)`), so the record's note, and so
            // its fingerprint, is the same whichever of the two files was imported.
            printedOriginal = CMBCardWork.grouped(o.amount) + (region.isEmpty ? "" : "(\(region.uppercased()))")
        }
        return CMBCardStatement.Row(
            sold: sold, posted: posted, description: c[3], rmbAmount: Money(minorUnits: minor, currency: "CNY"),
            card: card.isEmpty ? nil : card, originalAmount: original?.amount, originalRegion: original?.region, section: section,
            page: 0, rowOnPage: number, printedSold: c[1], printedPosted: c[2], printedAmount: c[4], printedOriginal: printedOriginal)
    }

    /// `¥ -7.81`, `￥1,234.00`, `-7.81`: minor units, nil when the cell is no amount.
    static func htmlAmount(_ cell: String) -> Int64? {
        var t = Substring(cell.filter { $0 != " " && $0 != "\u{A0}" })
        for prefix in ["¥", "￥", "RMB", "CNY"] where t.hasPrefix(prefix) { t = t.dropFirst(prefix.count) }
        return CMBWork.parseMinorUnits(String(t), exponent: 2)
    }

    /// `-8000.00` as `-8,000.00` (groups of three in the whole part).
    static func grouped(_ plain: String) -> String {
        let negative = plain.hasPrefix("-")
        let body = negative ? String(plain.dropFirst()) : plain
        let whole = body.prefix { $0 != "." }
        var out = ""
        for (n, ch) in whole.enumerated() {
            if n > 0 && (whole.count - n) % 3 == 0 { out.append(",") }
            out.append(ch)
        }
        return (negative ? "-" : "") + out + body.dropFirst(whole.count)
    }

    /// The header facts from the rows above the transaction table: a cell holding a fact's label
    /// (`账单日`, `账单日：`, `账单日 Statement Date`) has its value in the same cell, else in one of
    /// the next cells of its row (English label cells skipped, another label stops the search),
    /// else in the same column of the next row (a row of labels over a row of values, as the
    /// bill's check prints). The statement month comes from the title (`YYYY年MM月`), else 账单日.
    func parseHTMLHeader(_ doc: CMBHTMLScanner.Document, rows: [[String]]) throws(ImportError) -> CMBCardStatement.Header {
        let byLength = CMBCardFact.allCases.sorted { $0.label.count > $1.label.count }
        func labelled(_ cell: String) -> (fact: CMBCardFact, rest: String)? {
            for f in byLength where cell.hasPrefix(f.label) {
                var rest = Substring(cell.dropFirst(f.label.count))
                while let ch = rest.first, ch == "：" || ch == ":" || ch == " " { rest = rest.dropFirst() }
                let r = String(rest)
                if r.isEmpty || CMBCardWork.factValue(f, r) != nil || r.allSatisfy({ $0.isASCII && !$0.isNumber }) { return (f, r) }
            }
            return nil
        }
        var facts: [CMBCardFact: String] = [:]
        for (r, cells) in rows.enumerated() {
            for (c, cell) in cells.enumerated() {
                guard let (fact, rest) = labelled(cell), facts[fact] == nil else { continue }
                var value = CMBCardWork.factValue(fact, rest)
                var k = c + 1
                while value == nil, k < cells.count, labelled(cells[k]) == nil {
                    value = CMBCardWork.factValue(fact, cells[k]); k += 1
                }
                if value == nil, r + 1 < rows.count, c < rows[r + 1].count, labelled(rows[r + 1][c]) == nil {
                    value = CMBCardWork.factValue(fact, rows[r + 1][c])
                }
                if let value { facts[fact] = value }
            }
        }
        let cells = rows.flatMap { $0 }
        let title = (doc.texts + cells).first { $0.contains("账单") && CMBCardWork.yearMonth($0) != nil } ?? ""
        return try CMBCardWork.header(
            title: title, facts: facts, fileName: fileName, locator: nil,
            missingMonth: "not a CMB credit-card e-statement: no statement month (YYYY年MM月 in the title) and no 账单日")
    }
}
