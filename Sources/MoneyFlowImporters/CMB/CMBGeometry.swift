import MoneyFlowCore

/// One glyph (Unicode scalar) with its box; internal working unit of the CMB reconstruction.
struct CMBGlyph {
    var scalar: Unicode.Scalar
    var x0: Double
    var x1: Double
    var y0: Double
    var y1: Double
    /// Font size when known, else the box height.
    var size: Double
    var midY: Double

    init(scalar: Unicode.Scalar, x0: Double, x1: Double, y0: Double, y1: Double, size: Double) {
        self.scalar = scalar; self.x0 = x0; self.x1 = x1; self.y0 = y0; self.y1 = y1; self.size = size
        self.midY = (y0 + y1) * 0.5
    }

    var height: Double { y1 - y0 }
}

/// Glyphs sharing a baseline, sorted left to right. Holds a slice, so cutting a line into
/// pieces (runs, column cells) allocates nothing.
struct CMBLine {
    var glyphs: ArraySlice<CMBGlyph>
    var y0: Double
    var y1: Double
    var midY: Double
    /// Typical glyph height of the line.
    var height: Double
    /// Typical font size of the line.
    var size: Double

    var x0: Double { glyphs.first?.x0 ?? 0 }
    var x1: Double { glyphs.last?.x1 ?? 0 }

    init(glyphs unsorted: [CMBGlyph]) {
        var gs = unsorted
        if gs.count > 1 { gs.sort { $0.x0 < $1.x0 } }
        self.init(sortedGlyphs: gs[...])
    }

    /// `glyphs` must be sorted by x0.
    init(sortedGlyphs gs: ArraySlice<CMBGlyph>) {
        glyphs = CMBLine.droppingOverprint(gs)
        var lo = Double.infinity, hi = -Double.infinity, sum = 0.0, hsum = 0.0, ssum = 0.0
        for g in glyphs {
            lo = min(lo, g.y0); hi = max(hi, g.y1); sum += g.midY
            hsum += g.height; ssum += g.size
        }
        let n = Double(max(glyphs.count, 1))
        y0 = lo; y1 = hi
        midY = sum / n
        height = hsum / n
        size = ssum / n
    }

    /// Drops overprinted duplicates (text drawn twice to simulate bold); copies only if any.
    static func droppingOverprint(_ gs: ArraySlice<CMBGlyph>) -> ArraySlice<CMBGlyph> {
        func dup(_ p: CMBGlyph, _ g: CMBGlyph) -> Bool {
            p.scalar == g.scalar && abs(p.x0 - g.x0) < 0.1 * max(g.size, 1) && abs(p.midY - g.midY) < 0.1 * max(g.size, 1)
        }
        var i = gs.startIndex + 1
        var found = false
        while i < gs.endIndex { if dup(gs[i - 1], gs[i]) { found = true; break }; i += 1 }
        guard found else { return gs }
        var kept: [CMBGlyph] = []
        kept.reserveCapacity(gs.count)
        for g in gs where kept.last.map({ !dup($0, g) }) ?? true { kept.append(g) }
        return kept[...]
    }

    /// All scalars, no spaces.
    var compact: [Unicode.Scalar] { glyphs.map(\.scalar) }

    /// The text without any spaces.
    var compactText: String { text(spaced: false) }

    /// The text with one space wherever the gap between two glyphs is wider than a fraction of
    /// the font size (where the PDF had a space, since whitespace glyphs are not extracted).
    var spacedText: String { text(spaced: true) }

    func text(spaced: Bool) -> String {
        CMBLine.text([self], spaced: spaced)
    }

    /// The texts of `lines` joined without separators (wrapped fragments of one cell).
    static func text(_ lines: [CMBLine], spaced: Bool) -> String {
        var capacity = 1
        for l in lines { capacity += l.glyphs.count * 5 }
        return String(unsafeUninitializedCapacity: capacity) { buf in
            var n = 0
            for line in lines {
                var first = true
                var prevX1 = 0.0, prevSize = 0.0
                for g in line.glyphs {
                    if spaced, !first, g.x0 - prevX1 > CMBGeometry.spaceFactor * max(prevSize, g.size) { buf[n] = 0x20; n += 1 }
                    first = false
                    let v = g.scalar.value
                    if v < 0x80 {
                        buf[n] = UInt8(v); n += 1
                    } else if v < 0x800 {
                        buf[n] = UInt8(0xC0 | (v >> 6)); buf[n + 1] = UInt8(0x80 | (v & 0x3F)); n += 2
                    } else if v < 0x10000 {
                        buf[n] = UInt8(0xE0 | (v >> 12)); buf[n + 1] = UInt8(0x80 | ((v >> 6) & 0x3F))
                        buf[n + 2] = UInt8(0x80 | (v & 0x3F)); n += 3
                    } else {
                        buf[n] = UInt8(0xF0 | (v >> 18)); buf[n + 1] = UInt8(0x80 | ((v >> 12) & 0x3F))
                        buf[n + 2] = UInt8(0x80 | ((v >> 6) & 0x3F)); buf[n + 3] = UInt8(0x80 | (v & 0x3F)); n += 4
                    }
                    prevX1 = g.x1; prevSize = g.size
                }
            }
            return n
        }
    }

    /// Pieces of the line separated by gaps wider than `factor` times the font size.
    func runs(gapFactor factor: Double) -> [CMBLine] {
        var out: [CMBLine] = []
        guard var start = glyphs.indices.first else { return out }
        var i = start + 1
        while i < glyphs.endIndex {
            let p = glyphs[i - 1], g = glyphs[i]
            if g.x0 - p.x1 > factor * max(p.size, g.size) {
                out.append(CMBLine(sortedGlyphs: glyphs[start..<i]))
                start = i
            }
            i += 1
        }
        out.append(CMBLine(sortedGlyphs: glyphs[start..<glyphs.endIndex]))
        return out
    }

    /// x0 of the first glyph of the first occurrence of `label` in the line (spaces ignored).
    func find(_ label: [Unicode.Scalar]) -> Double? {
        guard !label.isEmpty, glyphs.count >= label.count else { return nil }
        var i = glyphs.startIndex
        while i + label.count <= glyphs.endIndex {
            var j = 0
            while j < label.count && glyphs[i + j].scalar == label[j] { j += 1 }
            if j == label.count { return glyphs[i].x0 }
            i += 1
        }
        return nil
    }

    func contains(_ label: [Unicode.Scalar]) -> Bool { find(label) != nil }
}

enum CMBGeometry {
    /// A gap wider than this fraction of the font size is a space.
    static let spaceFactor = 0.15

    static func median(_ values: inout [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        values.sort()
        return values[values.count / 2]
    }

    /// Glyphs of a page, whitespace dropped. Items holding several scalars (words) are split into
    /// per-scalar glyphs with evenly interpolated x positions.
    static func glyphs(of page: TextPage) -> [CMBGlyph] {
        var out: [CMBGlyph] = []
        out.reserveCapacity(page.items.count)
        for item in page.items {
            let scalars = item.text.unicodeScalars
            let height = item.y1 - item.y0
            let size = item.fontSize > 0 ? item.fontSize : height
            var it = scalars.makeIterator()
            guard let first = it.next() else { continue }
            if it.next() == nil {
                if isSpace(first) { continue }
                out.append(CMBGlyph(scalar: first, x0: item.x0, x1: item.x1, y0: item.y0, y1: item.y1, size: size))
                continue
            }
            let count = scalars.count
            let w = (item.x1 - item.x0) / Double(count)
            for (k, s) in scalars.enumerated() where !isSpace(s) {
                let gx = item.x0 + w * Double(k)
                out.append(CMBGlyph(scalar: s, x0: gx, x1: gx + w, y0: item.y0, y1: item.y1, size: size))
            }
        }
        return out
    }

    @inline(__always)
    static func isSpace(_ s: Unicode.Scalar) -> Bool {
        let v = s.value
        if v < 0x80 { return v <= 0x20 || v == 0x7F }
        switch v {
        case 0x85, 0xA0, 0x1680, 0x2000...0x200B, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF: return true
        default: return false
        }
    }

    /// Groups glyphs into lines by vertical centre (independent of content-stream order).
    static func lines(_ glyphs: [CMBGlyph]) -> [CMBLine] {
        guard !glyphs.isEmpty else { return [] }
        // Sort small (key, index) pairs rather than the glyphs themselves.
        var keys: [(y: Double, i: Int32)] = []
        keys.reserveCapacity(glyphs.count)
        for (i, g) in glyphs.enumerated() { keys.append((g.midY, Int32(i))) }
        keys.sort { $0.y < $1.y }
        @inline(__always) func index(_ k: Int) -> Int { Int(keys[k].i) }
        var out: [CMBLine] = []
        var start = 0
        var sum = 0.0
        var refHeight = 0.0
        var xkeys: [(x: Double, i: Int32)] = []
        func flush(_ from: Int, _ to: Int) {
            xkeys.removeAll(keepingCapacity: true)
            var ordered = true
            var lastX = -Double.infinity
            for k in from..<to {
                let i = Int32(index(k))
                let x = glyphs[Int(i)].x0
                if x < lastX { ordered = false }
                lastX = x
                xkeys.append((x, i))
            }
            if !ordered {
                // A line is a few left-to-right runs (one per font/cell baseline): insertion sort
                // is cheap on such input and keeps equal keys in order.
                xkeys.withUnsafeMutableBufferPointer { b in
                    for j in 1..<b.count {
                        let key = b[j]
                        var k = j - 1
                        while k >= 0 && b[k].x > key.x { b[k + 1] = b[k]; k -= 1 }
                        b[k + 1] = key
                    }
                }
            }
            var bucket: [CMBGlyph] = []
            bucket.reserveCapacity(xkeys.count)
            for k in xkeys { bucket.append(glyphs[Int(k.i)]) }
            out.append(CMBLine(sortedGlyphs: bucket[...]))
        }
        for k in keys.indices {
            let g = glyphs[index(k)]
            if k > start {
                let mean = sum / Double(k - start)
                let tol = 0.3 * max(min(refHeight, g.height > 0 ? g.height : refHeight), 0.5)
                if g.midY - mean > tol {
                    flush(start, k)
                    start = k
                    sum = 0
                }
            }
            if k == start { refHeight = g.height > 0 ? g.height : g.size }
            sum += g.midY
        }
        flush(start, keys.count)
        return out
    }

    /// Splits a line into its parts per column band (`band` is non-decreasing in x). A run of
    /// visually contiguous glyphs (no gap wide enough to be a space) stays in the band where it
    /// starts, so text overflowing a column edge is not cut in two.
    static func split(_ line: CMBLine, band: (Double) -> Int, into out: inout [[CMBLine]]) {
        let gs = line.glyphs
        guard var start = gs.indices.first else { return }
        var current = band(gs[start].x0)
        var i = start + 1
        while i < gs.endIndex {
            let g = gs[i], p = gs[i - 1]
            if g.x0 - p.x1 > spaceFactor * max(p.size, g.size) { // else: same run, same band
                let b = band(g.x0)
                if b != current {
                    out[current].append(CMBLine(sortedGlyphs: gs[start..<i]))
                    start = i
                    current = b
                }
            }
            i += 1
        }
        out[current].append(CMBLine(sortedGlyphs: gs[start..<gs.endIndex]))
    }
}
