import Foundation
import MoneyFlowCore

/// Rebuilds a CMB credit-card bill (招商银行信用卡对账单) from pages of positioned text.
///
/// Position-based like the debit-card ``CMBStatementReconstructor`` (whose line and run geometry
/// it shares): per page it finds the column header (交易日 | 记账日 | 交易摘要 | 人民币金额 |
/// 卡号末四位 | 交易地金额, labels possibly wrapped over two lines), cuts every line below it into
/// columns, and reads one row per line (the PDF bill truncates 交易摘要 rather than wrapping it).
/// Section label rows (还款, 消费, ...) and page markers are not transactions; any other text in
/// the table is reported, never dropped silently. Reading stops at `[END]`.
public struct CMBCardReconstructor: Sendable {
    public init() {}

    /// True when page 1 carries the bill's title (`招商银行信用卡对账单`): the CMB PDF container
    /// reads such a file with this reconstructor instead of the debit-card one.
    public static func isCardBill(_ pages: [TextPage]) -> Bool {
        guard let first = pages.first else { return false }
        let lines = CMBGeometry.lines(CMBGeometry.glyphs(of: first))
        let title = Array("信用卡对账单".unicodeScalars)
        return lines.contains { $0.contains(title) }
    }

    /// Reconstructs the bill.
    /// - Throws: ``ImportError`` `.notAStatement` without the column header or the statement
    ///   month, `.malformed` (page, row, column) for a cell that cannot be read.
    public func reconstruct(_ pages: [TextPage], fileName: String = "") throws(ImportError) -> CMBCardStatement {
        var work = CMBCardWork(fileName: fileName)
        return try work.run(pages)
    }

    /// Reconstructs the bill and maps it to an ``ImportedStatement``.
    public func importedStatement(from pages: [TextPage], fileName: String = "") throws(ImportError) -> ImportedStatement {
        try reconstruct(pages, fileName: fileName).importedStatement()
    }
}

/// One reconstruction of a credit-card bill (header in CMBCardHeader, rows in CMBCardRows).
struct CMBCardWork {
    let fileName: String
    var warnings: [ImportWarning] = []

    init(fileName: String) { self.fileName = fileName }

    mutating func run(_ pages: [TextPage]) throws(ImportError) -> CMBCardStatement {
        let pageLines = pages.map { CMBGeometry.lines(CMBGeometry.glyphs(of: $0)) }
        guard let first = pageLines.first, let head = findColumns(first) else {
            throw ImportError(
                .notAStatement, file: fileName, locator: Locator(page: 1),
                problem: "not a CMB credit-card bill: no 交易日 / 记账日 / 交易摘要 / 人民币金额 column header on page 1")
        }
        var header = try parseHeader(first.filter { $0.midY < head.top })
        var rows: [CMBCardStatement.Row] = []
        var columns = head.columns
        var section: String? = nil
        var ended = false
        for (p, lines) in pageLines.enumerated() where !ended {
            let number = pages[p].number
            var start = -Double.infinity
            if let found = findColumns(lines) {
                columns = found.columns
                start = found.columns.bottom
            } else if !lines.isEmpty {
                warnings.append(
                    ImportWarning("no column header on this page; columns of the previous page used", at: Locator(page: number)))
            }
            ended = try readTable(
                lines.filter { $0.midY > start }, columns: columns, page: number, header: header,
                section: &section, into: &rows)
        }
        if !ended {
            warnings.append(ImportWarning("no [END] mark after the last row: the bill may be incomplete; get the whole bill"))
        }
        let candidates = try resolveCard(&header, rows: rows)
        checkTotals(header)
        return CMBCardStatement(header: header, rows: rows, pageCount: pages.count, warnings: warnings, cardCandidates: candidates)
    }

    /// A header without 卡号 (real bills print none; the card is per row in 卡号末四位): the
    /// bill is the primary card's, the card of its repayment rows, else the card most rows name
    /// (among the repaid cards when several were repaid). Cards that tie stay possible: the
    /// first the bill names is taken, the others are returned, and the import chooses among
    /// them by the accounts the store already has (``CMBCardStatement/cardCandidates``).
    /// A bill whose rows name no card at all is refused.
    func resolveCard(_ header: inout CMBCardStatement.Header, rows: [CMBCardStatement.Row]) throws(ImportError) -> [String] {
        guard header.cardLast4.isEmpty else { return [] }
        var order: [String] = []
        var count: [String: Int] = [:]
        for card in rows.compactMap(\.card) {
            if count[card] == nil { order.append(card) }
            count[card, default: 0] += 1
        }
        guard !order.isEmpty else {
            throw ImportError(
                .malformed, file: fileName, locator: Locator(page: 1), column: "卡号",
                problem: "no card number in the header and no row names a card (卡号末四位): cannot tell which card the bill is for")
        }
        let repaid = order.filter { card in rows.contains { $0.card == card && $0.isRepayment } }
        let pool = repaid.isEmpty ? order : repaid
        let most = pool.map { count[$0] ?? 0 }.max() ?? 0
        let top = pool.filter { count[$0] == most }
        header.cardLast4 = top[0]
        return top.count > 1 ? top : []
    }

    /// The bill's own check: 本期还款总额 = 上期账单金额 − 上期还款金额 + 本期账单金额 − 本期调整金额 +
    /// 循环利息 (the last two count as 0 when not printed). A failure is a warning: the rows are
    /// still what the bill prints, but the bill does not add up (or was misread).
    mutating func checkTotals(_ h: CMBCardStatement.Header) {
        guard let total = h.newBalance, let prev = h.previousBalance, let paid = h.previousPayment, let charges = h.newCharges else {
            return
        }
        let adjustment = h.adjustment?.minorUnits ?? 0, interest = h.interest?.minorUnits ?? 0
        let sum = prev.minorUnits - paid.minorUnits + charges.minorUnits - adjustment + interest
        guard sum != total.minorUnits else { return }
        let f = { (v: Int64) in Money(minorUnits: v, currency: "CNY").decimalString }
        warnings.append(
            ImportWarning(
                "the bill's check fails: 本期还款总额 \(f(total.minorUnits)) != 上期账单金额 \(f(prev.minorUnits)) - 上期还款金额 \(f(paid.minorUnits)) + 本期账单金额 \(f(charges.minorUnits)) - 本期调整金额 \(f(adjustment)) + 循环利息 \(f(interest)) = \(f(sum)); compare the rows with the bill",
                at: Locator(page: 1)))
    }
}
