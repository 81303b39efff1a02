import MoneyFlowCore
import MoneyFlowImporters
import MoneyFlowTestSupport
import Testing

/// Randomised statements (font size, column positions, optional columns, wraps of 1-3 lines,
/// page count, currencies, stream order) must be reconstructed exactly.
@Suite("CMB random layouts")
struct CMBRandomLayoutTests {
    typealias Row = CMBSyntheticStatement.Row

    static let cjk = Array("北京上海广州深圳科技有限公司网络支付清算中心银行股份商贸服务餐饮管理信息技术工资房租水电费报销红包生活费".unicodeScalars)
    static let latin = ["ALIPAY", "TENPAY", "AMAZON", "WEB", "SERVICES", "CO", "LTD", "HK", "6222021234567890123", "(CHINA)", "No.5"]

    struct Case {
        var statement: CMBSyntheticStatement
        var pages: [[Row]]
        /// Expected (counterparty, note) per row, in order.
        var expected: [(String?, String?)]
    }

    /// Text split into printed lines that fit `width` points.
    static func wrapped(_ text: String, width: Double, s: CMBSyntheticStatement) -> [String] {
        var lines: [String] = []
        var current = ""
        for ch in text {
            let candidate = current + String(ch)
            if s.width(candidate) > width, !current.isEmpty {
                lines.append(current)
                current = ch == " " ? "" : String(ch)
            } else {
                current = candidate
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines.map { $0.trimmingSpaces() }.filter { !$0.isEmpty }
    }

    static func randomText(_ rng: inout SplitMix64, maxLength: Int) -> String {
        var out = ""
        let target = Int.random(in: 1...maxLength, using: &rng)
        while out.unicodeScalars.count < target {
            if Bool.random(using: &rng) {
                for _ in 0..<Int.random(in: 2...8, using: &rng) { out.unicodeScalars.append(cjk.randomElement(using: &rng)!) }
            } else {
                if !out.isEmpty && out.last != " " { out += " " }
                out += latin.randomElement(using: &rng)! + " "
            }
        }
        return out.trimmingSpaces().split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }

    static func makeCase(seed: UInt64) -> Case {
        var rng = SplitMix64(seed: seed)
        let size = Double.random(in: 7.5...10.5, using: &rng)
        let scale = size / 8.25
        let shift = Double.random(in: -8...8, using: &rng)
        let withNote = Bool.random(using: &rng)
        var s = CMBSyntheticStatement.v2024(fontSize: size, withNote: withNote)
        s.columnLefts = s.columnLefts.map { $0.map { 20 + ($0 - 36) * scale + shift + 16 } }
        if Bool.random(using: &rng) { s.fixedPitch = 3.3 * s.lineSpacing }
        let lefts = s.columnLefts
        let cpWidth = (lefts[6] ?? (lefts[5]! + 150 * scale)) - lefts[5]! - 0.6 * size
        let noteWidth = 10 * size
        var balances: [String: Int64] = ["CNY": 100_000, "USD": 5_000, "HKD": 20_000]
        var pages: [[Row]] = []
        var expected: [(String?, String?)] = []
        var day = 1
        for page in 0..<Int.random(in: 1...3, using: &rng) {
            var rows: [Row] = []
            // As many rows as fit above the footer (page 1 also holds the header block).
            var y = page == 0 ? 36 + 24 * size : 36 + 4 * size
            while y < 730 {
                let currency = ["CNY", "CNY", "USD", "HKD"].randomElement(using: &rng)!
                let amount = Int64.random(in: -900_000...900_000, using: &rng)
                let balance = balances[currency]! + amount
                func fmt(_ v: Int64) -> String {
                    let neg = v < 0
                    let m = v.magnitude
                    var whole = String(m / 100)
                    var grouped = ""
                    while whole.count > 3 { grouped = "," + whole.suffix(3) + grouped; whole = String(whole.dropLast(3)) }
                    let cents = m % 100
                    return (neg ? "-" : "") + whole + grouped + "." + (cents < 10 ? "0" : "") + String(cents)
                }
                var cp: [String] = []
                if Int.random(in: 0..<5, using: &rng) > 0 {
                    cp = Array(wrapped(randomText(&rng, maxLength: 30), width: cpWidth, s: s).prefix(3))
                }
                var note: [String] = []
                if withNote && Bool.random(using: &rng) {
                    note = Array(wrapped(randomText(&rng, maxLength: 24), width: noteWidth, s: s).prefix(3))
                }
                if Int.random(in: 0..<4, using: &rng) == 0 { day = min(day + 1, 28) }
                let date = "2026-03-" + (day < 10 ? "0" : "") + String(day)
                let lines = Double(max(1, cp.count, note.count))
                y += s.fixedPitch ?? (lines * s.lineSpacing + 0.6 * size)
                if y > 760 || (rows.count >= 1 && Int.random(in: 0..<12, using: &rng) == 0) { break }
                balances[currency] = balance
                rows.append(
                    Row(
                        date, currency, fmt(amount), fmt(balance),
                        ["快捷支付", "转账汇款", "网联收款", "代发工资"].randomElement(using: &rng)!,
                        counterparty: cp, note: note))
                expected.append((cp.isEmpty ? nil : cp.joined(), note.isEmpty ? nil : note.joined()))
            }
            pages.append(rows)
        }
        return Case(statement: s, pages: pages, expected: expected)
    }

    @Test(arguments: Array(UInt64(1)...UInt64(40)))
    func randomStatementReadsExactly(seed: UInt64) throws {
        let c = Self.makeCase(seed: seed)
        var pages = c.statement.statement(c.pages)
        if seed % 2 == 0 { pages = pages.enumerated().map { $1.shuffled(seed: seed * 31 + UInt64($0)) } }
        let st = try CMBStatementReconstructor().reconstruct(pages)
        let rows = c.pages.flatMap { $0 }
        #expect(st.rows.count == rows.count)
        for (i, (got, want)) in zip(st.rows, rows).enumerated() {
            #expect(got.date.iso == want.date, "row \(i)")
            #expect(got.currency == want.currency, "row \(i)")
            #expect(got.printed.amount == want.amount && got.printed.balance == want.balance, "row \(i)")
            #expect(got.description == want.description[0], "row \(i)")
            #expect(got.counterparty == c.expected[i].0, "row \(i)")
            #expect(got.note == c.expected[i].1, "row \(i)")
        }
        #expect(st.declaredPageCount == c.pages.count)
        #expect(st.warnings.isEmpty, "\(st.warnings)")
    }
}

extension String {
    fileprivate func trimmingSpaces() -> String {
        var s = Substring(self)
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
