import Foundation
import MoneyFlowCore

/// Rebuilds a CMB 招商银行交易流水 statement from pages of positioned text.
///
/// Pure and position-based: it never relies on content-stream order. Per page it finds the column
/// header row (记账日期 / 货币 / 交易金额 / 联机余额 / 交易摘要 [/ 对手信息] [/ 客户摘要]), derives
/// column bands from where those labels sit on that page, anchors rows on the dates of the
/// 记账日期 band and gives every other text fragment to the row whose vertical centre is nearest
/// (wrapped cells are vertically centred on their row). Page markers (`N/M`), closing notices and
/// the 合并统计 block are recognised and kept out of the rows.
///
/// This is the pure half of the CMB importer; the other half, which opens the bare PDF or its
/// encrypted ZIP and hands positioned text here, is `CMBStatementImporter` in `MoneyFlowCMB`.
public struct CMBStatementReconstructor: Sendable {
    public init() {}

    /// Reconstructs the statement.
    ///
    /// - Parameters:
    ///   - pages: pages in document order.
    ///   - fileName: used in errors.
    /// - Throws: ``ImportError`` `.notAStatement` when no column header / account number is found,
    ///   `.malformed` (with page and row) for a cell that cannot be read.
    public func reconstruct(_ pages: [TextPage], fileName: String = "") throws(ImportError) -> CMBStatement {
        var work = CMBWork(fileName: fileName)
        return try work.run(pages)
    }

    /// Reconstructs the statement and maps it to an ``ImportedStatement``.
    public func importedStatement(from pages: [TextPage], fileName: String = "") throws(ImportError) -> ImportedStatement {
        try reconstruct(pages, fileName: fileName).importedStatement()
    }
}

/// One reconstruction: the passes over the pages, in order. Each pass lives in its own file
/// (CMBPageScan, CMBColumns, CMBRows, CMBHeader, CMBTotals, CMBIntegrity).
struct CMBWork {
    let fileName: String
    var warnings: [ImportWarning] = []

    init(fileName: String) { self.fileName = fileName }

    mutating func run(_ pages: [TextPage]) throws(ImportError) -> CMBStatement {
        // Pass 1: lines, columns, bands, anchors, furniture per page (pages are independent).
        let me = self
        var scans = CMBParallel.map(pages.count) { i in me.scanPage(pages[i], previous: nil) }
        // Pages without a column header borrow the bands of the previous page that has one.
        var lastColumns: CMBColumns? = nil
        for i in scans.indices {
            if scans[i].columns != nil { lastColumns = scans[i].columns; continue }
            guard let prev = lastColumns else { continue }
            scans[i] = scanPage(pages[i], previous: prev)
            if scans[i].anchors.isEmpty {
                scans[i].columns = nil
            } else {
                warnings.append(
                    ImportWarning(
                        "no column header on this page; columns of the previous page used",
                        at: Locator(page: scans[i].number)))
            }
        }
        guard let firstWithColumns = scans.firstIndex(where: { $0.columns != nil && !$0.columnsInherited }) else {
            throw ImportError(
                .notAStatement, file: fileName, problem: "not a CMB statement: no 招商银行交易流水 column header (记账日期 / 交易金额 / 联机余额)")
        }

        // Header block: page 1 above its column header (or the first page that has a column header).
        var header = parseHeader(scans[0])
        if header == nil && firstWithColumns != 0 { header = parseHeader(scans[firstWithColumns]) }
        guard let header else {
            throw ImportError(
                .notAStatement, file: fileName, locator: Locator(page: 1),
                problem: "not a CMB statement: no 账号 (account number) in the header")
        }

        // Row pitch over the whole document.
        var gaps: [Double] = []
        var heights: [Double] = []
        for s in scans {
            for i in s.anchors.indices {
                heights.append(s.anchors[i].height)
                if i > 0 { gaps.append(s.anchors[i].midY - s.anchors[i - 1].midY) }
            }
        }
        let lineHeight = heights.isEmpty ? 10 : CMBGeometry.median(&heights)
        let pitch = gaps.isEmpty ? 2.7 * lineHeight : CMBGeometry.median(&gaps)
        let reach = max(pitch, 2.0 * lineHeight)

        // Pass 2: rows, page by page (pages are independent).
        let scansCopy = scans
        let perPage = CMBParallel.map(scans.count) { i -> Result<([CMBStatement.Row], [ImportWarning]), ImportError> in
            do throws(ImportError) { return .success(try me.buildRows(scansCopy[i], reach: reach)) } catch { return .failure(error) }
        }
        var rows: [CMBStatement.Row] = []
        rows.reserveCapacity(scans.reduce(0) { $0 + $1.anchors.count })
        for result in perPage {
            switch result {
            case .success(let (r, w)): rows.append(contentsOf: r); warnings.append(contentsOf: w)
            case .failure(let e): throw e
            }
        }

        let totals = parseTotals(scans)
        let declared = checkPageMarkers(scans)
        var layout = header.layout
        if layout == nil {
            let chinese = rows.contains { r in r.printed.currency.unicodeScalars.contains { $0.value > 0x2E80 } }
            layout = chinese ? .v2020 : .v2024
        }
        var h = header.value
        h.layout = layout!
        checkBalances(rows)
        checkTotals(rows, totals)
        return CMBStatement(
            header: h, rows: rows, totals: totals, declaredPageCount: declared,
            pageCount: pages.count, warnings: warnings)
    }
}
