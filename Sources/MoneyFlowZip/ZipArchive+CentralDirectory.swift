import CMinizip
import Foundation

#if canImport(CoreFoundation)
    import CoreFoundation
#endif

// The central directory: one ZipEntry per file, with the fields decryption and limits need.
extension ZipArchive {

    static func listEntries(_ handle: unzFile, bytes: [UInt8], byteBefore: UInt64) throws(ZipError) -> [ZipEntry] {
        var result: [ZipEntry] = []
        var status = unzGoToFirstFile(handle)
        while status == UNZ_OK {
            result.append(try currentEntry(handle, index: result.count, bytes: bytes, byteBefore: byteBefore))
            status = unzGoToNextFile(handle)
        }
        guard status == UNZ_END_OF_LIST_OF_FILE else {
            throw status == UNZ_ERRNO ? .truncated : .corrupt("corrupt central directory")
        }
        return result
    }

    static func currentEntry(_ handle: unzFile, index: Int, bytes: [UInt8], byteBefore: UInt64) throws(ZipError) -> ZipEntry {
        var info = unz_file_info64()
        guard unzGetCurrentFileInfo64(handle, &info, nil, 0, nil, 0, nil, 0) == UNZ_OK else {
            throw .corrupt("corrupt central directory")
        }
        var nameBytes = [UInt8](repeating: 0, count: Int(info.size_filename))
        var extra = [UInt8](repeating: 0, count: Int(info.size_file_extra))
        let status = nameBytes.withUnsafeMutableBytes { namePointer in
            extra.withUnsafeMutableBytes { extraPointer in
                unzGetCurrentFileInfo64(
                    handle, &info,
                    namePointer.baseAddress?.assumingMemoryBound(to: CChar.self), uLong(namePointer.count),
                    extraPointer.baseAddress, uLong(extraPointer.count), nil, 0)
            }
        }
        guard status == UNZ_OK else { throw .corrupt("corrupt central directory") }

        // The central directory record itself: minizip 1.1 does not apply ZIP64 sizes on LP64
        // and does not expose the local header offset.
        let centralPosition = unzGetOffset64(handle)
        let (recordPosition, overflow) = centralPosition.addingReportingOverflow(byteBefore)
        guard !overflow, recordPosition < UInt64(bytes.count), Int(recordPosition) + 46 <= bytes.count,
            readLE32(bytes, Int(recordPosition)) == 0x0201_4b50
        else {
            throw .corrupt("corrupt central directory")
        }
        let record = Int(recordPosition)
        let compressed32 = readLE32(bytes, record + 20)
        let uncompressed32 = readLE32(bytes, record + 24)
        let offset32 = readLE32(bytes, record + 42)
        var compressedSize = UInt64(compressed32)
        var uncompressedSize = UInt64(uncompressed32)
        var localOffset = UInt64(offset32)
        let usesZip64 = compressed32 == .max || uncompressed32 == .max || offset32 == .max
        if usesZip64 {
            guard let zip64 = extraBlock(extra, id: 0x0001) else { throw .corrupt("missing zip64 extra field") }
            var position = 0
            func next() throws(ZipError) -> UInt64 {
                guard position + 8 <= zip64.count else { throw .corrupt("corrupt zip64 extra field") }
                defer { position += 8 }
                return readLE64(zip64, position)
            }
            if uncompressed32 == .max { uncompressedSize = try next() }
            if compressed32 == .max { compressedSize = try next() }
            if offset32 == .max { localOffset = try next() }
        }
        let (localHeaderOffset, localOverflow) = localOffset.addingReportingOverflow(byteBefore)
        guard !localOverflow else { throw .corrupt("corrupt central directory") }

        let flags = UInt16(truncatingIfNeeded: info.flag)
        let method = Int(info.compression_method)
        let name = decodeName(nameBytes, flags: flags, extra: extra)

        var compressionMethod = method
        let encryption: ZipEncryption
        if method == 99 {
            if let aes = WinZipAESParameters(extraField: extra) {
                encryption = .winZipAES(keyBits: aes.keyBits, vendorVersion: aes.vendorVersion)
                compressionMethod = aes.compressionMethod
            } else {
                encryption = .unsupported("malformed winzip aes extra field")
            }
        } else if flags & 0x0001 == 0 {
            encryption = .none
        } else if flags & 0x0040 != 0 {
            encryption = .unsupported("pkware strong encryption")
        } else {
            encryption = .zipCrypto
        }
        let isDirectory = name.hasSuffix("/") || (info.external_fa & 0x10 != 0 && uncompressedSize == 0)
        return ZipEntry(
            index: index, name: name, rawName: nameBytes,
            compressedSize: compressedSize, uncompressedSize: uncompressedSize,
            crc32: UInt32(truncatingIfNeeded: info.crc), method: method, compressionMethod: compressionMethod,
            encryption: encryption, isDirectory: isDirectory, flags: flags,
            dosDateTime: UInt32(truncatingIfNeeded: info.dosDate),
            centralDirectoryPosition: centralPosition, localHeaderOffset: localHeaderOffset,
            needsDirectRead: method == 99 || usesZip64, extraField: extra)
    }
}
