import Foundation
import MoneyFlowZip

/// ZIP reading: central directory listing through minizip, ZipCrypto and WinZip AES decryption,
/// bounded inflate, CRC and size checks. Each entry is read with the passwords of the seed
/// archives (sample and fixture passwords) until one is not rejected as wrong, so mutated
/// encrypted seeds get past the password check.
let passwords = ["secret123", "9I7O8J", "IF3A7PBE", "DQH9JB", "GQ79U3", "LWHWWTR", "R9HHYG", "DPET74", "FZA7FGVI", "T0R9CRV8"]
let limits = ZipLimits(maxEntrySize: 16 << 20, maxCompressionRatio: 1000, maxTotalUncompressed: 64 << 20)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    guard let archive = try? ZipArchive(data: data, limits: limits) else { return 0 }
    for entry in archive.entries.prefix(4) {
        _ = entry.isUnsafePath
        if !entry.isEncrypted { _ = try? archive.data(for: entry, password: nil); continue }
        for p in passwords {
            do { _ = try archive.data(for: entry, password: p); break }
            catch .wrongPassword { continue }
            catch { break }
        }
    }
    return 0
}

// MARK: - Entry point
// SwiftPM links executables with `main` aliased to `<Module>_main`, which would hide libFuzzer's
// own `main`; so start libFuzzer's driver from here.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                         _ callback: @convention(c) (UnsafeRawPointer, Int) -> CInt) -> CInt

@_cdecl("FuzzZip_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var c = argc
    var v = argv
    return LLVMFuzzerRunDriver(&c, &v) { fuzz($0, $1) }
}
