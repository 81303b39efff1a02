import Foundation

// The ZipLimits checks made before an entry is read (declared size, ratio, running total).
extension ZipArchive {
    func checkDeclaredSize(_ entry: ZipEntry) throws(ZipError) {
        let name = entry.name
        if entry.uncompressedSize > limits.maxEntrySize {
            throw .entryTooLarge(entry: name, limit: limits.maxEntrySize)
        }
        if entry.uncompressedSize > 1 << 20 && entry.compressionMethod != 0 {
            let (ratioLimit, overflow) = entry.compressedSize.multipliedReportingOverflow(by: limits.maxCompressionRatio)
            if !overflow && entry.uncompressedSize > ratioLimit {
                throw .entryTooLarge(entry: name, limit: ratioLimit)
            }
        }
        let (total, overflow) = totalUncompressed.addingReportingOverflow(entry.uncompressedSize)
        if overflow || total > limits.maxTotalUncompressed {
            throw .entryTooLarge(entry: name, limit: limits.maxTotalUncompressed)
        }
        if entry.compressedSize > UInt64(stream.bytes.count) {
            throw .truncated
        }
    }
}
