import MoneyFlowCore
import MoneyFlowTestSupport

/// Builds CMB statement pages as positioned glyphs (what the PDF layer produces), for testing the
/// reconstruction without PDFs. Geometry follows the real layouts: columns left-aligned under the
/// header labels, wrapped cells vertically centred on their row, one glyph per character with
/// whitespace dropped (a space is just a gap), page marker bottom right.
struct CMBSyntheticStatement {
    enum Layout { case v2020, v2024 }

    struct Row {
        var date: String
        var currency: String
        var amount: String
        var balance: String
        var description: [String]
        /// Printed lines of 对手信息, top to bottom (empty = blank cell).
        var counterparty: [String]
        /// Printed lines of 客户摘要.
        var note: [String]

        init(
            _ date: String, _ currency: String, _ amount: String, _ balance: String, _ description: String,
            counterparty: [String] = [], note: [String] = [], descriptionLines: [String]? = nil
        ) {
            self.date = date; self.currency = currency; self.amount = amount; self.balance = balance
            self.description = descriptionLines ?? [description]; self.counterparty = counterparty; self.note = note
        }
    }

    var layout: Layout
    var fontSize: Double
    /// Left edges of 记账日期, 货币, 交易金额, 联机余额, 交易摘要, 对手信息, 客户摘要 (nil = column absent).
    var columnLefts: [Double?]
    /// Constant row pitch (2020) or nil for rows sized by their tallest cell (2024).
    var fixedPitch: Double?
    var lineSpacing: Double

    static func v2024(fontSize: Double = 8.25, withNote: Bool = true) -> CMBSyntheticStatement {
        CMBSyntheticStatement(
            layout: .v2024, fontSize: fontSize,
            columnLefts: [36.0, 88.3, 135.4, 213.8, 292.2, 375.8, withNote ? 480.3 : nil],
            fixedPitch: nil, lineSpacing: fontSize * 1.18)
    }

    static func v2020() -> CMBSyntheticStatement {
        CMBSyntheticStatement(
            layout: .v2020, fontSize: 10,
            columnLefts: [28.33, 92.93, 165.75, 235.45, 304.3, 437.18, nil],
            fixedPitch: 27.2, lineSpacing: 10.2)
    }

    // MARK: glyphs

    /// Glyph advance: CJK and full-width forms take a full em, the rest half an em.
    func advance(_ s: Unicode.Scalar, size: Double) -> Double {
        s.value >= 0x2E80 ? size : size * 0.5
    }

    /// One item per non-whitespace scalar of `text`, starting at `x`, glyph box top at `top`.
    func glyphs(_ text: String, x: Double, top: Double, size: Double? = nil) -> [PositionedText] {
        let size = size ?? fontSize
        var out: [PositionedText] = []
        var cx = x
        for s in text.unicodeScalars {
            let w = advance(s, size: size)
            if s != " " && s != "\u{3000}" {
                out.append(PositionedText(text: String(s), x0: cx, y0: top, x1: cx + w, y1: top + size, fontSize: size))
            }
            cx += w
        }
        return out
    }

    func width(_ text: String) -> Double { text.unicodeScalars.reduce(0) { $0 + advance($1, size: fontSize) } }

    // MARK: page parts

    struct Header {
        var name = "张三"
        var account = "6214********8705"
        var type = "ALL/全币种"
        var branch = "北京中关村支行"
        var period = ("2026-06-01", "2026-06-14")
        var appliedAt = "2026-06-16 17:44:37"
        var verificationCode = "EF92MHFC"
        var serial = "a1b2c3d4-0000-1111-2222-333344445555"
    }

    /// Header block of page 1; returns items and the y below it.
    func headerBlock(_ h: Header, top: Double = 50) -> ([PositionedText], Double) {
        var items: [PositionedText] = []
        let size = fontSize
        let left = columnLefts[0]!
        let right = columnLefts[layout == .v2024 ? 4 : 3]! + 20
        items += glyphs("招商银行交易流水", x: 250, top: top, size: size * 1.2)
        items += glyphs("Transaction Statement of China Merchants Bank", x: 185, top: top + 2 * size)
        items += glyphs("\(h.period.0) -- \(h.period.1)", x: 237, top: top + 4 * size)
        var y = top + 7 * size
        func pair(_ l: String, _ lv: String, _ le: String, _ r: String, _ rv: String, _ re: String) {
            items += glyphs(l, x: left, top: y)
            items += glyphs(lv, x: left + 5.5 * size, top: y)
            items += glyphs(r, x: right, top: y)
            items += glyphs(rv, x: right + width(r) + 0.4 * size, top: y)
            items += glyphs(le, x: left, top: y + 1.7 * size)
            items += glyphs(re, x: right, top: y + 1.7 * size)
            y += 4 * size
        }
        pair("户      名：", h.name, "Name", "账号：", h.account, "Account No")
        pair("账户类型：", h.type, "Account Type", "开 户 行：", h.branch, "Sub Branch")
        if layout == .v2024 {
            pair("申请时间：", h.appliedAt, "Date", "验 证 码：", h.verificationCode, "Verification Code")
        } else {
            pair("电子流水号：", h.serial, "Serial No", "", "", "")
        }
        return (items, y + size)
    }

    /// Column header (Chinese labels over English ones); returns items and the y below it.
    func columnHeader(
        top: Double, lefts: [Double?]? = nil, chineseLabels: [String]? = nil,
        englishLabels: [String]? = nil
    ) -> ([PositionedText], Double) {
        let lefts = lefts ?? columnLefts
        let chinese = chineseLabels ?? ["记账日期", "货币", "交易金额", "联机余额", "交易摘要", "对手信息", "客户摘要"]
        let english = englishLabels ?? ["Date", "Currency", "Amount", "Balance", "Transaction Type", "Counter Party", "Customer Type"]
        var items: [PositionedText] = []
        let step = fontSize * 1.04
        for (i, left) in lefts.enumerated() {
            guard let left else { continue }
            items += glyphs(chinese[i], x: left, top: top)
            items += glyphs(english[i], x: left, top: top + 2 * step)
        }
        items += glyphs(layout == .v2020 ? "Transation" : "Transaction", x: lefts[2]!, top: top + step)
        return (items, top + 3 * step + fontSize * 0.4)
    }

    /// Rows starting at `top`; returns items and the y below the last row.
    func rows(_ rows: [Row], top: Double, lefts: [Double?]? = nil) -> ([PositionedText], Double) {
        let lefts = lefts ?? columnLefts
        var items: [PositionedText] = []
        var y = top
        for r in rows {
            let lines = max(1, r.counterparty.count, r.note.count, r.description.count)
            let height = fixedPitch ?? (Double(lines) * lineSpacing + 0.6 * fontSize)
            let centre = y + height / 2
            func cell(_ fragments: [String], _ column: Int) {
                guard let left = lefts[column], !fragments.isEmpty else { return }
                let n = Double(fragments.count)
                for (k, f) in fragments.enumerated() {
                    let mid = centre + (Double(k) - (n - 1) / 2) * lineSpacing
                    items += glyphs(f, x: left, top: mid - fontSize / 2)
                }
            }
            cell([r.date], 0)
            cell([r.currency], 1)
            cell([r.amount], 2)
            cell([r.balance], 3)
            cell(r.description, 4)
            cell(r.counterparty, 5)
            cell(r.note, 6)
            y += height
        }
        return (items, y)
    }

    func pageMarker(_ n: Int, _ m: Int) -> [PositionedText] {
        glyphs("\(n)/\(m)", x: 546.67, top: 799.5)
    }

    func closingNotice(top: Double) -> [PositionedText] {
        let left = columnLefts[0]!
        if layout == .v2020 {
            return glyphs("本交易流水因不可预测的非人控技术原因导致可能产生缺失，流水内容仅供参考。", x: left, top: top)
        }
        return glyphs(String(repeating: "—", count: 30), x: left, top: top)
            + glyphs("温馨提示：", x: left, top: top + 1.5 * fontSize)
            + glyphs("1.交易流水验真：进入一网通首页（www.cmbchina.com），点击“交易流水验真”", x: left, top: top + 3 * fontSize)
    }

    func totalsBlock(top: Double, lines: [(String, String, String)]) -> ([PositionedText], Double) {
        let left = columnLefts[0]!
        var items = glyphs("合并统计", x: left, top: top)
        var y = top + 2.5 * fontSize
        for (cur, income, expense) in lines {
            items += glyphs(cur, x: left, top: y)
            items += glyphs(income, x: left + 80, top: y)
            items += glyphs(expense, x: left + 200, top: y)
            y += 1.5 * fontSize
        }
        return (items, y)
    }

    /// A whole statement: header on page 1, `pages` lists the rows of each page.
    func statement(
        _ pages: [[Row]], header: Header = Header(), totals: [(String, String, String)]? = nil,
        markerTotal: Int? = nil, closing: Bool = true
    ) -> [TextPage] {
        var out: [TextPage] = []
        for (i, pageRows) in pages.enumerated() {
            var items: [PositionedText] = []
            var y = 36.0
            if i == 0 {
                let (h, below) = headerBlock(header)
                items += h
                y = below + fontSize
            }
            let (ch, below) = columnHeader(top: y)
            items += ch
            let (rs, end) = rows(pageRows, top: below)
            items += rs
            var tail = end + 3 * fontSize
            if i == pages.count - 1 {
                if let totals {
                    let (t, e) = totalsBlock(top: tail, lines: totals)
                    items += t
                    tail = e + fontSize
                }
                if closing { items += closingNotice(top: tail) }
            }
            items += pageMarker(i + 1, markerTotal ?? pages.count)
            out.append(TextPage(number: i + 1, width: 595, height: 842, items: items))
        }
        return out
    }
}

extension TextPage {
    /// The same page with its items in a random (seeded) order.
    func shuffled(seed: UInt64) -> TextPage {
        var rng = SplitMix64(seed: seed)
        var copy = self
        copy.items.shuffle(using: &rng)
        return copy
    }
}
