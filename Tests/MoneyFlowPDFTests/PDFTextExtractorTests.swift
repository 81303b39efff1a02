import Foundation
import MoneyFlowPDF
import MoneyFlowTestSupport
import Testing

/// What poppler's text layer gives for PDFs that are not statements: a damaged file, a scan
/// without text, bytes that are no PDF at all (the broken samples in `Samples/cmb/broken`).
@Suite struct PDFTextExtractorTests {
    static func broken(_ name: String) throws -> Data {
        try Data(contentsOf: TestPaths.samples.appendingPathComponent("cmb/broken/\(name)"))
    }

    @Test func truncatedPDFIsDamaged() throws {
        #expect {
            _ = try PDFTextExtractor().extract(data: Self.broken("truncated.pdf"))
        } throws: { error in
            if case .damaged = error as? PDFError { return true }
            return false
        }
    }

    @Test func scannedPDFHasNoTextLayer() throws {
        #expect(throws: PDFError.noTextLayer) {
            _ = try PDFTextExtractor().extract(data: Self.broken("scanned.pdf"))
        }
    }

    @Test func nonPDFBytesAreRejected() throws {
        let csv = try Data(contentsOf: TestPaths.samples.appendingPathComponent("cmb/cmb_pc_utf8bom.csv"))
        #expect(throws: PDFError.notAPDF) { _ = try PDFTextExtractor().extract(data: csv) }
        #expect(throws: PDFError.notAPDF) { _ = try PDFTextExtractor().extract(data: Data()) }
    }
}
