import CMinizip
import Foundation
#if canImport(CoreFoundation)
import CoreFoundation
#endif

/// A ZIP archive read entirely from memory through minizip, with ZipCrypto and WinZip AES
/// decryption done in Swift (Debian's minizip has no decryption and rejects AES entries).
///
/// Nothing is ever written to disk. The class owns a C handle and is deliberately not `Sendable`:
/// use it from one task and pass the returned values (``ZipEntry``, `Data`) across tasks.
public final class ZipArchive {
    /// Every entry of the central directory, in order.
    public let entries: [ZipEntry]
    /// The limits this archive enforces.
    public let limits: ZipLimits

    private let handle: unzFile?
    private let stream: MemoryStream
    private let streamRetain: Unmanaged<MemoryStream>
    private var totalUncompressed: UInt64 = 0

    /// Opens an archive held in memory and lists its entries.
    /// - Throws: ``ZipError/notAZip``, ``ZipError/truncated`` or ``ZipError/corrupt(_:)``.
    public init(data: Data, limits: ZipLimits = .default) throws(ZipError) {
        let bytes = [UInt8](data)
        self.limits = limits
        guard bytes.count >= 22 else {
            throw Self.startsLikeZip(bytes) ? .truncated : .notAZip
        }
        let stream = MemoryStream(bytes: bytes)
        var (funcs, retain) = makeMemoryFileFunctions(stream)
        guard let handle = unzOpen2_64("memory", &funcs) else {
            retain.release()
            if Self.isEmptyArchive(bytes) {
                // minizip never finds an end record at offset 0 (what `zip` writes for an empty archive).
                self.stream = stream
                self.streamRetain = Unmanaged.passRetained(stream)
                self.handle = nil
                self.entries = []
                return
            }
            if !Self.hasEndRecord(bytes) {
                throw Self.startsLikeZip(bytes) ? .truncated : .notAZip
            }
            throw .corrupt("corrupt end of central directory")
        }
        self.stream = stream
        self.streamRetain = retain
        self.handle = handle
        do {
            self.entries = try Self.listEntries(handle, bytes: bytes, byteBefore: Self.bytesBeforeArchive(bytes))
        } catch {
            unzClose(handle)
            retain.release()
            throw error
        }
    }

    /// Reads the archive at `url` into memory, then behaves like ``init(data:limits:)``.
    public convenience init(contentsOf url: URL, limits: ZipLimits = .default) throws(ZipError) {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .corrupt(FileManager.default.fileExists(atPath: url.path) ? "cannot read file" : "file not found")
        }
        try self.init(data: data, limits: limits)
    }

    deinit {
        if let handle { unzClose(handle) }
        streamRetain.release()
    }

    /// The first entry whose name is `name`, if any.
    public func entry(named name: String) -> ZipEntry? {
        entries.first { $0.name == name }
    }

    /// Decrypts (if needed), decompresses and verifies one entry, entirely in memory.
    ///
    /// - Parameters:
    ///   - entry: An entry from ``entries`` of this archive.
    ///   - password: Needed for encrypted entries; ignored otherwise. Tried as UTF-8, then GB18030.
    /// - Throws: ``ZipError/passwordRequired(entry:)``, ``ZipError/wrongPassword(entry:)``,
    ///   ``ZipError/authenticationFailed(entry:)``, ``ZipError/crcMismatch(entry:)``,
    ///   ``ZipError/entryTooLarge(entry:limit:)``, ``ZipError/unsupportedCompression(entry:method:)``,
    ///   ``ZipError/unsupportedEncryption(entry:_:)``, ``ZipError/truncated``, ``ZipError/corrupt(_:)``.
    public func data(for entry: ZipEntry, password: String?) throws(ZipError) -> Data {
        guard entry.index >= 0, entry.index < entries.count, entries[entry.index] == entry else {
            throw .corrupt("entry does not belong to this archive")
        }
        let name = entry.name
        try checkDeclaredSize(entry)

        // Encryption and compression support, before any work.
        var aes: WinZipAESParameters?
        switch entry.encryption {
        case .none, .zipCrypto: break
        case .winZipAES:
            guard let parameters = WinZipAESParameters(extraField: entry.extraField) else {
                throw .unsupportedEncryption(entry: name, "malformed winzip aes extra field")
            }
            aes = parameters
        case .unsupported(let scheme):
            throw .unsupportedEncryption(entry: name, scheme)
        }
        guard entry.compressionMethod == 0 || entry.compressionMethod == 8 else {
            throw .unsupportedCompression(entry: name, method: entry.compressionMethod)
        }
        if entry.isEncrypted && password == nil {
            throw .passwordRequired(entry: name)
        }

        var raw = entry.needsDirectRead ? try readRawEntryDirectly(entry) : try readRawEntry(entry)

        // Decrypt.
        var checkCRC = true
        switch entry.encryption {
        case .none:
            break
        case .zipCrypto:
            let checkBytes: [UInt8] = entry.hasDataDescriptor
                ? [UInt8(truncatingIfNeeded: entry.dosDateTime >> 8), UInt8(truncatingIfNeeded: entry.crc32 >> 24)]
                : [UInt8(truncatingIfNeeded: entry.crc32 >> 24)]
            guard let plain = ZipCrypto.decrypt(raw, passwords: Self.passwordCandidates(password ?? ""),
                                                checkBytes: checkBytes) else {
                throw .wrongPassword(entry: name)
            }
            raw = plain
        case .winZipAES:
            guard let aes else { throw .unsupportedEncryption(entry: name, "malformed winzip aes extra field") }
            raw = try WinZipAES.decrypt(raw, parameters: aes, passwords: Self.passwordCandidates(password ?? ""),
                                        entry: name)
            checkCRC = aes.vendorVersion != 2
        case .unsupported:
            break
        }

        // Decompress, bounded by the declared size and the cap.
        let cap = min(entry.uncompressedSize, limits.maxEntrySize)
        let output: [UInt8]
        do throws(ZipError) {
            if entry.compressionMethod == 0 {
                guard UInt64(raw.count) == entry.uncompressedSize else {
                    if UInt64(raw.count) > cap { throw .entryTooLarge(entry: name, limit: cap) }
                    throw .corrupt("stored entry size mismatch")
                }
                output = raw
            } else {
                output = try Inflater.inflate(raw, limit: cap, entry: name)
                guard UInt64(output.count) == entry.uncompressedSize else {
                    throw .corrupt("entry size does not match its header")
                }
            }
            if checkCRC && zipCRC32(output) != entry.crc32 {
                throw .crcMismatch(entry: name)
            }
        } catch {
            // ZipCrypto's check byte passes for 1 in 256 wrong passwords: any later damage is
            // "wrong password or corrupt entry".
            if entry.encryption == .zipCrypto {
                if case .entryTooLarge = error { throw error }
                throw .wrongPassword(entry: name)
            }
            throw error
        }
        totalUncompressed += UInt64(output.count)
        return Data(output)
    }

    // MARK: - Limits

    private func checkDeclaredSize(_ entry: ZipEntry) throws(ZipError) {
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

    // MARK: - Raw reading

    /// Reads the stored bytes of a stored/deflated entry (possibly ZipCrypto-encrypted) through minizip in raw mode.
    private func readRawEntry(_ entry: ZipEntry) throws(ZipError) -> [UInt8] {
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
    private func readRawEntryDirectly(_ entry: ZipEntry) throws(ZipError) -> [UInt8] {
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

    // MARK: - Listing

    private static func listEntries(_ handle: unzFile, bytes: [UInt8], byteBefore: UInt64) throws(ZipError) -> [ZipEntry] {
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

    private static func currentEntry(_ handle: unzFile, index: Int, bytes: [UInt8], byteBefore: UInt64) throws(ZipError) -> ZipEntry {
        var info = unz_file_info64()
        guard unzGetCurrentFileInfo64(handle, &info, nil, 0, nil, 0, nil, 0) == UNZ_OK else {
            throw .corrupt("corrupt central directory")
        }
        var nameBytes = [UInt8](repeating: 0, count: Int(info.size_filename))
        var extra = [UInt8](repeating: 0, count: Int(info.size_file_extra))
        let status = nameBytes.withUnsafeMutableBytes { namePointer in
            extra.withUnsafeMutableBytes { extraPointer in
                unzGetCurrentFileInfo64(handle, &info,
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
              readLE32(bytes, Int(recordPosition)) == 0x0201_4b50 else {
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

    // MARK: - Names and passwords

    /// CFStringEncoding kCFStringEncodingGB_18030_2000 as a Foundation encoding.
    static let gb18030 = String.Encoding(rawValue: CFStringConvertEncodingToNSStringEncoding(0x0632))

    static func decodeName(_ bytes: [UInt8], flags: UInt16, extra: [UInt8]) -> String {
        if let utf8 = String(validating: bytes, as: UTF8.self) {
            return utf8
        }
        // Info-ZIP Unicode Path extra field (0x7075): version 1, CRC-32 of the raw name, UTF-8 name.
        if let unicodePath = extraBlock(extra, id: 0x7075), unicodePath.count > 5, unicodePath[0] == 1,
           readLE32(unicodePath, 1) == zipCRC32(bytes),
           let utf8 = String(validating: unicodePath[5...], as: UTF8.self) {
            return utf8
        }
        if flags & 0x0800 == 0, let gbk = String(data: Data(bytes), encoding: gb18030) {
            return gbk
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Password byte strings to try: UTF-8 first, then GB18030 (Chinese Windows tools) when it differs.
    static func passwordCandidates(_ password: String) -> [[UInt8]] {
        let utf8 = Array(password.utf8)
        if let gbk = password.data(using: gb18030).map(Array.init), gbk != utf8 {
            return [utf8, gbk]
        }
        return [utf8]
    }

    // MARK: - Errors at open

    private static func startsLikeZip(_ bytes: [UInt8]) -> Bool {
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
               readLE32(bytes, Int(zip64End)) == 0x0606_4b50 {
                recordPosition = zip64End
                size = readLE64(bytes, Int(zip64End) + 40)
                offset = readLE64(bytes, Int(zip64End) + 48)
            }
        }
        let (directoryEnd, overflow) = offset.addingReportingOverflow(size)
        guard !overflow, directoryEnd <= recordPosition else { return 0 }
        return recordPosition - directoryEnd
    }

    private static func isEmptyArchive(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 22 && readLE32(bytes, 0) == 0x0605_4b50 && readLE16(bytes, 10) == 0
            && 22 + Int(readLE16(bytes, 20)) == bytes.count
    }

    private static func hasEndRecord(_ bytes: [UInt8]) -> Bool {
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

@available(*, unavailable, message: "ZipArchive wraps a minizip handle; use it from one task")
extension ZipArchive: Sendable {}

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
    let crc = bytes.withContiguousStorageIfAvailable { buffer in
        crc32_z(0, buffer.baseAddress, Int(buffer.count))
    } ?? Array(bytes).withUnsafeBufferPointer { crc32_z(0, $0.baseAddress, Int($0.count)) }
    return UInt32(truncatingIfNeeded: crc)
}
