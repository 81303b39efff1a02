import MoneyFlowCore
import MoneyFlowImporters
import Testing

/// CMB statements the reconstruction must refuse, naming page, row and column (synthetic glyph
/// boxes, no PDF involved).
@Suite("CMB statement reconstruction: refusals")
struct CMBReconstructionErrorTests {
    typealias Row = CMBSyntheticStatement.Row
    static let basicRows = CMBReconstructionTests.basicRows

    func reconstruct(_ pages: [TextPage]) throws -> CMBStatement {
        try CMBStatementReconstructor().reconstruct(pages, fileName: "test.pdf")
    }

    /// A printed amount beyond Money's limit is refused naming the page, row and column (the
    /// wider values layout detection reads never reach the ledger).
    @Test func amountBeyondTheLimitIsRefused() throws {
        let s = CMBSyntheticStatement.v2024()
        let rows = [
            Row("2026-06-01", "CNY", "-5.00", "132.24", "快捷支付", counterparty: ["上海公共交通卡股份有限公司"]),
            Row("2026-06-02", "CNY", "20000000000.00", "20000000132.24", "网联收款", counterparty: ["李昶乐"]),
        ]
        do {
            _ = try reconstruct(s.statement([rows]))
            Issue.record("an amount of 2e10 (2e12 minor units) was read")
        } catch let e as ImportError {
            #expect(e.kind == .limitExceeded, "\(e)")
            #expect(e.locator?.page == 1 && e.locator?.row == 2, "\(e)")
            #expect(e.description.contains("beyond the limit"), "\(e)")
        }
    }

    @Test func notACMBStatement() throws {
        let s = CMBSyntheticStatement.v2024()
        let page = TextPage(
            number: 1, width: 595, height: 842,
            items: s.glyphs("电子发票（普通发票）", x: 50, top: 50) + s.glyphs("2026-05-20 合计 ¥100.00", x: 50, top: 80))
        #expect {
            _ = try CMBStatementReconstructor().reconstruct([page], fileName: "x.pdf")
        } throws: { error in
            guard let e = error as? ImportError else { return false }
            return e.kind == .notAStatement && e.file == "x.pdf" && e.problem.contains("not a CMB statement")
        }
        #expect(throws: ImportError.self) { _ = try CMBStatementReconstructor().reconstruct([]) }
    }

    @Test func unreadableAmountIsMalformedWithPageRowColumn() throws {
        let s = CMBSyntheticStatement.v2024()
        var rows = Self.basicRows
        rows[2].amount = "-15.5.9"
        #expect {
            _ = try CMBStatementReconstructor().reconstruct(s.statement([Self.basicRows, rows]), fileName: "bad.pdf")
        } throws: { error in
            guard let e = error as? ImportError else { return false }
            return e.kind == .malformed && e.locator == Locator(page: 2, row: 3) && e.column == "交易金额"
        }
    }

    @Test func unknownCurrencyAndBadDateAreMalformed() throws {
        let s = CMBSyntheticStatement.v2024()
        var rows = Self.basicRows
        rows[1].currency = "金币"
        #expect {
            _ = try CMBStatementReconstructor().reconstruct(s.statement([rows]))
        } throws: { error in
            (error as? ImportError).map { $0.kind == .malformed && $0.column == "货币" && $0.locator?.row == 2 } ?? false
        }
        var dates = Self.basicRows
        dates[3].date = "2026-06-3"
        #expect {
            _ = try CMBStatementReconstructor().reconstruct(s.statement([dates]))
        } throws: { error in
            (error as? ImportError).map { $0.kind == .malformed && $0.column == "记账日期" && $0.locator == Locator(page: 1, row: 4) } ?? false
        }
        // Last row's date unreadable: still an error, not silently treated as a closing notice.
        var lastBad = Self.basicRows
        lastBad[4].date = "2026/6/4"
        #expect(throws: ImportError.self) { _ = try CMBStatementReconstructor().reconstruct(s.statement([lastBad])) }
    }
}
