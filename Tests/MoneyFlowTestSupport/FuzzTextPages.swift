import MoneyFlowCore

/// The positioned-text encoding of the `FuzzCMB` harness, shared by the harness (which reads
/// fuzz inputs and writes seeds from the sample PDFs) and the regression replay in the tests.
///
/// Encoding: a sequence of records.
/// - `0xFF w:u16 h:u16` starts a new page of size w/32 x h/32 points;
/// - `n:u8 (n < 0xFF)`, `n` bytes of UTF-8 text (decoded leniently), then `x0 y0 x1 y1:u16`
///   (points * 32) and `font:u8` (points * 4): one positioned text run.
/// Runs before the first page marker go on an A4 page. Missing trailing bytes read as zero, and
/// a run longer than the bytes left is cut.
public enum FuzzTextPages {
    public static func decode(_ bytes: UnsafeRawBufferPointer) -> [TextPage] {
        var pages: [TextPage] = []
        var i = 0
        func u8() -> Int { defer { i += 1 }; return i < bytes.count ? Int(bytes[i]) : 0 }
        func u16() -> Double { let lo = u8(), hi = u8(); return Double(lo | hi << 8) / 32 }
        while i < bytes.count {
            let n = u8()
            if n == 0xFF {
                let w = u16(), h = u16()
                pages.append(TextPage(number: pages.count + 1, width: w, height: h, items: []))
                continue
            }
            if pages.isEmpty { pages.append(TextPage(number: 1, width: 595.32, height: 841.92, items: [])) }
            let end = min(bytes.count, i + n)
            let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[min(i, end)..<end]), as: UTF8.self)
            i += n
            let x0 = u16(), y0 = u16(), x1 = u16(), y1 = u16()
            let font = Double(u8()) / 4
            pages[pages.count - 1].items.append(PositionedText(text: text, x0: x0, y0: y0, x1: x1, y1: y1, fontSize: font))
        }
        return pages
    }

    public static func encode(_ pages: [TextPage]) -> [UInt8] {
        var out: [UInt8] = []
        func u16(_ v: Double) { let q = UInt16(clamping: Int((max(0, v) * 32).rounded())); out += [UInt8(q & 0xFF), UInt8(q >> 8)] }
        for p in pages {
            out.append(0xFF); u16(p.width); u16(p.height)
            for t in p.items {
                let utf8 = Array(t.text.utf8.prefix(0xFE))
                out.append(UInt8(utf8.count)); out += utf8
                u16(t.x0); u16(t.y0); u16(t.x1); u16(t.y1)
                out.append(UInt8(clamping: Int((t.fontSize * 4).rounded())))
            }
        }
        return out
    }
}
