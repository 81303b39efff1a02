import Foundation
import MoneyFlowCore

// MARK: - Column kinds and bands

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

let englishHeaderWords: Set<String> = [
    "date", "currency", "transaction", "transation", "amount", "balance", "type", "counter", "party",
    "counterparty", "customer", "summary", "remark", "remarks", "note", "notes", "memo", "description",
    "posting", "info", "information", "of", "abstract", "trade", "online", "trans", "txn", "no", "name",
    "account", "detail", "details", "reference", "purpose", "opposite", "other", "side", "remaining",
]

extension CMBWork {
    // MARK: finding the column header row

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
            return CMBColumns(
                kinds: found.map(\.0), lefts: found.map(\.1), boundaries: bounds,
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
}
