import Foundation
import MoneyFlowCMB
import MoneyFlowCore
import MoneyFlowImporters
import MoneyFlowPDF
import MoneyFlowPipeline
import MoneyFlowTestSupport
import Testing

@testable import MoneyFlowZip

/// What the CMB importer does with the container around the statement: a ZIP holding several
/// statements, a PDF whose page could not be drawn. Real sample files, the real importer.
@Suite struct CMBContainerTests {
    static let root = TestPaths.repoRoot
    static func file(_ path: String) throws -> Data { try Data(contentsOf: root.appendingPathComponent(path)) }

    /// A plain (stored, unencrypted) ZIP of `entries`, names flagged UTF-8 as CMB's are.
    static func zip(_ entries: [(String, Data)]) -> Data {
        var out = Data(), central = Data()
        func le16(_ v: Int, _ d: inout Data) { d.append(UInt8(v & 0xFF)); d.append(UInt8(v >> 8 & 0xFF)) }
        func le32(_ v: UInt32, _ d: inout Data) { for s in [0, 8, 16, 24] { d.append(UInt8(v >> UInt32(s) & 0xFF)) } }
        for (name, body) in entries {
            let offset = UInt32(out.count), n = Data(name.utf8), crc = zipCRC32(body)
            le32(0x0403_4B50, &out); le16(20, &out); le16(0x0800, &out); le16(0, &out); le16(0, &out); le16(0x21, &out)
            le32(crc, &out); le32(UInt32(body.count), &out); le32(UInt32(body.count), &out); le16(n.count, &out); le16(0, &out)
            out.append(n); out.append(body)
            le32(0x0201_4B50, &central); le16(20, &central); le16(20, &central); le16(0x0800, &central); le16(0, &central)
            le16(0, &central); le16(0x21, &central); le32(crc, &central); le32(UInt32(body.count), &central)
            le32(UInt32(body.count), &central); le16(n.count, &central); le16(0, &central); le16(0, &central)
            le16(0, &central); le16(0, &central); le32(0, &central); le32(offset, &central); central.append(n)
        }
        let cdOffset = UInt32(out.count)
        out.append(central)
        le32(0x0605_4B50, &out); le16(0, &out); le16(0, &out); le16(entries.count, &out); le16(entries.count, &out)
        le32(UInt32(central.count), &out); le32(cdOffset, &out); le16(0, &out)
        return out
    }

    func read(_ name: String, _ data: Data) throws -> ImportedStatement {
        try CMBStatementImporter().read(ImportInput(fileName: name, data: data), options: ImportOptions())
    }

    /// One statement in a ZIP is read as before (the writer above makes valid archives).
    @Test func zipWithOneStatementImportsIt() throws {
        let pdf = try Self.file("Samples/cmb/cmb2024_basic.pdf")
        let bare = try read("basic.pdf", pdf)
        let zipped = try read("basic.zip", Self.zip([("招商银行交易流水.pdf", pdf)]))
        #expect(zipped.records.count == bare.records.count && bare.records.count > 0)
    }

    /// Two statements in one ZIP, in either entry order: never one of them silently; the file
    /// is refused with an error naming both entries.
    @Test(arguments: [false, true])
    func zipWithSeveralStatementsIsRefusedNamingThem(reversed: Bool) throws {
        var entries = [
            ("q1.pdf", try Self.file("Samples/cmb/cmb2024_q1.pdf")),
            ("q2overlap.pdf", try Self.file("Samples/cmb/cmb2024_q2overlap.pdf")),
        ]
        if reversed { entries.reverse() }
        let error = try #require(throws: ImportError.self) { try read("two.zip", Self.zip(entries)) }
        let text = error.description
        #expect(text.contains("2 PDF statements") && text.contains("q1.pdf") && text.contains("q2overlap.pdf"), "\(text)")
    }

    /// A page whose content stream is damaged still yields the rows drawn before the damage;
    /// the import is refused, naming the page, instead of storing 10 of 35 rows.
    @Test(arguments: [("bitflip_content_stream_p1_middle.pdf", 1), ("bitflip_content_stream_p2.pdf", 2)])
    func damagedContentStreamIsRefusedNamingThePage(name: String, page: Int) throws {
        let data = try Self.file("Tests/BadInputs/pdf/" + name)
        let error = try #require(throws: ImportError.self) { try read(name, data) }
        #expect(
            error.description.contains("damaged") && error.description.contains("page \(page) ") && error.description.contains("missing"),
            "\(error.description)")
        let checked = try PDFTextExtractor().extractChecked(data: data)
        #expect(checked.problems.map(\.page) == [page])
    }

    /// Intact statements (every sample, one read on several threads) report no page problems.
    @Test func intactSamplesHaveNoPageProblems() throws {
        let dir = Self.root.appendingPathComponent("Samples/cmb")
        let pdfs = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".pdf") }.sorted()
        #expect(pdfs.count >= 5)
        for name in pdfs {
            let checked = try PDFTextExtractor(maxThreads: 4).extractChecked(data: try Data(contentsOf: dir.appendingPathComponent(name)))
            #expect(checked.problems.isEmpty, "\(name): \(checked.problems)")
        }
    }
}
