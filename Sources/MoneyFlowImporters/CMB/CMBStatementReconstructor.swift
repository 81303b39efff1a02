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
public struct CMBStatementReconstructor: Sendable {
    public init() {}

    /// Reconstructs the statement.
    ///
    /// - Parameters:
    ///   - pages: pages in document order.
    ///   - fileName: used in errors.
    /// - Throws: ``ImportError`` `.unrecognized` when no column header / account number is found,
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

// MARK: - Columns

enum CMBColumnKind: Int, CaseIterable {
    case date, currency, amount, balance, description, counterparty, note

    var labels: [[Unicode.Scalar]] {
        let words: [String]
        switch self {
        case .date: words = ["记账日期"]
        case .currency: words = ["货币", "币种"]
        case .amount: words = ["交易金额"]
        case .balance: words = ["联机余额"]
        case .description: words = ["交易摘要"]
        case .counterparty: words = ["对手信息"]
        case .note: words = ["客户摘要"]
        }
        return words.map { Array($0.unicodeScalars) }
    }

    var required: Bool { self != .counterparty && self != .note }

    /// Chinese column name, used in errors.
    var name: String {
        switch self {
        case .date: return "记账日期"
        case .currency: return "货币"
        case .amount: return "交易金额"
        case .balance: return "联机余额"
        case .description: return "交易摘要"
        case .counterparty: return "对手信息"
        case .note: return "客户摘要"
        }
    }
}

/// Column bands of one page, derived from its header row.
struct CMBColumns {
    /// Columns sorted left to right.
    var kinds: [CMBColumnKind]
    var lefts: [Double]
    /// Band i spans [boundaries[i], boundaries[i+1]); boundaries[0] = -inf.
    var boundaries: [Double]
    /// Top of the Chinese label line.
    var top: Double
    /// Bottom of the header block (Chinese labels plus English labels under them).
    var bottom: Double
    var lineHeight: Double

    @inline(__always)
    func band(_ x: Double) -> Int {
        var b = 0
        while b + 1 < boundaries.count && x >= boundaries[b + 1] { b += 1 }
        return b
    }

    func index(of kind: CMBColumnKind) -> Int? { kinds.firstIndex(of: kind) }
}

// MARK: - Work

/// Per-page intermediate result.
private struct CMBPageScan {
    var number: Int
    var lines: [CMBLine]
    var columns: CMBColumns?
    var columnsInherited = false
    /// Lines of each band inside the table region (band index -> lines).
    var bandLines: [[CMBLine]] = []
    var anchors: [CMBLine] = []
    /// Text in the 记账日期 band of the table that is not a date.
    var badDates: [CMBLine] = []
    var tableBottom = Double.infinity
    var marker: (n: Int, m: Int)?
}

private let englishHeaderWords: Set<String> = [
    "date", "currency", "transaction", "transation", "amount", "balance", "type", "counter", "party",
    "counterparty", "customer", "summary", "remark", "remarks", "note", "notes", "memo", "description",
    "posting", "info", "information", "of", "abstract", "trade", "online", "trans", "txn", "no", "name",
    "account", "detail", "details", "reference", "purpose", "opposite", "other", "side", "remaining",
]

private struct CMBWork {
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
                warnings.append(ImportWarning("no column header on this page; columns of the previous page used",
                                              at: Locator(page: scans[i].number)))
            }
        }
        guard let firstWithColumns = scans.firstIndex(where: { $0.columns != nil && !$0.columnsInherited }) else {
            throw ImportError(.unrecognized, file: fileName, problem: "not a CMB statement: no 招商银行交易流水 column header (记账日期 / 交易金额 / 联机余额)")
        }

        // Header block: page 1 above its column header (or the first page that has a column header).
        var header = parseHeader(scans[0])
        if header == nil && firstWithColumns != 0 { header = parseHeader(scans[firstWithColumns]) }
        guard let header else {
            throw ImportError(.unrecognized, file: fileName, locator: Locator(page: 1),
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
        return CMBStatement(header: h, rows: rows, totals: totals, declaredPageCount: declared,
                            pageCount: pages.count, warnings: warnings)
    }

    // MARK: page scan

    func scanPage(_ page: TextPage, previous: CMBColumns?) -> CMBPageScan {
        let lines = CMBGeometry.lines(CMBGeometry.glyphs(of: page))
        var scan = CMBPageScan(number: page.number, lines: lines)
        if let cols = findColumns(lines) {
            scan.columns = cols
        } else if var prev = previous {
            // No header on this page: reuse the previous bands for the whole page.
            prev.top = -Double.infinity
            prev.bottom = -Double.infinity
            scan.columns = prev
            scan.columnsInherited = true
        }
        guard let cols = scan.columns else {
            scan.marker = findMarker(lines, excluding: nil).map { ($0.n, $0.m) }
            return scan
        }
        // Bands of the table region: each line cut where the column bands meet.
        var bandLines = Array(repeating: [CMBLine](), count: cols.kinds.count)
        for l in lines where l.midY > cols.bottom && !l.glyphs.isEmpty {
            CMBGeometry.split(l, band: cols.band, into: &bandLines)
        }
        let dateBand = cols.index(of: .date)!
        var anchors: [CMBLine] = []
        for l in bandLines[dateBand] where CMBWork.parseDate(l.compact) != nil { anchors.append(l) }
        anchors.sort { $0.midY < $1.midY }

        // Furniture below the last row: closing notices, 合并统计, page marker.
        var tableBottom = Double.infinity
        let limit = anchors.last.map { $0.midY + 0.25 * $0.height } ?? cols.bottom
        for l in lines where l.midY > limit && isFurniture(l, columns: cols) {
            tableBottom = min(tableBottom, l.y0)
        }
        // The page marker is looked for outside the rows (never in a cell that reads like `1/2`).
        let marker = findMarker(lines, excluding: (scan.columnsInherited ? -Double.infinity : cols.top)...limit)
        scan.marker = marker.map { ($0.n, $0.m) }
        for b in bandLines.indices {
            // Cut the furniture, and the page marker when it shares a baseline with cell text.
            bandLines[b].removeAll { $0.midY >= tableBottom }
            guard let marker else { continue }
            for f in bandLines[b].indices {
                let frag = bandLines[b][f]
                guard frag.y0 <= marker.midY, frag.y1 >= marker.midY, frag.x1 >= marker.x0, frag.x0 <= marker.x1 else { continue }
                let rest = frag.glyphs.filter { g in !(g.x0 >= marker.x0 - 0.01 && g.x1 <= marker.x1 + 0.01 && g.y0 <= marker.midY && g.y1 >= marker.midY) }
                if rest.count != frag.glyphs.count { bandLines[b][f] = CMBLine(sortedGlyphs: rest[...]) }
            }
            bandLines[b].removeAll { $0.glyphs.isEmpty }
        }
        scan.badDates = bandLines[dateBand].filter { CMBWork.parseDate($0.compact) == nil }
        scan.bandLines = bandLines
        scan.anchors = anchors
        scan.tableBottom = tableBottom
        return scan
    }

    func findColumns(_ lines: [CMBLine]) -> CMBColumns? {
        let dateLabels = CMBColumnKind.date.labels
        for (i, line) in lines.enumerated() {
            guard dateLabels.contains(where: { line.contains($0) }) else { continue }
            // Labels may sit slightly higher or lower than 记账日期: look at nearby lines too.
            let near = lines.indices.filter { abs(lines[$0].midY - line.midY) <= 0.9 * max(line.height, 1) }
            var found: [(CMBColumnKind, Double)] = []
            var top = line.y0, bottom = line.y1
            for kind in CMBColumnKind.allCases {
                var hit: Double? = nil
                for j in near {
                    for label in kind.labels {
                        if let x = lines[j].find(label) {
                            hit = x
                            top = min(top, lines[j].y0); bottom = max(bottom, lines[j].y1)
                            break
                        }
                    }
                    if hit != nil { break }
                }
                if let hit { found.append((kind, hit)) } else if kind.required { found = []; break }
            }
            if found.isEmpty { continue }
            found.sort { $0.1 < $1.1 }
            let height = line.height
            // English labels under the Chinese ones.
            var k = i + 1
            while k < lines.count {
                let l = lines[k]
                if l.midY <= bottom { k += 1; continue }
                if l.y0 > bottom + 3.5 * height { break }
                if isEnglishHeaderLine(l, lefts: found.map(\.1)) { bottom = max(bottom, l.y1); k += 1; continue }
                break
            }
            let tol = 0.5 * max(line.size, height)
            var bounds: [Double] = [-Double.infinity]
            for c in found.dropFirst() { bounds.append(c.1 - tol) }
            return CMBColumns(kinds: found.map(\.0), lefts: found.map(\.1), boundaries: bounds,
                              top: top, bottom: bottom, lineHeight: height)
        }
        return nil
    }

    /// An English label line under the Chinese column labels: ASCII letters only, and either every
    /// word is a known label word or its pieces start at four or more of the column edges.
    func isEnglishHeaderLine(_ line: CMBLine, lefts: [Double]) -> Bool {
        for g in line.glyphs {
            let v = g.scalar.value
            let letter = (v >= 65 && v <= 90) || (v >= 97 && v <= 122)
            if !letter && !"/()-.&".unicodeScalars.contains(g.scalar) { return false }
        }
        let words = line.spacedText.lowercased().split(whereSeparator: { !$0.isLetter })
        guard !words.isEmpty else { return false }
        if words.allSatisfy({ englishHeaderWords.contains(String($0)) }) { return true }
        let tol = 0.6 * max(line.size, 1)
        let aligned = line.runs(gapFactor: 1.0).filter { run in lefts.contains { abs($0 - run.x0) <= tol } }.count
        return aligned >= 4
    }

    /// A line that ends the table: closing notice, rule, 合并统计, page marker, or text starting in
    /// the date band that is not a date.
    func isFurniture(_ line: CMBLine, columns: CMBColumns) -> Bool {
        for key in CMBWork.furnitureKeys where line.contains(key) { return true }
        let rule = line.glyphs.allSatisfy { "—─━-_=―–·.".unicodeScalars.contains($0.scalar) }
        if rule && line.glyphs.count >= 3 { return true }
        // A page marker alone ends the table; one sharing its baseline with cell text does not
        // (the marker itself is dropped from the cells by `scanPage`).
        let runs = line.runs(gapFactor: 1.0)
        if runs.allSatisfy({ CMBWork.parseMarker($0.compact) != nil }) { return true }
        if let first = line.glyphs.first, columns.band(first.x0) == columns.index(of: .date) {
            let dateRun = line.runs(gapFactor: 1.0).first!
            if CMBWork.parseDate(dateRun.compact) == nil && !looksLikeRow(line, columns: columns) { return true }
        }
        return false
    }

    /// True when the line carries an amount in both the 交易金额 and 联机余额 bands (a table row,
    /// whatever its date cell says).
    func looksLikeRow(_ line: CMBLine, columns: CMBColumns) -> Bool {
        guard let a = columns.index(of: .amount), let b = columns.index(of: .balance) else { return false }
        var parts = Array(repeating: [CMBLine](), count: columns.kinds.count)
        CMBGeometry.split(line, band: columns.band, into: &parts)
        func amount(_ band: Int) -> Bool {
            parts[band].contains { CMBWork.parseMinorUnits($0.compactText, exponent: 2) != nil }
        }
        return amount(a) && amount(b)
    }

    /// The lowest `N/M` run outside `region`, with the position of that run.
    func findMarker(_ lines: [CMBLine], excluding region: ClosedRange<Double>?) -> (n: Int, m: Int, midY: Double, x0: Double, x1: Double)? {
        var best: (n: Int, m: Int, midY: Double, x0: Double, x1: Double)? = nil
        for l in lines {
            if let region, region.contains(l.midY) { continue }
            for run in l.runs(gapFactor: 1.0) {
                if let nm = CMBWork.parseMarker(run.compact), best == nil || run.midY > best!.midY {
                    best = (nm.0, nm.1, run.midY, run.x0, run.x1)
                }
            }
        }
        return best
    }

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
            throw ImportError(.malformed, file: fileName, locator: Locator(page: s.number, row: row), column: "记账日期",
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
                throw ImportError(.malformed, file: fileName, locator: loc, column: "货币",
                                  problem: curText.isEmpty ? "missing currency" : "unknown currency '\(curText)'")
            }
            let amountText = text(.amount, spaced: false) ?? ""
            let balanceText = text(.balance, spaced: false) ?? ""
            let amount = try parseAmount(amountText, currency: currency, loc: loc, column: "交易金额")
            let balance = try parseAmount(balanceText, currency: currency, loc: loc, column: "联机余额")
            let description = text(.description) ?? ""
            let counterparty = text(.counterparty).flatMap { $0.isEmpty ? nil : $0 }
            let note = text(.note).flatMap { $0.isEmpty ? nil : $0 }
            rows.append(CMBStatement.Row(date: date, currency: currency, amount: amount, balance: balance,
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
        return Money(minorUnits: minor, currency: currency)
    }

    /// How the statement prints amounts: `,` groups anywhere after the first digit (the layout,
    /// not the grouping, proves a cell is an amount) and, as this reader always accepted, whole
    /// values up to 900,000,000,000,009 (above ``Money/maxMinorUnits``).
    static let amountSyntax = AmountSyntax(grouping: .anywhereAfterADigit, limit: .wholeUnits(900_000_000_000_010))

    /// Exact minor units of a printed amount (`-1,234.56`: optional sign, `,` groups, at most
    /// `exponent` fraction digits beyond which only zeros); nil when the text is not one.
    static func parseMinorUnits(_ text: String, exponent: Int) -> Int64? {
        guard looksLikeAmount(text) else { return nil }
        return try? Money.parseMinorUnits(text, exponent: exponent, syntax: amountSyntax)
    }

    /// `-1,234.56` / `1234.56` / `5`: optional minus, digits with `,` groups, optional fraction.
    static func looksLikeAmount(_ text: String) -> Bool {
        var s = Substring(text)
        if s.first == "-" || s.first == "+" { s = s.dropFirst() }
        guard let f = s.first, f.isASCII, f.isNumber else { return false }
        var dot = false
        for ch in s {
            if ch == "." { if dot { return false }; dot = true; continue }
            if ch == "," { if dot { return false }; continue }
            guard ch.isASCII, ch.isNumber else { return false }
        }
        return true
    }

    // MARK: header

    func parseHeader(_ scan: CMBPageScan) -> (value: CMBStatement.Header, layout: CMBStatement.Layout?)? {
        let top = scan.columns.map { $0.top } ?? Double.infinity
        var fields = CMBHeaderFields()
        for line in scan.lines where line.midY < top { fields.read(line.spacedText) }
        guard let account = fields.account, !account.isEmpty else { return nil }
        var layout: CMBStatement.Layout? = nil
        if fields.appliedAt != nil || fields.verificationCode != nil { layout = .v2024 }
        else if fields.serial != nil { layout = .v2020 }
        let header = CMBStatement.Header(name: fields.name, accountNumber: account, accountType: fields.accountType,
                                         branch: fields.branch, periodStart: fields.periodStart, periodEnd: fields.periodEnd,
                                         appliedAt: fields.appliedAt, serialNumber: fields.serial,
                                         verificationCode: fields.verificationCode, layout: layout ?? .v2024)
        return (header, layout)
    }

    // MARK: totals (合并统计)

    func parseTotals(_ scans: [CMBPageScan]) -> [CMBStatement.CurrencyTotal] {
        let label = Array("合并统计".unicodeScalars)
        var totals: [CMBStatement.CurrencyTotal] = []
        for s in scans {
            guard let start = s.lines.firstIndex(where: { $0.contains(label) }) else { continue }
            var found = 0
            var k = start
            while k < s.lines.count {
                let line = s.lines[k]
                var text = line.spacedText
                if k == start, let r = text.range(of: "合并统计") { text = String(text[r.upperBound...]) }
                if let t = CMBWork.parseTotalLine(text) {
                    totals.append(t); found += 1
                } else if k != start {
                    let compact = line.compactText
                    let isNotice = ["温馨提示", "本交易流水", "交易流水验真"].contains { compact.contains($0) }
                    let isDateRow = CMBWork.parseDate(Array(line.runs(gapFactor: 1.0).first?.compact ?? [])) != nil
                    if isNotice || isDateRow || (found > 0 && !CMBWork.isLabelLine(compact)) { break }
                    if k - start > 6 && found == 0 { break }
                }
                k += 1
            }
            if found > 0 { break }
        }
        return totals
    }

    static func isLabelLine(_ compact: String) -> Bool {
        !compact.unicodeScalars.contains { $0.properties.numericType != nil }
    }

    /// `CNY 2,183,210.75 -2,123,020.01` (currency, income, expense), tolerating labels around.
    static func parseTotalLine(_ text: String) -> CMBStatement.CurrencyTotal? {
        let tokens = text.split(whereSeparator: { $0 == " " || $0 == "：" || $0 == ":" || $0 == "|" }).map(String.init)
        var currency: String? = nil
        var amounts: [String] = []
        for t in tokens {
            if currency == nil, let c = CMBCurrency.isoCode(t) { currency = c; continue }
            if looksLikeAmount(t), t.contains(".") { amounts.append(t) }
        }
        guard let currency, amounts.count >= 2 else { return nil }
        let values = amounts.compactMap { a in parseMinorUnits(a, exponent: Money.exponent(for: currency)).map { Money(minorUnits: $0, currency: currency) } }
        guard values.count == amounts.count else { return nil }
        var income: Money? = nil
        var expense: Money? = nil
        if let neg = values.first(where: { $0.minorUnits < 0 }) {
            expense = neg
            income = values.first(where: { $0.minorUnits >= 0 })
        } else {
            income = values[0]
            expense = Money(minorUnits: -values[1].minorUnits, currency: currency)
        }
        guard let income, let expense else { return nil }
        return CMBStatement.CurrencyTotal(currency: currency, income: income, expense: expense)
    }

    // MARK: integrity

    mutating func checkPageMarkers(_ scans: [CMBPageScan]) -> Int? {
        let marked = scans.filter { $0.marker != nil }
        guard !marked.isEmpty else { return nil }
        var counts: [Int: Int] = [:]
        for s in marked { counts[s.marker!.m, default: 0] += 1 }
        let declared = counts.max { a, b in a.value != b.value ? a.value < b.value : a.key > b.key }!.key
        for s in scans {
            guard let mk = s.marker else {
                warnings.append(ImportWarning("no page marker N/\(declared) on this page", at: Locator(page: s.number)))
                continue
            }
            if mk.m != declared {
                warnings.append(ImportWarning("page marker \(mk.n)/\(mk.m) disagrees with \(declared) pages declared elsewhere",
                                              at: Locator(page: s.number)))
            }
            if mk.n != s.number {
                warnings.append(ImportWarning("page marker \(mk.n)/\(mk.m) printed on page \(s.number)",
                                              at: Locator(page: s.number)))
            }
        }
        if declared != scans.count {
            warnings.append(ImportWarning("the statement declares \(declared) pages (N/\(declared)) but \(scans.count) were read"))
        }
        return declared
    }

    /// CMB statements list rows oldest first; the chain is checked by the shared ``BalanceChain``.
    mutating func checkBalances(_ rows: [CMBStatement.Row]) {
        let entries = rows.map {
            BalanceChain.Entry(amount: $0.amount, balance: $0.balance, date: nil, locator: Locator(page: $0.page, row: $0.rowOnPage))
        }
        warnings += BalanceChain.check(entries, direction: .oldestFirst).breaks.map(\.warning)
    }

    mutating func checkTotals(_ rows: [CMBStatement.Row], _ totals: [CMBStatement.CurrencyTotal]) {
        guard !totals.isEmpty else { return }
        var income: [String: Int64] = [:]
        var expense: [String: Int64] = [:]
        var order: [String] = []
        for r in rows {
            if income[r.currency] == nil { order.append(r.currency); income[r.currency] = 0; expense[r.currency] = 0 }
            if r.amount.minorUnits >= 0 { income[r.currency]! += r.amount.minorUnits } else { expense[r.currency]! += r.amount.minorUnits }
        }
        var seen = Set<String>()
        for t in totals {
            seen.insert(t.currency)
            let inc = income[t.currency] ?? 0
            let exp = expense[t.currency] ?? 0
            if inc != t.income.minorUnits {
                warnings.append(ImportWarning("合并统计 \(t.currency) income \(t.income.decimalString) but rows sum to \(Money(minorUnits: inc, currency: t.currency).decimalString)"))
            }
            if exp != t.expense.minorUnits {
                warnings.append(ImportWarning("合并统计 \(t.currency) expense \(t.expense.decimalString) but rows sum to \(Money(minorUnits: exp, currency: t.currency).decimalString)"))
            }
        }
        for c in order where !seen.contains(c) {
            warnings.append(ImportWarning("合并统计 has no line for \(c), which has rows"))
        }
    }

    // MARK: small parsers

    static let furnitureKeys: [[Unicode.Scalar]] = ["合并统计", "温馨提示", "本交易流水", "交易流水验真", "一网通首页"].map { Array($0.unicodeScalars) }

    /// `YYYY-MM-DD` (also `/` or `.` separators), exactly.
    static func parseDate(_ s: [Unicode.Scalar]) -> LocalDate? {
        guard s.count == 10 else { return nil }
        return LocalDate(iso: String(String.UnicodeScalarView(s)), .exact(separators: "-/."))
    }

    /// `N/M` page marker.
    static func parseMarker(_ s: [Unicode.Scalar]) -> (Int, Int)? {
        guard let slash = s.firstIndex(of: "/"), slash > 0, slash < s.count - 1, s.count <= 11 else { return nil }
        var n = 0, m = 0
        for c in s[..<slash] { guard c.value >= 48 && c.value <= 57 else { return nil }; n = n * 10 + Int(c.value - 48) }
        for c in s[(slash + 1)...] { guard c.value >= 48 && c.value <= 57 else { return nil }; m = m * 10 + Int(c.value - 48) }
        guard n >= 1, m >= 1, n <= m else { return nil }
        return (n, m)
    }
}

// MARK: - Header fields

/// Label-driven reading of the header lines (two label/value pairs may share a line).
struct CMBHeaderFields {
    var name: String?
    var account: String?
    var accountType: String?
    var branch: String?
    var periodStart: LocalDate?
    var periodEnd: LocalDate?
    var appliedAt: String?
    var serial: String?
    var verificationCode: String?

    /// Labels (spaces allowed between their characters) followed by `：` or `:`.
    private static let labels: [(key: String, chars: String)] = [
        ("name", "户名"), ("account", "账号"), ("type", "账户类型"), ("branch", "开户行"),
        ("applied", "申请时间"), ("code", "验证码"), ("serial", "电子流水号"),
    ]

    mutating func read(_ line: String) {
        let scalars = Array(line.unicodeScalars)
        // Find every label occurrence: chars in order, separated only by spaces, then a colon.
        var hits: [(key: String, start: Int, valueStart: Int)] = []
        var i = 0
        while i < scalars.count {
            var matched = false
            for label in CMBHeaderFields.labels {
                let chars = Array(label.chars.unicodeScalars)
                var j = i, k = 0
                while k < chars.count && j < scalars.count {
                    if scalars[j] == chars[k] { j += 1; k += 1 } else if scalars[j] == " " && k > 0 { j += 1 } else { break }
                }
                guard k == chars.count else { continue }
                while j < scalars.count && scalars[j] == " " { j += 1 }
                guard j < scalars.count, scalars[j] == "：" || scalars[j] == ":" else { continue }
                hits.append((label.key, i, j + 1))
                i = j + 1
                matched = true
                break
            }
            if !matched { i += 1 }
        }
        for (n, hit) in hits.enumerated() {
            let end = n + 1 < hits.count ? hits[n + 1].start : scalars.count
            var v = String.UnicodeScalarView()
            if hit.valueStart < end { v.append(contentsOf: scalars[hit.valueStart..<end]) }
            let value = String(v).trimmed(.whitespacesAndNewlines)
            switch hit.key {
            case "name": name = value
            case "account":
                // Usually one token (`6214********8705`); keep a number printed in groups whole.
                let numberish = value.unicodeScalars.allSatisfy { ($0.value >= 48 && $0.value <= 57) || $0 == "*" || $0 == " " || $0 == "x" || $0 == "X" }
                account = numberish ? value : (value.split(separator: " ").first.map(String.init) ?? value)
            case "type": accountType = value
            case "branch": branch = value
            case "applied":
                let parts = value.split(separator: " ")
                appliedAt = parts.prefix(2).joined(separator: " ")
            case "code": verificationCode = value.split(separator: " ").first.map(String.init) ?? value
            case "serial": serial = value.split(separator: " ").first.map(String.init) ?? value
            default: break
            }
        }
        if hits.isEmpty, periodStart == nil {
            // Statement period `YYYY-MM-DD -- YYYY-MM-DD`, possibly after a label.
            let compact = Array(line.unicodeScalars.filter { $0 != " " })
            var i = 0
            while i + 21 <= compact.count {
                if let s = CMBWork.parseDate(Array(compact[i..<(i + 10)])) {
                    for sepLength in 1...3 where i + 10 + sepLength + 10 <= compact.count {
                        let sep = String(String.UnicodeScalarView(compact[(i + 10)..<(i + 10 + sepLength)]))
                        guard ["--", "-", "—", "——", "–", "~", "～", "至", "到"].contains(sep) else { continue }
                        let from = i + 10 + sepLength
                        if let e = CMBWork.parseDate(Array(compact[from..<(from + 10)])) {
                            periodStart = s; periodEnd = e
                            return
                        }
                    }
                }
                i += 1
            }
        }
    }
}
