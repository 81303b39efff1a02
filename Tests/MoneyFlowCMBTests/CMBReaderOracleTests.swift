import Foundation
import MoneyFlowCore
import MoneyFlowImporters
import MoneyFlowPDF
import MoneyFlowTestSupport
import PopplerGlibOracle
import Testing

/// The CMB importers read the same statements from `PDFDocumentReader` (glyphs in content-stream
/// order) as from the poppler-glib reader it replaced (`GlibPDFReader`, poppler's reading order):
/// for every sample PDF, the imported statement (accounts, records, warnings, coverage) encodes
/// to the same JSON, or both readings fail with the same error.
@Suite struct CMBReaderOracleTests {
    /// Every sample PDF that opens without a password: CMB debit statements and card bills.
    static func samplePDFs() -> [URL] {
        let walker = FileManager.default.enumerator(at: TestPaths.samples, includingPropertiesForKeys: nil)
        var out: [URL] = []
        while let url = walker?.nextObject() as? URL {
            if url.pathExtension == "pdf" && !url.path.contains("/broken/") { out.append(url) }
        }
        return out.sorted { $0.path < $1.path }
    }

    /// What the importer makes of `pages`, as the CMB container importer chooses between a card
    /// bill and a debit statement: the statement's JSON, or the error.
    static func imported(_ pages: [TextPage], _ name: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            let statement =
                CMBCardReconstructor.isCardBill(pages)
                ? try CMBCardReconstructor().reconstruct(pages, fileName: name).importedStatement()
                : try CMBStatementReconstructor().importedStatement(from: pages, fileName: name)
            return String(decoding: try encoder.encode(statement), as: UTF8.self)
        } catch {
            return "error: \(error)"
        }
    }

    @Test func samplesImportAsFromTheGlibReader() throws {
        let files = Self.samplePDFs()
        #expect(files.count >= 25, "the sample PDFs were not found under \(TestPaths.samples.path)")
        var imported = 0
        for url in files {
            let data = try Data(contentsOf: url)
            let new = try PDFDocumentReader(data: data).pages()
            let old = try GlibPDFReader(data: data).pages()
            let a = Self.imported(new, url.lastPathComponent)
            let b = Self.imported(old, url.lastPathComponent)
            if !a.hasPrefix("error") { imported += 1 }
            #expect(a == b, "\(url.lastPathComponent): the imports differ: \(a.prefix(300)) vs \(b.prefix(300))")
        }
        // Not vacuous: nearly every sample is a statement that imports.
        #expect(imported >= files.count - 2, "only \(imported) of \(files.count) samples imported")
    }
}
