/// How a ZIP entry is encrypted.
public enum ZipEncryption: Sendable, Hashable {
    /// Not encrypted.
    case none
    /// Traditional PKWARE ("ZipCrypto") stream cipher.
    case zipCrypto
    /// WinZip AES (compression method 99). `keyBits` is 128, 192 or 256; `vendorVersion` is 1 (AE-1, CRC kept) or 2 (AE-2, CRC 0).
    case winZipAES(keyBits: Int, vendorVersion: Int)
    /// An encryption scheme this reader cannot decrypt (PKWARE strong encryption, malformed AES extra field, ...).
    case unsupported(String)
}

/// One entry of a ZIP archive as listed in its central directory. A plain value: holds no handle.
public struct ZipEntry: Sendable, Hashable {
    /// Position of the entry in the central directory (0-based).
    public let index: Int
    /// Entry name: UTF-8 when flag bit 11 is set or the bytes are valid UTF-8, else decoded as GB18030 (GBK).
    public let name: String
    /// The name exactly as stored in the central directory.
    public let rawName: [UInt8]
    /// Stored (compressed, and for encrypted entries encrypted) size in bytes, ZIP64-aware.
    public let compressedSize: UInt64
    /// Declared uncompressed size in bytes, ZIP64-aware.
    public let uncompressedSize: UInt64
    /// Stored CRC-32 (0 for WinZip AE-2 entries).
    public let crc32: UInt32
    /// Compression method field as stored: 0 stored, 8 deflate, 99 WinZip AES.
    public let method: Int
    /// The real compression method: equal to `method`, except for WinZip AES where it comes from the 0x9901 extra field.
    public let compressionMethod: Int
    /// Encryption scheme.
    public let encryption: ZipEncryption
    /// True for directory entries (name ends with "/" or the MS-DOS directory attribute is set).
    public let isDirectory: Bool
    /// General-purpose bit flags.
    public let flags: UInt16
    /// MS-DOS modification date (high 16 bits) and time (low 16 bits).
    public let dosDateTime: UInt32

    /// Offset of the central directory record, for `unzSetOffset64`.
    let centralDirectoryPosition: UInt64
    /// Absolute offset of the local file header in the archive bytes (ZIP64-aware).
    let localHeaderOffset: UInt64
    /// Read the stored bytes without minizip (WinZip AES, ZIP64 sizes or offsets).
    let needsDirectRead: Bool
    /// The central-directory extra field.
    let extraField: [UInt8]

    /// True when the entry is encrypted (flag bit 0).
    public var isEncrypted: Bool { encryption != .none }

    /// True when sizes and CRC follow the data in a data descriptor (flag bit 3).
    public var hasDataDescriptor: Bool { flags & 0x0008 != 0 }

    /// True when the name would escape an extraction directory: absolute paths, drive letters,
    /// `..` components, backslashes or NUL bytes. Reading such an entry is still allowed,
    /// since this module never writes entries to disk; callers should flag it.
    public var isUnsafePath: Bool {
        if name.isEmpty { return false }
        if name.hasPrefix("/") || name.contains("\\") || name.contains("\0") { return true }
        let scalars = Array(name.unicodeScalars.prefix(2))
        if scalars.count == 2, scalars[1] == ":", scalars[0].isASCII,
            scalars[0].properties.isAlphabetic
        {
            return true
        }
        return name.split(separator: "/", omittingEmptySubsequences: false).contains("..")
    }
}

/// Bounds that protect against ZIP bombs. Entries are only ever decompressed into memory.
public struct ZipLimits: Sendable, Hashable {
    /// Largest uncompressed size accepted for one entry (declared and actual). Default 512 MiB.
    public var maxEntrySize: UInt64
    /// Largest declared uncompressed/compressed ratio, checked for entries that declare more than
    /// 1 MiB (tiny, highly compressible entries are harmless). Default 1000.
    public var maxCompressionRatio: UInt64
    /// Largest total of uncompressed bytes returned by one ``ZipArchive`` across all `data(for:password:)` calls. Default 2 GiB.
    public var maxTotalUncompressed: UInt64

    /// Creates limits; the defaults are 512 MiB per entry, ratio 1000 and 2 GiB in total.
    public init(
        maxEntrySize: UInt64 = 512 << 20, maxCompressionRatio: UInt64 = 1000,
        maxTotalUncompressed: UInt64 = 2 << 30
    ) {
        self.maxEntrySize = maxEntrySize
        self.maxCompressionRatio = maxCompressionRatio
        self.maxTotalUncompressed = maxTotalUncompressed
    }

    /// 512 MiB per entry, ratio 1000, 2 GiB in total.
    public static let `default` = ZipLimits()

    /// What one statement import may decompress, entries together: 32 MiB. A bank statement or
    /// a wallet bill is a few MiB (a year of Alipay rows is about 3 MiB of CSV); a small upload
    /// that inflates further (a 3.7 MB ZIP of 256 MiB, parsed into rows, peaked at 0.9 GB) is
    /// refused before it is read.
    public static let statementImport = ZipLimits(maxEntrySize: 32 << 20, maxTotalUncompressed: 32 << 20)
}
