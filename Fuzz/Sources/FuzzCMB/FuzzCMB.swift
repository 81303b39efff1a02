import Foundation
import MoneyFlowCore
import MoneyFlowImporters
import MoneyFlowPDF

/// CMB statement reconstruction from positioned text (the pure part of the CMB importer).
///
/// The input is a compact encoding of pages of positioned glyphs (see ``decode(_:)``). Seeds are
/// the sample statements' text layers: `FUZZ_CMB_SEEDGEN=<dir> fuzz-cmb <pdf>...` extracts each
/// PDF with poppler, writes the encoded document and each page to `<dir>`, and exits.
///
/// Encoding: a sequence of records.
/// - `0xFF w:u16 h:u16` starts a new page of size w/32 x h/32 points;
/// - `n:u8 (n < 0xFF)`, `n` bytes of UTF-8 text (decoded leniently), then `x0 y0 x1 y1:u16`
///   (points * 32) and `font:u8` (points * 4): one positioned text run.
/// Runs before the first page marker go on an A4 page. Missing trailing bytes read as zero.
func decode(_ bytes: UnsafeRawBufferPointer) -> [TextPage] {
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
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[i..<end]), as: UTF8.self)
        i += n
        let x0 = u16(), y0 = u16(), x1 = u16(), y1 = u16()
        let font = Double(u8()) / 4
        pages[pages.count - 1].items.append(PositionedText(text: text, x0: x0, y0: y0, x1: x1, y1: y1, fontSize: font))
    }
    return pages
}

func encode(_ pages: [TextPage]) -> [UInt8] {
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
            let bytes = encode(ps)
            if bytes.count > 96 * 1024 { continue }
            // Round-trip check: the encoded seed must still reconstruct like the original when the original does.
            if (try? CMBStatementReconstructor().reconstruct(ps)) != nil {
                let again = bytes.withUnsafeBytes { decode($0) }
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
    let pages = decode(UnsafeRawBufferPointer(start: start, count: count))
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
