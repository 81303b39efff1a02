import MoneyFlowCore

/// Columns of the bill's transaction table.
enum CMBCardColumnKind: CaseIterable {
    case sold, posted, description, amount, card, original

    /// Chinese label, as the header prints it (possibly wrapped over two lines).
    var label: String {
        switch self {
        case .sold: return "交易日"
        case .posted: return "记账日"
        case .description: return "交易摘要"
        case .amount: return "人民币金额"
        case .card: return "卡号末四位"
        case .original: return "交易地金额"
        }
    }

    var required: Bool { self == .posted || self == .description || self == .amount }
}

/// Column bands of one page, derived from where that page's header labels sit.
struct CMBCardColumns {
    var kinds: [CMBCardColumnKind]
    /// Band i spans [boundaries[i], boundaries[i+1]); boundaries[0] = -inf. Each boundary lies
    /// in the middle of the gap between two labels, so right-aligned amounts wider than their
    /// label and left-aligned text longer than its label both stay in their own column.
    var boundaries: [Double]
    /// Bottom of the header block (Chinese labels, their wrapped second lines, English labels).
    var bottom: Double

    func band(_ x: Double) -> Int {
        var b = 0
        while b + 1 < boundaries.count && x >= boundaries[b + 1] { b += 1 }
        return b
    }

    func index(of kind: CMBCardColumnKind) -> Int? { kinds.firstIndex(of: kind) }
}

extension CMBCardWork {
    /// Finds the column header: a line holding 交易日 or 记账日 and 交易摘要, plus the lines just
    /// above or below it that carry the rest of wrapped labels (`人民币` / `金额`). Labels are
    /// read per column: runs of those lines that overlap horizontally are one label, read top to
    /// bottom. English labels under them (ASCII only) belong to the header block.
    func findColumns(_ lines: [CMBLine]) -> (columns: CMBCardColumns, top: Double)? {
        let posted = Array("记账日".unicodeScalars), desc = Array("交易摘要".unicodeScalars)
        for (i, line) in lines.enumerated() where line.contains(posted) && line.contains(desc) {
            let h = max(line.height, 1)
            let near = lines.indices.filter { j in
                abs(lines[j].midY - line.midY) <= 1.6 * h && !CMBCardWork.isASCIIOnly(lines[j])
            }
            var clusters: [(x0: Double, x1: Double, runs: [CMBLine])] = []
            for j in near {
                for run in lines[j].runs(gapFactor: 1.0) {
                    if let c = clusters.firstIndex(where: { run.x0 < $0.x1 && run.x1 > $0.x0 }) {
                        clusters[c].x0 = min(clusters[c].x0, run.x0); clusters[c].x1 = max(clusters[c].x1, run.x1)
                        clusters[c].runs.append(run)
                    } else {
                        clusters.append((run.x0, run.x1, [run]))
                    }
                }
            }
            var found: [(kind: CMBCardColumnKind, x0: Double, x1: Double)] = []
            for c in clusters {
                let text = CMBLine.text(c.runs.sorted { $0.midY < $1.midY }, spaced: false)
                if let kind = CMBCardColumnKind.allCases.first(where: { $0.label == text }) { found.append((kind, c.x0, c.x1)) }
            }
            guard CMBCardColumnKind.allCases.allSatisfy({ k in !k.required || found.contains { $0.kind == k } }) else { continue }
            found.sort { $0.x0 < $1.x0 }
            var top = line.y0, bottom = line.y1
            for j in near { top = min(top, lines[j].y0); bottom = max(bottom, lines[j].y1) }
            var k = (near.max() ?? i) + 1
            while k < lines.count, lines[k].y0 <= bottom + 2.5 * h, CMBCardWork.isEnglishLabelLine(lines[k]) {
                bottom = max(bottom, lines[k].y1); k += 1
            }
            var bounds = [-Double.infinity]
            for n in 1..<found.count { bounds.append((found[n - 1].x1 + found[n].x0) / 2) }
            return (CMBCardColumns(kinds: found.map(\.kind), boundaries: bounds, bottom: bottom), top)
        }
        return nil
    }

    static func isASCIIOnly(_ line: CMBLine) -> Bool { line.glyphs.allSatisfy { $0.scalar.isASCII } }

    /// English column labels (`SOLD  POSTED  DESCRIPTION ...`): ASCII, and no date or amount in
    /// it, which every transaction row has (so an all-ASCII first row is never taken for labels).
    static func isEnglishLabelLine(_ line: CMBLine) -> Bool {
        isASCIIOnly(line)
            && !line.runs(gapFactor: 1.0).contains { run in
                parseMonthDay(run.compactText) != nil || CMBWork.parseMinorUnits(run.compactText, exponent: 2) != nil
            }
    }
}
