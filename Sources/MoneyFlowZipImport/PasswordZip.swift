import Foundation
import MoneyFlowCore
import MoneyFlowImporters
import MoneyFlowZip

/// The password of one import, asked of the ``PasswordProvider`` at most once and only when an
/// encrypted entry (or PDF) needs it: `--password-env`, `--password-file` or the terminal prompt
/// all arrive through the provider, so every container importer handles them alike.
///
/// A class so that the one answer is shared by the ZIP entry and, for CMB, the PDF inside it.
public final class ImportPassword {
    let file: String
    let provider: PasswordProvider?
    private var asked = false
    /// The password once asked (nil before, or when the file needed none).
    public private(set) var value: String?

    public init(file: String, options: ImportOptions) {
        self.file = file; self.provider = options.password
    }

    /// The password, asking for it the first time; a missing one is the `passwordRequired` error
    /// that names the three ways to give it.
    public func get() throws -> String {
        if asked, let value { return value }
        asked = true
        guard let p = try provider?(file), !p.isEmpty else { throw PasswordZip.passwordRequired(file: file) }
        value = p
        return p
    }
}

/// Opening the password-protected ZIPs banks and wallets e-mail (CMB statements, Alipay and
/// WeChat Pay bills), with one set of errors: wrong password, password required, zip bomb,
/// truncated or damaged archive, unsafe entry names. Nothing is extracted to disk.
public enum PasswordZip {
    /// A ZIP by its signature (a local header, or the end record of an empty archive).
    public static func isZip(_ d: Data) -> Bool { d.starts(with: [0x50, 0x4B, 0x03, 0x04]) || d.starts(with: [0x50, 0x4B, 0x05, 0x06]) }

    /// The archive, or the `ImportError` that says why it cannot be read.
    public static func open(_ data: Data, file: String, limits: ZipLimits) throws -> ZipArchive {
        do { return try ZipArchive(data: data, limits: limits) } catch { throw map(error, file: file) }
    }

    /// Refuses an archive carrying a name that points outside its folder: nothing is ever
    /// extracted, but such an archive is not what a bank or wallet sends.
    public static func refuseUnsafeNames(_ zip: ZipArchive, file: String) throws {
        if let unsafe = zip.entries.first(where: \.isUnsafePath) {
            throw ImportError(
                .malformed, file: file, problem: "refused: unsafe ZIP entry name '\(unsafe.name.prefix(60))' (points outside its folder)")
        }
    }

    /// The bytes of `entry`, decrypted with the import's password when it is encrypted.
    public static func data(of entry: ZipEntry, in zip: ZipArchive, password: ImportPassword, file: String) throws -> Data {
        do { return try zip.data(for: entry, password: entry.isEncrypted ? try password.get() : nil) } catch let error as ZipError {
            throw map(error, file: file)
        }
    }

    public static func passwordRequired(file: String) -> ImportError {
        ImportError(
            .passwordRequired, file: file,
            problem: "password required (use --password-env VAR, --password-file FILE, or run in a terminal to be asked)")
    }

    public static func map(_ e: ZipError, file: String) -> ImportError {
        switch e {
        case .wrongPassword: return ImportError(.wrongPassword, file: file, problem: "")
        case .passwordRequired: return passwordRequired(file: file)
        case .entryTooLarge: return ImportError(.limitExceeded, file: file, problem: "refused: \(e.description) (zip bomb?)")
        case .truncated: return ImportError(.malformed, file: file, problem: "truncated ZIP archive")
        case .notAZip: return ImportError(.malformed, file: file, problem: "damaged ZIP archive")
        default: return ImportError(.malformed, file: file, problem: "ZIP: \(e.description)")
        }
    }
}
