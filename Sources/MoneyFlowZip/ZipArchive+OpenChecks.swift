import CMinizip
import Foundation

#if canImport(CoreFoundation)
    import CoreFoundation
#endif

// Telling "not a ZIP" from "truncated" and "corrupt" before minizip opens it.
extension ZipArchive {

    static func startsLikeZip(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 4 && bytes[0] == 0x50 && bytes[1] == 0x4b
            && [(3, 4), (5, 6), (7, 8), (0x30, 0x30)].contains { bytes[2] == $0.0 && bytes[3] == $0.1 }
    }

    /// Bytes prepended to the archive (self-extractors), computed like minizip's
    /// `byte_before_the_zipfile`: end-of-central-directory position minus (directory offset + size).
    static func bytesBeforeArchive(_ bytes: [UInt8]) -> UInt64 {
        guard bytes.count >= 22 else { return 0 }
        let lowest = max(0, bytes.count - 22 - 0xFFFF)
        var end = bytes.count - 22
        while end >= lowest && readLE32(bytes, end) != 0x0605_4b50 { end -= 1 }
        guard end >= lowest else { return 0 }
        var recordPosition = UInt64(end)
        var size = UInt64(readLE32(bytes, end + 12))
        var offset = UInt64(readLE32(bytes, end + 16))
        // ZIP64 locator right before the end record: directory size and offset come from the ZIP64 record.
        if end >= 20, readLE32(bytes, end - 20) == 0x0706_4b50 {
            let zip64End = readLE64(bytes, end - 20 + 8)
            if zip64End < UInt64(bytes.count), Int(zip64End) + 56 <= bytes.count,
                readLE32(bytes, Int(zip64End)) == 0x0606_4b50
            {
                recordPosition = zip64End
                size = readLE64(bytes, Int(zip64End) + 40)
                offset = readLE64(bytes, Int(zip64End) + 48)
            }
        }
        let (directoryEnd, overflow) = offset.addingReportingOverflow(size)
        guard !overflow, directoryEnd <= recordPosition else { return 0 }
        return recordPosition - directoryEnd
    }

    static func isEmptyArchive(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 22 && readLE32(bytes, 0) == 0x0605_4b50 && readLE16(bytes, 10) == 0
            && 22 + Int(readLE16(bytes, 20)) == bytes.count
    }

    static func hasEndRecord(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 22 else { return false }
        let lowest = max(0, bytes.count - 22 - 0xFFFF)
        var position = bytes.count - 22
        while position >= lowest {
            if readLE32(bytes, position) == 0x0605_4b50 { return true }
            position -= 1
        }
        return false
    }
}
