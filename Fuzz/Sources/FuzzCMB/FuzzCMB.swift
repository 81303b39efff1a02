import Foundation
import MoneyFlowCore
import MoneyFlowImporters
import MoneyFlowPDF
import MoneyFlowTestSupport

/// CMB statement reconstruction from positioned text (the pure part of the CMB importer).
///
/// The input is a compact encoding of pages of positioned glyphs (see ``FuzzTextPages``). Seeds are
/// the sample statements' text layers: `FUZZ_CMB_SEEDGEN=<dir> fuzz-cmb <pdf>...` extracts each
/// PDF with poppler, writes the encoded document and each page to `<dir>`, and exits. The encoding
/// lives in `_MoneyFlowTestSupport`, shared with the regression replay in the tests.
@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>) -> Int32 {
    guard let dir = ProcessInfo.processInfo.environment["FUZZ_CMB_SEEDGEN"] else { return 0 }
    let out = URL(fileURLWithPath: dir)
    try? FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
    var written = 0
    for k in 1..<Int(argc.pointee) {
        let path = String(cString: argv.pointee[k]!)
        guard path.hasSuffix(".pdf"), let data = FileManager.default.contents(atPath: path),
              let pages = try? PDFTextExtractor(maxThreads: 1).extract(data: data) else { continue }
        let base = (path as NSString).lastPathComponent.replacingOccurrences(of: ".pdf", with: "")
        var seeds: [(String, [TextPage])] = [("all", pages), ("first2", Array(pages.prefix(2)))]
        for p in pages.prefix(4) { seeds.append(("p\(p.number)", [p])) }
        for (suffix, ps) in seeds {
            let bytes = FuzzTextPages.encode(ps)
            if bytes.count > 96 * 1024 { continue }
            // Round-trip check: the encoded seed must still reconstruct like the original when the original does.
            if (try? CMBStatementReconstructor().reconstruct(ps)) != nil {
                let again = bytes.withUnsafeBytes { FuzzTextPages.decode($0) }
                if (try? CMBStatementReconstructor().reconstruct(again)) == nil {
                    FileHandle.standardError.write(Data("seedgen: \(base)-\(suffix) no longer reconstructs after encoding\n".utf8))
                }
            }
            try? Data(bytes).write(to: out.appendingPathComponent("\(base)-\(suffix).bin"))
            written += 1
        }
    }
    FileHandle.standardError.write(Data("seedgen: wrote \(written) seeds to \(dir)\n".utf8))
    _exit(0)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let pages = FuzzTextPages.decode(UnsafeRawBufferPointer(start: start, count: count))
    do {
        let statement = try CMBStatementReconstructor().reconstruct(pages, fileName: "fuzz.pdf")
        let imported = statement.importedStatement()
        _ = Fingerprint.keys(for: imported.records)
    } catch {
        _ = error.description
    }
    return 0
}

// MARK: - Entry point
// SwiftPM links executables with `main` aliased to `<Module>_main`, which would hide libFuzzer's
// own `main`; so start libFuzzer's driver from here.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                         _ callback: @convention(c) (UnsafeRawPointer, Int) -> CInt) -> CInt

@_cdecl("FuzzCMB_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var c = argc
    var v = argv
    return LLVMFuzzerRunDriver(&c, &v) { fuzz($0, $1) }
}
