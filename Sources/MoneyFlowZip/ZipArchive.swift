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

    let handle: unzFile?
    let stream: MemoryStream
    private let streamRetain: Unmanaged<MemoryStream>
    private(set) var totalUncompressed: UInt64 = 0

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
            let checkBytes: [UInt8] =
                entry.hasDataDescriptor
                ? [UInt8(truncatingIfNeeded: entry.dosDateTime >> 8), UInt8(truncatingIfNeeded: entry.crc32 >> 24)]
                : [UInt8(truncatingIfNeeded: entry.crc32 >> 24)]
            guard
                let plain = ZipCrypto.decrypt(
                    raw, passwords: Self.passwordCandidates(password ?? ""),
                    checkBytes: checkBytes)
            else {
                throw .wrongPassword(entry: name)
            }
            raw = plain
        case .winZipAES:
            guard let aes else { throw .unsupportedEncryption(entry: name, "malformed winzip aes extra field") }
            raw = try WinZipAES.decrypt(
                raw, parameters: aes, passwords: Self.passwordCandidates(password ?? ""),
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
}

@available(*, unavailable, message: "ZipArchive wraps a minizip handle; use it from one task")
extension ZipArchive: Sendable {}
