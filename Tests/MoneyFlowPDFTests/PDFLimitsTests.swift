import Foundation
import MoneyFlowTestSupport
import Testing

@testable import MoneyFlowPDF

/// A PDF is checked against ``PDFLimits`` before poppler parses it: nesting depth, object count
/// and inflated stream bytes, in the file and in its compressed streams. Hostile files are
/// built here, byte for byte.
@Suite struct PDFLimitsTests {
    /// A zlib stream of `payload` in stored (uncompressed) deflate blocks: no compressor needed.
    static func storedZlib(_ payload: [UInt8]) -> Data {
        var d = Data([0x78, 0x01])
        var chunks = stride(from: 0, to: payload.count, by: 65_535).map { payload[$0..<min($0 + 65_535, payload.count)] }
        if chunks.isEmpty { chunks = [[]] }
        for (i, c) in chunks.enumerated() {
            let n = UInt16(c.count)
            d += [i == chunks.count - 1 ? 1 : 0, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8(~n >> 8)]
            d += c
        }
        var a: UInt32 = 1, b: UInt32 = 0
        for x in payload { a = (a + UInt32(x)) % 65_521; b = (b + a) % 65_521 }
        let adler = b << 16 | a
        d += [UInt8(adler >> 24), UInt8(adler >> 16 & 0xFF), UInt8(adler >> 8 & 0xFF), UInt8(adler & 0xFF)]
        return d
    }

    func refusal(_ data: Data, _ limits: PDFLimits = .default) -> String? {
        do {
            _ = try PDFDocumentReader(data: data, limits: limits)
            return nil
        } catch {
            guard case .limitExceeded = error else { return "other: \(error)" }
            return error.description
        }
    }

    @Test func deeplyNestedArraysAreRefusedBeforePopplerParsesThem() {
        let r = refusal(HostilePDF.nestedArrays(depth: 20_000))
        #expect(r?.contains("nested more than 100 deep") == true, "\(String(describing: r))")
        // Within the bound, the same shape reaches poppler (which finds no pages).
        #expect(refusal(HostilePDF.nestedArrays(depth: 50))?.hasPrefix("other") == true)
    }

    @Test func tooManyObjectsAreRefused() {
        let r = refusal(HostilePDF.manyObjects(count: 150), PDFLimits(maxObjects: 100))
        #expect(r?.contains("more than 100 objects") == true, "\(String(describing: r))")
        #expect(refusal(HostilePDF.manyObjects(count: 90), PDFLimits(maxObjects: 100))?.hasPrefix("other") == true)
    }

    @Test func streamsInflatingPastTheBudgetAreRefused() {
        let big = HostilePDF.withStream(Self.storedZlib([UInt8](repeating: 0x20, count: 5_000)))
        let r = refusal(big, PDFLimits(maxDecompressedBytes: 1_000))
        #expect(r?.contains("decompress to more than") == true, "\(String(describing: r))")
        #expect(refusal(big, PDFLimits(maxDecompressedBytes: 10_000))?.hasPrefix("other") == true)
    }

    @Test func nestingInsideACompressedContentStreamCounts() {
        let nested = [UInt8](repeating: UInt8(ascii: "["), count: 500) + [UInt8](repeating: UInt8(ascii: "]"), count: 500)
        let r = refusal(HostilePDF.withStream(Self.storedZlib(nested)))
        #expect(r?.contains("nested more than 100 deep") == true, "\(String(describing: r))")
    }

    @Test func everySampleStatementIsWithinTheLimits() throws {
        let dir = TestPaths.samples.appendingPathComponent("wallets")
        let pdfs = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".pdf") }
        #expect(!pdfs.isEmpty)
        for name in pdfs {
            var check = PDFPreflight(limits: .default)
            do { try check.check(try Data(contentsOf: dir.appendingPathComponent(name))) } catch { Issue.record("\(name): \(error)") }
        }
    }
}
