import CMinizip
import Foundation

#if canImport(CoreFoundation)
    import CoreFoundation
#endif

// Reading an entry's stored bytes through minizip in raw mode, or directly (AES, ZIP64).
extension ZipArchive {

    /// Reads the stored bytes of a stored/deflated entry (possibly ZipCrypto-encrypted) through minizip in raw mode.
    func readRawEntry(_ entry: ZipEntry) throws(ZipError) -> [UInt8] {
        guard let handle else { throw .corrupt("entry does not belong to this archive") }
        guard unzSetOffset64(handle, entry.centralDirectoryPosition) == UNZ_OK else {
            throw .corrupt("corrupt central directory")
        }
        var method: Int32 = 0
        var level: Int32 = 0
        let openResult = unzOpenCurrentFile2(handle, &method, &level, 1)
        guard openResult == UNZ_OK else {
            throw openResult == UNZ_ERRNO ? .truncated : .corrupt("corrupt local file header")
        }
        defer { unzCloseCurrentFile(handle) }
        let total = Int(entry.compressedSize)
        var buffer = [UInt8](repeating: 0, count: total)
        var filled = 0
        while filled < total {
            let chunk = UInt32(min(total - filled, 1 << 20))
            let read = buffer.withUnsafeMutableBytes { pointer in
                unzReadCurrentFile(handle, pointer.baseAddress! + filled, chunk)
            }
            if read < 0 { throw read == UNZ_ERRNO ? .truncated : .corrupt("cannot read entry data") }
            if read == 0 { throw .truncated }
            filled += Int(read)
        }
        return buffer
    }

    /// Reads stored bytes straight from the in-memory archive, starting at the local header.
    /// Used where minizip cannot: it refuses method 99 (WinZip AES) even in raw mode, and
    /// Debian's minizip 1.1 never applies ZIP64 extra-field sizes on LP64 (it compares with
    /// `(ZPOS64_T)(unsigned long)-1`), so its raw reads of ZIP64 entries are wrong.
    func readRawEntryDirectly(_ entry: ZipEntry) throws(ZipError) -> [UInt8] {
        let bytes = stream.bytes
        guard entry.localHeaderOffset < UInt64(bytes.count), Int(entry.localHeaderOffset) + 30 <= bytes.count else {
            throw .truncated
        }
        let local = Int(entry.localHeaderOffset)
        guard readLE32(bytes, local) == 0x0403_4b50 else { throw .corrupt("corrupt local file header") }
        guard Int(readLE16(bytes, local + 8)) == entry.method else {
            throw .corrupt("local header does not match central directory")
        }
        let dataStart = local + 30 + Int(readLE16(bytes, local + 26)) + Int(readLE16(bytes, local + 28))
        let (end, overflow) = UInt64(dataStart).addingReportingOverflow(entry.compressedSize)
        guard !overflow, end <= UInt64(bytes.count) else { throw .truncated }
        return Array(bytes[dataStart..<Int(end)])
    }
}
