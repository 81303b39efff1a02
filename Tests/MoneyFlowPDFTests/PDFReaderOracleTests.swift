import Foundation
import MoneyFlowCore
import MoneyFlowPDF
import MoneyFlowTestSupport
import PopplerGlibOracle
import Testing

/// `PDFDocumentReader` (libpoppler's TextOutputDev, words in content-stream order) against the
/// reader it replaced, poppler-glib's text interface (`GlibPDFReader`, words in poppler's
/// reading order): every page of every sample PDF has the same size and the same glyphs, each
/// with the same scalar, box and font size, compared as sorted lists (the order differs).
///
/// One convention differs: poppler's layout analysis merges two words of one line that follow
/// each other in the content stream with a gap too small for a space, and the merged word's
/// first part then ends where the second begins. So glib's right edge of the glyph before such
/// a join is the next glyph's left edge, never beyond the glyph's own right edge, which is what
/// the new reader gives (15 glyphs of 683,661 in the samples and a 300-page statement).
@Suite struct PDFReaderOracleTests {
    /// Every PDF under `Samples/` and `Tests/BadInputs/pdf` (damaged, truncated, empty pages):
    /// what one reader opens the other opens too.
    static func samplePDFs() -> [URL] {
        var out: [URL] = []
        for root in [TestPaths.samples, TestPaths.badInputs.appendingPathComponent("pdf")] {
            let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
            while let url = walker?.nextObject() as? URL {
                if url.pathExtension == "pdf" { out.append(url) }
            }
        }
        return out.sorted { $0.path < $1.path }
    }

    /// A glyph without its right edge, as a comparable key (the right edge is compared apart).
    struct Glyph: Comparable, CustomStringConvertible {
        var y0, x0, y1, fontSize: Double
        var text: String
        init(_ p: PositionedText) {
            y0 = p.y0; x0 = p.x0; y1 = p.y1; fontSize = p.fontSize; text = p.text
        }
        static func < (a: Glyph, b: Glyph) -> Bool {
            (a.y0, a.x0, a.y1, a.fontSize) < (b.y0, b.x0, b.y1, b.fontSize)
                || ((a.y0, a.x0, a.y1, a.fontSize) == (b.y0, b.x0, b.y1, b.fontSize) && a.text < b.text)
        }
        var description: String { "'\(text)' (\(x0), \(y0))-(\(y1)) size \(fontSize)" }
    }

    /// The glyphs of a page sorted by ``Glyph``, each with its right edge.
    static func sorted(_ page: TextPage) -> [(glyph: Glyph, x1: Double)] {
        page.items.map { (Glyph($0), $0.x1) }.sorted { $0.glyph < $1.glyph }
    }

    /// What the two readers disagree on in one PDF (empty when nothing).
    static func differences(_ data: Data) -> [String] {
        let new: PDFDocumentReader
        let old: GlibPDFReader
        do {
            new = try PDFDocumentReader(data: data)
        } catch {
            do { _ = try GlibPDFReader(data: data) } catch { return [] }
            return ["only the oracle opens it (\(error))"]
        }
        do { old = try GlibPDFReader(data: data) } catch { return ["only the new reader opens it (\(error))"] }
        guard new.pageCount == old.pageCount else { return ["pages \(new.pageCount) vs \(old.pageCount)"] }
        var out: [String] = []
        for i in 0..<new.pageCount {
            for fontSizes in [true, false] {
                let a = new.page(at: i, fontSizes: fontSizes)
                let b = old.page(at: i, fontSizes: fontSizes)
                if (a.number, a.width, a.height) != (b.number, b.width, b.height) {
                    out.append("page \(i + 1): size \(a.width)x\(a.height) vs \(b.width)x\(b.height)")
                }
                let ga = Self.sorted(a)
                let gb = Self.sorted(b)
                let k = (0..<min(ga.count, gb.count)).first { ga[$0].glyph != gb[$0].glyph } ?? min(ga.count, gb.count)
                if ga.count != gb.count || k < ga.count {
                    let first = k < min(ga.count, gb.count) ? ": first \(ga[k].glyph) vs \(gb[k].glyph)" : ""
                    out.append("page \(i + 1) (fontSizes \(fontSizes)): \(ga.count) vs \(gb.count) glyphs\(first)")
                    continue
                }
                // Right edges: equal, or glib's is the left edge of a glyph on the same line that
                // starts inside this one (a merged word's join).
                let starts = Set(b.items.map { [$0.y0, $0.x0] })
                for (p, q) in zip(ga, gb) where p.x1 != q.x1 {
                    if !(q.x1 < p.x1 && q.x1 > p.glyph.x0 && starts.contains([q.glyph.y0, q.x1])) {
                        out.append("page \(i + 1): \(p.glyph) right edge \(p.x1) vs \(q.x1)")
                    }
                }
            }
        }
        return out
    }

    @Test func samplesReadAsTheGlibReaderReadsThem() throws {
        let files = Self.samplePDFs()
        #expect(files.count >= 40, "the sample PDFs were not found under \(TestPaths.samples.path)")
        for url in files {
            let found = Self.differences(try Data(contentsOf: url))
            #expect(found.isEmpty, "\(url.lastPathComponent): \(found.prefix(3).joined(separator: "; "))")
        }
    }

    @Test func encryptedSampleNeedsItsPasswordInBoth() throws {
        let data = try Data(contentsOf: TestPaths.samples.appendingPathComponent("cmb/broken/encrypted.pdf"))
        #expect(throws: PDFError.passwordRequired) { _ = try PDFDocumentReader(data: data) }
        #expect(throws: PDFError.passwordRequired) { _ = try GlibPDFReader(data: data) }
    }
}
