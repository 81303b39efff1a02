import MoneyFlowCore
import MoneyFlowImporters
import Testing

/// Reconstruction of CMB statements from synthetic glyph boxes (no PDF involved).
@Suite("CMB statement reconstruction")
struct CMBReconstructionTests {
    typealias Row = CMBSyntheticStatement.Row

    static let basicRows: [Row] = [
        Row("2026-06-01", "CNY", "-5.00", "132.24", "快捷支付", counterparty: ["上海公共交通卡股份有限公司"]),
        Row("2026-06-02", "CNY", "100.00", "232.24", "网联收款", counterparty: ["李昶乐"]),
        // Wrapped above and below the date line, split inside a word.
        Row("2026-06-02", "CNY", "-15.59", "216.65", "快捷支付", counterparty: ["拉扎斯网络科技（上海）有限公", "司"]),
        // Name and account number on one line (a space), wrap splitting the number.
        Row(
            "2026-06-03", "CNY", "-2,942.23", "-2,725.58", "转账汇款",
            counterparty: ["冯某某 62225189984492230", "45"], note: ["房租"]),
        Row("2026-06-04", "CNY", "3,000.00", "274.42", "代发工资", note: ["6月工资"]),
    ]

    func reconstruct(_ pages: [TextPage]) throws -> CMBStatement {
        try CMBStatementReconstructor().reconstruct(pages, fileName: "test.pdf")
    }

    @Test func layout2024HeaderAndRows() throws {
        let s = CMBSyntheticStatement.v2024()
        let st = try reconstruct(s.statement([Self.basicRows]))
        let h = st.header
        #expect(h.layout == .v2024)
        #expect(h.name == "张三")
        #expect(h.accountNumber == "6214********8705")
        #expect(h.accountType == "ALL/全币种")
        #expect(h.branch == "北京中关村支行")
        #expect(h.periodStart == LocalDate(year: 2026, month: 6, day: 1))
        #expect(h.periodEnd == LocalDate(year: 2026, month: 6, day: 14))
        #expect(h.appliedAt == "2026-06-16 17:44:37")
        #expect(h.verificationCode == "EF92MHFC")
        #expect(h.serialNumber == nil)
        #expect(st.declaredPageCount == 1)
        #expect(st.pageCount == 1)
        #expect(st.totals.isEmpty)

        #expect(st.rows.count == 5)
        let r = st.rows
        #expect(r.map(\.date.iso) == ["2026-06-01", "2026-06-02", "2026-06-02", "2026-06-03", "2026-06-04"])
        #expect(r.map(\.currency) == ["CNY", "CNY", "CNY", "CNY", "CNY"])
        #expect(r.map(\.amount.minorUnits) == [-500, 10000, -1559, -294223, 300000])
        #expect(r.map(\.balance.minorUnits) == [13224, 23224, 21665, -272558, 27442])
        #expect(r.map(\.description) == ["快捷支付", "网联收款", "快捷支付", "转账汇款", "代发工资"])
        #expect(
            r.map(\.counterparty) == [
                "上海公共交通卡股份有限公司", "李昶乐", "拉扎斯网络科技（上海）有限公司",
                "冯某某 6222518998449223045", nil,
            ])
        #expect(r.map(\.note) == [nil, nil, nil, "房租", "6月工资"])
        #expect(r.map(\.page) == [1, 1, 1, 1, 1])
        #expect(r.map(\.rowOnPage) == [1, 2, 3, 4, 5])
        #expect(r[3].printed == CMBStatement.PrintedCells(date: "2026-06-03", currency: "CNY", amount: "-2,942.23", balance: "-2,725.58"))
        #expect(st.warnings.isEmpty, "\(st.warnings)")
    }

    @Test func layout2020SixColumnsChineseCurrency() throws {
        let s = CMBSyntheticStatement.v2020()
        let rows = [
            Row("2019-03-28", "人民币", "10,000.00", "13,893.32", "零售汇入汇款", counterparty: ["某某某某供应链管理有限公", "司"]),
            Row("2019-03-28", "人民币", "-4,000.00", "9,893.32", "银联快捷支付", counterparty: ["银联快捷支付待清算电子交", "换汇差一卡通交易资金"]),
            Row("2019-03-29", "人民币", "5,300.00", "15,193.32", "招行个人转账汇款转入", counterparty: ["某某某"]),
            Row("2019-03-29", "人民币", "-1.00", "15,192.32", "RI网银贷记发起付款"),
        ]
        let st = try reconstruct(s.statement([rows]))
        #expect(st.header.layout == .v2020)
        #expect(st.header.serialNumber == "a1b2c3d4-0000-1111-2222-333344445555")
        #expect(st.header.appliedAt == nil && st.header.verificationCode == nil)
        #expect(st.header.branch == "北京中关村支行")
        #expect(st.rows.count == 4)
        #expect(st.rows.allSatisfy { $0.currency == "CNY" && $0.amount.currency == "CNY" && $0.note == nil })
        #expect(st.rows.map(\.printed.currency) == ["人民币", "人民币", "人民币", "人民币"])
        #expect(st.rows.map(\.counterparty) == ["某某某某供应链管理有限公司", "银联快捷支付待清算电子交换汇差一卡通交易资金", "某某某", nil])
        #expect(st.rows.map(\.description) == ["零售汇入汇款", "银联快捷支付", "招行个人转账汇款转入", "RI网银贷记发起付款"])
        #expect(st.rows.map(\.amount.decimalString) == ["10000.00", "-4000.00", "5300.00", "-1.00"])
        #expect(st.warnings.isEmpty, "\(st.warnings)")
    }

    @Test func wrapInsideAWordJoinsWithoutInventedSpaces() throws {
        let s = CMBSyntheticStatement.v2024()
        let rows = [
            Row("2026-01-05", "CNY", "-88.00", "912.00", "快捷支付", counterparty: ["ALIPAY (CHI", "NA) NETWORK"], note: ["Mon", "thly fee"]),
            Row("2026-01-06", "CNY", "-12.00", "900.00", "快捷支付", counterparty: ["CHAN TAI MAN 004-123-456", "789-838"]),
        ]
        let st = try reconstruct(s.statement([rows]))
        #expect(st.rows.map(\.counterparty) == ["ALIPAY (CHINA) NETWORK", "CHAN TAI MAN 004-123-456789-838"])
        #expect(st.rows.map(\.note) == ["Monthly fee", nil])
        #expect(st.warnings.isEmpty)
    }

    @Test func identicalSameDayRowsStaySeparate() throws {
        let s = CMBSyntheticStatement.v2024()
        let twin = Row("2026-06-01", "CNY", "-98.19", "901.81", "快捷支付", counterparty: ["北京三快在线科技有限公司"])
        var second = twin
        second.balance = "803.62"
        let rows = [Row("2026-06-01", "CNY", "1,000.00", "1,000.00", "网联收款"), twin, second, second]
        var fixedThird = rows
        fixedThird[3].balance = "705.43"
        let st = try reconstruct(s.statement([fixedThird]))
        #expect(st.rows.count == 4)
        #expect(st.rows[1].amount == st.rows[2].amount && st.rows[2].amount == st.rows[3].amount)
        #expect(st.rows[1...].allSatisfy { $0.counterparty == "北京三快在线科技有限公司" && $0.date.iso == "2026-06-01" })
        #expect(st.rows.map(\.rowOnPage) == [1, 2, 3, 4])
        #expect(st.warnings.isEmpty)
        // Fully identical printed rows (same balance too) are still two rows.
        let dup = try reconstruct(s.statement([[twin, twin]]))
        #expect(dup.rows.count == 2)
        #expect(dup.rows[0].rawJSON == dup.rows[1].rawJSON)
    }

    @Test func multiCurrencyChainsAndTotals() throws {
        let s = CMBSyntheticStatement.v2024()
        let rows = [
            Row("2026-03-01", "CNY", "100.00", "1,100.00", "网联收款", counterparty: ["李四"]),
            Row("2026-03-01", "USD", "-20.00", "480.00", "快捷支付", counterparty: ["AMAZON WEB SERVICES"]),
            Row("2026-03-02", "HKD", "1,000.00", "3,000.00", "汇入汇款"),
            Row("2026-03-02", "CNY", "-50.50", "1,049.50", "快捷支付"),
            Row("2026-03-03", "USD", "5.25", "485.25", "快捷退款"),
        ]
        let totals = [("CNY", "100.00", "-50.50"), ("HKD", "1,000.00", "-0.00"), ("USD", "5.25", "-20.00")]
        let st = try reconstruct(s.statement([rows], totals: totals))
        #expect(st.rows.map(\.currency) == ["CNY", "USD", "HKD", "CNY", "USD"])
        #expect(st.rows.map(\.balance.currency) == ["CNY", "USD", "HKD", "CNY", "USD"])
        #expect(st.currencies == ["CNY", "USD", "HKD"])
        #expect(st.totals.map(\.currency) == ["CNY", "HKD", "USD"])
        #expect(st.totals.map(\.income.minorUnits) == [10000, 100000, 525])
        #expect(st.totals.map(\.expense.minorUnits) == [-5050, 0, -2000])
        #expect(st.warnings.isEmpty, "\(st.warnings)")

        // Totals that disagree with the rows are reported, rows unchanged.
        let wrong = try reconstruct(s.statement([rows], totals: [("CNY", "100.00", "-50.00"), ("USD", "5.25", "-20.00")]))
        #expect(wrong.rows.map(\.amount) == st.rows.map(\.amount))
        #expect(wrong.warnings.map(\.message).contains { $0.contains("合并统计 CNY expense -50.00") && $0.contains("-50.50") })
        #expect(wrong.warnings.map(\.message).contains { $0.contains("HKD") })
        #expect(wrong.warnings.count == 2)
    }

    @Test(arguments: [UInt64(1), 2, 3, 42, 2024])
    func streamOrderDoesNotMatter(seed: UInt64) throws {
        let s = CMBSyntheticStatement.v2024()
        let rows =
            Self.basicRows + [
                Row(
                    "2026-06-05", "CNY", "-3,000.00", "-2,725.58", "转账汇款",
                    counterparty: ["北京某某某某科技有限公司", "110912345610201"], note: ["代付北京某某科技有", "限公司办公室租金及", "物业费押金"])
            ]
        let pages = s.statement([rows, Self.basicRows])
        let ordered = try reconstruct(pages)
        let shuffled = try reconstruct(pages.enumerated().map { $1.shuffled(seed: seed &+ UInt64($0)) })
        #expect(ordered.rows.count == 11)
        #expect(shuffled.rows == ordered.rows)
        #expect(shuffled.header == ordered.header)
        #expect(shuffled.declaredPageCount == 2)
    }

    @Test func pageMarkerAndClosingNoticeBeforeTheTableInStreamOrder() throws {
        let s = CMBSyntheticStatement.v2020()
        var pages = s.statement([
            [Row("2020-03-27", "人民币", "50,000.00", "51,982.45", "RI网银贷记接收收款", counterparty: ["某某"])],
            [
                Row(
                    "2020-03-28", "人民币", "-1.88", "51,980.57", "快捷支付",
                    counterparty: ["待清算电子交换汇差-网联待", "清算资金-借记卡核算专户"])
            ],
        ])
        // Move the furniture (marker, notice) to the front of the content stream.
        for i in pages.indices {
            let noticeY = pages[i].items.first { $0.text == "本" }?.y0 ?? .infinity
            let isFurniture = { (t: PositionedText) in t.y0 > 700 || t.y0 >= noticeY - 0.01 }
            pages[i].items = pages[i].items.filter(isFurniture) + pages[i].items.filter { !isFurniture($0) }
            #expect(pages[i].items.first.map(isFurniture) == true)
        }
        let st = try reconstruct(pages)
        #expect(st.rows.count == 2)
        #expect(st.rows[1].counterparty == "待清算电子交换汇差-网联待清算资金-借记卡核算专户")
        #expect(st.rows[1].page == 2 && st.rows[1].rowOnPage == 1)
        #expect(st.declaredPageCount == 2)
        #expect(st.warnings.isEmpty, "\(st.warnings)")
    }

    @Test func threeLineCellsNextToEachOther() throws {
        let s = CMBSyntheticStatement.v2024()
        let rows = [
            Row(
                "2026-06-04", "CNY", "-3,000.00", "7,000.00", "转账汇款",
                counterparty: ["北京某某某某科技有限公司", "110912345610201"], note: ["代付北京某某科技有", "限公司办公室租金及", "物业费押金"]),
            Row(
                "2026-06-05", "CNY", "2,000.00", "9,000.00", "汇入汇款",
                counterparty: ["北京某某某某信息技术服务", "有限公司 110912345610201", "234"], note: ["2026年第一季度差旅", "费用报销款"]),
            Row("2026-06-05", "CNY", "-1.00", "8,999.00", "快捷支付", counterparty: ["某某便利店"]),
        ]
        let st = try reconstruct(s.statement([rows]))
        #expect(
            st.rows.map(\.counterparty) == [
                "北京某某某某科技有限公司110912345610201",
                "北京某某某某信息技术服务有限公司 110912345610201234", "某某便利店",
            ])
        #expect(st.rows.map(\.note) == ["代付北京某某科技有限公司办公室租金及物业费押金", "2026年第一季度差旅费用报销款", nil])
        #expect(st.warnings.isEmpty)
    }

    @Test func threeLineCellsWithConstantPitch2020() throws {
        let s = CMBSyntheticStatement.v2020()
        let rows = [
            Row("2019-05-01", "人民币", "-1.00", "99.00", "快捷支付", counterparty: ["一二三四五六七八九十甲乙", "丙丁戊己庚辛壬癸子丑寅卯", "辰巳"]),
            Row("2019-05-01", "人民币", "-2.00", "97.00", "快捷支付", counterparty: ["待清算电子交换汇差-网联待", "清算资金-借记卡核算专户"]),
        ]
        let st = try reconstruct(s.statement([rows]))
        #expect(st.rows.map(\.counterparty) == ["一二三四五六七八九十甲乙丙丁戊己庚辛壬癸子丑寅卯辰巳", "待清算电子交换汇差-网联待清算资金-借记卡核算专户"])
    }

    @Test func balanceBreakIsReportedWithPageAndRow() throws {
        let s = CMBSyntheticStatement.v2024()
        var second = Self.basicRows
        second[0] = Row("2026-06-05", "CNY", "-1.00", "273.42", "快捷支付")
        second[1] = Row("2026-06-05", "CNY", "-1.00", "300.00", "快捷支付") // should be 272.42
        second[2] = Row("2026-06-06", "CNY", "-10.00", "290.00", "快捷支付")
        let st = try reconstruct(s.statement([Self.basicRows, Array(second.prefix(3))]))
        let breaks = st.warnings.filter { $0.message.hasPrefix("balance chain break") }
        #expect(breaks.count == 1)
        #expect(breaks.first?.locator == Locator(page: 2, row: 2))
        #expect(breaks.first?.message.contains("272.42") == true)
        #expect(st.rows[6].balance.minorUnits == 30000) // data unchanged
        #expect(st.warnings.count == 1)
    }

    @Test func pageCountMismatchIsReported() throws {
        let s = CMBSyntheticStatement.v2024()
        let st = try reconstruct(s.statement([Self.basicRows, Self.basicRows], markerTotal: 3))
        #expect(st.declaredPageCount == 3)
        #expect(st.pageCount == 2)
        #expect(st.warnings.contains { $0.message.contains("declares 3 pages") && $0.message.contains("2 were read") })
    }

    @Test func columnsAreDerivedPerPage() throws {
        let s = CMBSyntheticStatement.v2024()
        var pages = s.statement([Self.basicRows, []])
        // Page 2 with columns 30 pt further right and no 客户摘要 column.
        let lefts: [Double?] = s.columnLefts.enumerated().map { i, x in i == 6 ? nil : x.map { $0 + 30 } }
        let (header, below) = s.columnHeader(top: 40, lefts: lefts)
        let (rows, _) = s.rows(
            [Row("2026-06-07", "CNY", "-7.00", "267.42", "快捷支付", counterparty: ["某某便利店", "第二分店"])],
            top: below, lefts: lefts)
        pages[1].items = header + rows + s.pageMarker(2, 2)
        let st = try reconstruct(pages)
        #expect(st.rows.count == 6)
        let last = try #require(st.rows.last)
        #expect(last.page == 2)
        #expect(last.amount.minorUnits == -700 && last.balance.minorUnits == 26742)
        #expect(last.counterparty == "某某便利店第二分店")
        #expect(last.note == nil)
        #expect(st.warnings.isEmpty, "\(st.warnings)")
    }

    @Test func wordLevelItemsWork() throws {
        // Extractors that report words (PDFKit) rather than glyphs.
        let s = CMBSyntheticStatement.v2024()
        let glyphPages = s.statement([Self.basicRows])
        let words = glyphPages.map { page -> TextPage in
            var merged: [PositionedText] = []
            for g in page.items {
                if var last = merged.last, abs(last.y0 - g.y0) < 0.01, abs(last.x1 - g.x0) < 0.01 {
                    last.text += g.text
                    last.x1 = g.x1
                    merged[merged.count - 1] = last
                } else {
                    merged.append(g)
                }
            }
            return TextPage(number: page.number, width: page.width, height: page.height, items: merged)
        }
        #expect(words[0].items.count < glyphPages[0].items.count / 3)
        let a = try reconstruct(glyphPages)
        let b = try reconstruct(words)
        #expect(a.rows == b.rows)
        #expect(a.header == b.header)
    }

    @Test func spacedHeaderLabels() throws {
        let s = CMBSyntheticStatement.v2024()
        var pages = s.statement([Self.basicRows])
        // Replace 记账日期 / 交易金额 with widely spaced variants.
        let y = pages[0].items.first { $0.text == "记" }!.y0
        pages[0].items.removeAll { abs($0.y0 - y) < 0.01 && ["记", "账", "日", "期", "交", "易", "金", "额"].contains($0.text) && $0.x0 < 200 }
        pages[0].items += s.glyphs("记 账 日 期", x: 36, top: y) + s.glyphs("交 易 金 额", x: 135.4, top: y)
        let st = try reconstruct(pages)
        #expect(st.rows.count == 5)
        #expect(st.rows.map(\.amount.minorUnits) == [-500, 10000, -1559, -294223, 300000])
    }

    @Test func pageWithoutColumnHeaderBorrowsThePreviousColumns() throws {
        let s = CMBSyntheticStatement.v2024()
        var pages = s.statement([Self.basicRows, []])
        let (rows, _) = s.rows([Row("2026-06-07", "CNY", "-7.00", "267.42", "快捷支付", counterparty: ["某某便利店"])], top: 60)
        pages[1].items = rows + s.pageMarker(2, 2)
        let st = try reconstruct(pages)
        #expect(st.rows.count == 6)
        #expect(st.rows.last?.counterparty == "某某便利店")
        #expect(st.rows.last?.page == 2)
        #expect(st.warnings.map(\.message) == ["no column header on this page; columns of the previous page used"])
        #expect(st.warnings.first?.locator == Locator(page: 2))
    }

    @Test func cellThatReadsLikeAPageMarkerIsData() throws {
        let s = CMBSyntheticStatement.v2024()
        let rows = [Row("2026-06-01", "CNY", "-1.00", "99.00", "快捷支付", counterparty: ["1/2"], note: ["3/4"])]
        let st = try reconstruct(
            s.statement([
                rows,
                rows.map {
                    var r = $0; r.balance = "98.00"; return r
                },
            ]))
        #expect(st.rows.map(\.counterparty) == ["1/2", "1/2"])
        #expect(st.rows.map(\.note) == ["3/4", "3/4"])
        #expect(st.declaredPageCount == 2)
        #expect(st.warnings.isEmpty, "\(st.warnings)")
    }

    @Test func totalsOnAPageOfTheirOwn() throws {
        let s = CMBSyntheticStatement.v2024()
        var pages = s.statement([Self.basicRows, []], closing: false)
        let (totals, end) = s.totalsBlock(top: 60, lines: [("CNY", "3,100.00", "-2,962.82")])
        pages[1].items = totals + s.closingNotice(top: end + 10) + s.pageMarker(2, 2)
        let st = try reconstruct(pages)
        #expect(st.rows.count == 5)
        #expect(
            st.totals == [
                CMBStatement.CurrencyTotal(
                    currency: "CNY", income: Money(minorUnits: 310000, currency: "CNY"),
                    expense: Money(minorUnits: -296282, currency: "CNY"))
            ])
        #expect(st.declaredPageCount == 2)
        #expect(st.warnings.isEmpty, "\(st.warnings)")
    }

    @Test func unfamiliarEnglishLabelsAreStillHeader() throws {
        let s = CMBSyntheticStatement.v2024()
        var pages = s.statement([[]])
        let y = pages[0].items.first { $0.text == "记" }!.y0
        pages[0].items.removeAll { $0.y0 >= y - 0.01 && $0.y0 < 700 }
        let (header, below) = s.columnHeader(top: y, englishLabels: ["Booking Dt", "Ccy", "Amt", "Bal", "Narrative", "Payee", "Remark"])
        let (rows, _) = s.rows(
            [Row("2026-06-01", "CNY", "-5.00", "95.00", "快捷支付", counterparty: ["ACME GLOBAL", "TRADING"], note: ["Gift", "For Bob"])],
            top: below)
        pages[0].items += header + rows
        let st = try reconstruct(pages)
        #expect(st.rows.count == 1)
        #expect(st.rows.first?.counterparty == "ACME GLOBALTRADING")
        #expect(st.rows.first?.note == "GiftFor Bob")
        #expect(st.rows.first?.description == "快捷支付")
        #expect(st.warnings.isEmpty, "\(st.warnings)")
    }

    @Test func strayTextIsReportedNotGluedToARow() throws {
        let s = CMBSyntheticStatement.v2024()
        var pages = s.statement([Self.basicRows], closing: false)
        let lastDate = pages[0].items.filter { $0.text == "2" && $0.x0 < 40 }.map(\.y0).max()!
        pages[0].items += s.glyphs("孤立文字", x: 375.8, top: lastDate + 60)
        let st = try reconstruct(pages)
        #expect(st.rows.map(\.counterparty) == Self.basicRows.map { $0.counterparty.isEmpty ? nil : $0.counterparty.joined() })
        #expect(st.warnings.map(\.message) == ["text outside any row ignored: 孤立文字"])
        #expect(st.warnings.first?.locator == Locator(page: 1))
    }

    @Test func pageMarkerOnTheBaselineOfALastWrappedLine() throws {
        // The last row's second 对手信息 line shares its baseline with the `1/1` marker.
        let s = CMBSyntheticStatement.v2020()
        var pages = s.statement([[]], closing: false)
        let rows = [
            Row("2019-03-28", "人民币", "-1.00", "99.00", "快捷支付", counterparty: ["某某"]),
            Row("2019-03-28", "人民币", "-2.00", "97.00", "快捷支付", counterparty: ["待清算电子交换汇差-网联待", "清算资金"]),
        ]
        let (items, _) = s.rows(rows, top: 799.4 - 13.6 - 27.2)
        pages[0].items += items
        let markerTop = try #require(pages[0].items.last { $0.text == "/" }).y0
        #expect(items.contains { $0.text == "清" && abs($0.y0 - markerTop) < 0.5 })
        let st = try reconstruct(pages)
        #expect(st.rows.map(\.counterparty) == ["某某", "待清算电子交换汇差-网联待清算资金"])
        #expect(st.declaredPageCount == 1)
        #expect(st.warnings.isEmpty, "\(st.warnings)")
    }
}
