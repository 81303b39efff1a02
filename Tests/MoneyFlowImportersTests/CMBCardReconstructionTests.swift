import MoneyFlowCore
import MoneyFlowImporters
import MoneyFlowTestSupport
import Testing

/// The credit-card bill reconstruction on synthetic glyph boxes (no PDF): years across a January
/// bill, section rows, and the refusals and warnings that name page, row and column.
@Suite("CMB credit-card bill reconstruction")
struct CMBCardReconstructionTests {
    static let s = CMBSyntheticStatement.v2024()
    typealias Cells = (sold: String, posted: String, text: String, rmb: String, card: String, original: String)

    /// One page of a January 2026 bill of card 4529: title, two facts, the column header, then
    /// `lines` (a row, or a lone label at x 36), then `[END]` unless `end` is false.
    static func page(_ lines: [Either], end: Bool = true) -> TextPage {
        var items = s.glyphs("招商银行信用卡对账单（个人消费卡账户 2026年01月）", x: 120, top: 40, size: 14)
        items += s.glyphs("账单日", x: 36, top: 100) + s.glyphs("Statement Date", x: 36, top: 110, size: 7)
        items += s.glyphs("2026/01/12", x: 36, top: 121)
        items += s.glyphs("卡号", x: 216, top: 100) + s.glyphs("6225 88** **** 4529", x: 216, top: 121)
        for (x, label) in [(36.0, "交易日"), (84, "记账日"), (132, "交易摘要"), (340, "人民币金额"), (400, "卡号末四位"), (478, "交易地金额")] {
            items += s.glyphs(label, x: x, top: 200)
        }
        items += s.glyphs("SOLD", x: 36, top: 210, size: 6.5) + s.glyphs("POSTED", x: 84, top: 210, size: 6.5)
        var top = 226.0
        for l in lines {
            switch l {
            case .label(let text): items += s.glyphs(text, x: 36, top: top)
            case .row(let c):
                items += s.glyphs(c.sold, x: 36, top: top) + s.glyphs(c.posted, x: 84, top: top) + s.glyphs(c.text, x: 132, top: top)
                items += s.glyphs(c.rmb, x: 382 - s.width(c.rmb), top: top) + s.glyphs(c.card, x: 404, top: top)
                items += s.glyphs(c.original, x: 559 - s.width(c.original), top: top)
            }
            top += 13
        }
        if end { items += s.glyphs("[END]", x: 36, top: top + 4) }
        items += s.glyphs("1/1", x: 545, top: 803)
        return TextPage(number: 1, width: 595, height: 842, items: items)
    }

    enum Either {
        case label(String)
        case row(Cells)
    }

    static let good: [Either] = [
        .label("还款"),
        .row(("", "12/20", "掌上生活还款", "-1,000.00", "4529", "-1,000.00(CN)")),
        .label("消费"),
        .row(("12/30", "01/02", "LAWSON SHINJUKU", "73.62", "0862", "1,580(JP)")),
        .row(("01/05", "01/05", "星巴克咖啡", "36.00", "", "36.00(CN)")),
    ]

    @Test func aJanuaryBillReadsItsRowsWithTheRightYears() throws {
        let bill = try CMBCardReconstructor().reconstruct([Self.page(Self.good)], fileName: "bill.pdf")
        #expect(bill.header.year == 2026 && bill.header.month == 1 && bill.header.cardLast4 == "4529")
        #expect(bill.rows.map(\.date.iso) == ["2025-12-20", "2025-12-30", "2026-01-05"])
        #expect(bill.rows[1].posted.iso == "2026-01-02")
        #expect(bill.rows.map(\.section) == ["还款", "消费", "消费"])
        #expect(bill.rows[1].originalAmount == "1580" && bill.rows[1].originalRegion == "JP")
        #expect(bill.warnings.isEmpty, "\(bill.warnings)")
        let records = bill.importedStatement().records
        #expect(records.map(\.amount.decimalString) == ["1000.00", "-73.62", "-36.00"])
        #expect(records.map(\.note) == [nil, "卡号末四位 0862; 交易地金额 1,580(JP)", nil])
        #expect(records.map(\.locator) == [Locator(page: 1, row: 1), Locator(page: 1, row: 2), Locator(page: 1, row: 3)])
    }

    /// Positions decide, not the order the content stream draws the text in.
    @Test func theContentStreamOrderDoesNotMatter() throws {
        let page = Self.page(Self.good)
        var shuffled = page
        var rng = SplitMix64(seed: 18)
        shuffled.items.shuffle(using: &rng)
        #expect(shuffled.items != page.items)
        let a = try CMBCardReconstructor().reconstruct([page]), b = try CMBCardReconstructor().reconstruct([shuffled])
        #expect(a.rows.count == 3 && a.rows == b.rows && a.header == b.header)
    }

    @Test func anUnreadableDateIsRefusedWithPageRowAndColumn() throws {
        var lines = Self.good
        lines[3] = .row(("12/30", "13/45", "LAWSON SHINJUKU", "73.62", "0862", "1,580(JP)"))
        #expect {
            _ = try CMBCardReconstructor().reconstruct([Self.page(lines)], fileName: "bill.pdf")
        } throws: { error in
            guard let e = error as? ImportError else { return false }
            return e.kind == .malformed && e.file == "bill.pdf" && e.locator == Locator(page: 1, row: 2) && e.column == "记账日"
        }
    }

    @Test func aCardCellThatIsNotFourDigitsIsRefused() throws {
        var lines = Self.good
        lines[4] = .row(("01/05", "01/05", "星巴克咖啡", "36.00", "45A9", "36.00(CN)"))
        #expect {
            _ = try CMBCardReconstructor().reconstruct([Self.page(lines)], fileName: "bill.pdf")
        } throws: { error in
            guard let e = error as? ImportError else { return false }
            return e.kind == .malformed && e.locator == Locator(page: 1, row: 3) && e.column == "卡号末四位"
        }
    }

    @Test func strayTextAndAMissingEndAreWarnings() throws {
        let bill = try CMBCardReconstructor().reconstruct([Self.page(Self.good + [.label("未知的说明文字")], end: false)])
        #expect(bill.rows.count == 3)
        #expect(bill.warnings.count == 2, "\(bill.warnings)")
        #expect(bill.warnings.contains { $0.message.contains("未知的说明文字") })
        #expect(bill.warnings.contains { $0.message.contains("[END]") })
    }

    @Test func aPageWithoutTheColumnHeaderIsNotACardBill() throws {
        let page = TextPage(number: 1, width: 595, height: 842, items: Self.s.glyphs("招商银行信用卡对账单（个人消费卡账户 2026年01月）", x: 50, top: 50))
        #expect(CMBCardReconstructor.isCardBill([page]))
        #expect {
            _ = try CMBCardReconstructor().reconstruct([page], fileName: "x.pdf")
        } throws: { error in (error as? ImportError)?.kind == .notAStatement }
    }
}
