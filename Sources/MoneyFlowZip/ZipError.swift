/// Errors thrown while reading a ZIP archive.
///
/// Descriptions are short, lower-case, one-line phrases that never contain the archive path
/// (callers prefix the file name themselves) and never contain a password.
public enum ZipError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The bytes are not a ZIP archive.
    case notAZip
    /// The archive looks like a ZIP but ends early (no end-of-central-directory record, or an entry runs past the end).
    case truncated
    /// The archive structure or an entry's data is damaged; the string is a short phrase saying what.
    case corrupt(String)
    /// The entry is encrypted and no password was given.
    case passwordRequired(entry: String)
    /// The password does not match (for ZipCrypto this can also mean a corrupt entry).
    case wrongPassword(entry: String)
    /// A WinZip AES entry failed its HMAC-SHA1 check: the ciphertext was tampered with or is corrupt.
    case authenticationFailed(entry: String)
    /// The decompressed bytes do not match the stored CRC-32.
    case crcMismatch(entry: String)
    /// The entry uses a compression method other than stored (0) or deflate (8).
    case unsupportedCompression(entry: String, method: Int)
    /// The entry uses an encryption scheme this reader cannot decrypt.
    case unsupportedEncryption(entry: String, String)
    /// The entry's declared or actual size exceeds a ``ZipLimits`` bound.
    case entryTooLarge(entry: String, limit: UInt64)

    public var description: String {
        switch self {
        case .notAZip: return "not a zip archive"
        case .truncated: return "truncated zip archive"
        case .corrupt(let reason): return reason
        case .passwordRequired: return "password required"
        case .wrongPassword: return "wrong password or corrupt entry"
        case .authenticationFailed: return "authentication failed (tampered or corrupt entry)"
        case .crcMismatch: return "crc-32 mismatch (corrupt entry)"
        case .unsupportedCompression(_, let method): return "unsupported compression method \(method)"
        case .unsupportedEncryption(_, let scheme): return "unsupported encryption: \(scheme)"
        case .entryTooLarge(let entry, let limit):
            let size = limit % (1 << 20) == 0 ? "\(limit >> 20) MiB" : "\(limit) bytes"
            return "entry '\(entry.prefix(80))' exceeds the size limit of \(size) of decompressed data"
        }
    }
}
