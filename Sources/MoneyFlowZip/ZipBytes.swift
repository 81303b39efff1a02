import CMinizip
import Foundation

// MARK: - Little-endian helpers

@inline(__always)
func readLE16<C: RandomAccessCollection>(_ bytes: C, _ offset: Int) -> UInt16 where C.Element == UInt8, C.Index == Int {
    let base = bytes.startIndex + offset
    return UInt16(bytes[base]) | UInt16(bytes[base + 1]) << 8
}

@inline(__always)
func readLE32<C: RandomAccessCollection>(_ bytes: C, _ offset: Int) -> UInt32 where C.Element == UInt8, C.Index == Int {
    let base = bytes.startIndex + offset
    return UInt32(bytes[base]) | UInt32(bytes[base + 1]) << 8 | UInt32(bytes[base + 2]) << 16 | UInt32(bytes[base + 3]) << 24
}

@inline(__always)
func readLE64<C: RandomAccessCollection>(_ bytes: C, _ offset: Int) -> UInt64 where C.Element == UInt8, C.Index == Int {
    UInt64(readLE32(bytes, offset)) | UInt64(readLE32(bytes, offset + 4)) << 32
}

/// The data of the first extra-field block with header `id`, or nil.
func extraBlock(_ extra: [UInt8], id: UInt16) -> ArraySlice<UInt8>? {
    var position = 0
    while position + 4 <= extra.count {
        let blockID = readLE16(extra, position)
        let size = Int(readLE16(extra, position + 2))
        let start = position + 4
        guard start + size <= extra.count else { return nil }
        if blockID == id { return extra[start..<start + size] }
        position = start + size
    }
    return nil
}

/// CRC-32 (zlib) of `bytes`.
func zipCRC32<C: Collection>(_ bytes: C) -> UInt32 where C.Element == UInt8 {
    let crc =
        bytes.withContiguousStorageIfAvailable { buffer in
            crc32_z(0, buffer.baseAddress, Int(buffer.count))
        } ?? Array(bytes).withUnsafeBufferPointer { crc32_z(0, $0.baseAddress, Int($0.count)) }
    return UInt32(truncatingIfNeeded: crc)
}
