import Foundation

/// Plain-text tables aligned by terminal display width (CJK and full-width characters take two cells).
/// Every cell is shown through ``SafeText/escaped(_:)``: no control or bidi character from a
/// statement reaches the terminal raw.
public struct TextTable {
    public enum Align: Sendable { case left, right }
    public var headers: [String]
    public var align: [Align]
    public var rows: [[String]] = []

    public init(_ headers: [String], align: [Align]? = nil) {
        self.headers = headers
        self.align = align ?? headers.map { _ in .left }
    }

    public mutating func add(_ row: [String]) { rows.append(row) }

    public static func displayWidth(_ s: String) -> Int {
        var w = 0
        for u in s.unicodeScalars {
            let v = u.value
            if v < 0x20 || (0x300...0x36F).contains(v) { continue }
            if (0x1100...0x115F).contains(v) || (0x2E80...0xA4CF).contains(v) || (0xAC00...0xD7A3).contains(v)
                || (0xF900...0xFAFF).contains(v) || (0xFE30...0xFE4F).contains(v) || (0xFF00...0xFF60).contains(v)
                || (0xFFE0...0xFFE6).contains(v) || (0x20000...0x3FFFD).contains(v)
            {
                w += 2
            } else {
                w += 1
            }
        }
        return w
    }

    /// Truncates to at most `width` display cells, ending with `…` when cut. Cuts between
    /// characters of the raw text, so an escape (`\u{202E}`) is shown whole or not at all.
    public static func truncate(_ raw: String, to width: Int) -> String {
        let s = SafeText.escaped(raw)
        guard displayWidth(s) > width else { return s }
        var out = ""
        var w = 0
        for ch in raw {
            let piece = SafeText.escaped(String(ch))
            let cw = displayWidth(piece)
            if w + cw > width - 1 { break }
            out += piece; w += cw
        }
        return out + "…"
    }

    public func render() -> String {
        let all = ([headers] + rows).map { $0.map(SafeText.escaped) }
        var widths = [Int](repeating: 0, count: headers.count)
        for r in all { for (i, c) in r.enumerated() where i < widths.count { widths[i] = max(widths[i], Self.displayWidth(c)) } }
        func line(_ r: [String]) -> String {
            var parts: [String] = []
            for (i, c) in r.enumerated() where i < widths.count {
                let padding = String(repeating: " ", count: widths[i] - Self.displayWidth(c))
                parts.append(align[i] == .right ? padding + c : (i == r.count - 1 ? c : c + padding))
            }
            return parts.joined(separator: "  ")
        }
        var out = [line(all[0]), widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")]
        out += all.dropFirst().map(line)
        return out.joined(separator: "\n")
    }
}
