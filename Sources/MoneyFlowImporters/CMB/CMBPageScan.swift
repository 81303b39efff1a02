import Foundation
import MoneyFlowCore

// MARK: - Work

/// Per-page intermediate result.
struct CMBPageScan {
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

extension CMBWork {
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
                let rest = frag.glyphs.filter { g in
                    !(g.x0 >= marker.x0 - 0.01 && g.x1 <= marker.x1 + 0.01 && g.y0 <= marker.midY && g.y1 >= marker.midY)
                }
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

    static let furnitureKeys: [[Unicode.Scalar]] = ["合并统计", "温馨提示", "本交易流水", "交易流水验真", "一网通首页"].map { Array($0.unicodeScalars) }

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
