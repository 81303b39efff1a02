import Crypto
import Foundation

/// Seals Plaid access tokens with AES-256-GCM under a key that never lives in the store.
///
/// An access token never expires and opens the user's bank data, so the store holds only the
/// sealed bytes (nonce, ciphertext, tag) and the id of the key that sealed them; the item id is
/// authenticated with each token, so a sealed token cannot be moved onto another item. The key
/// is a 0600 file: `MONEYFLOW_KEY_FILE`, else `moneyflow/plaid.key` in the user's config folder
/// (`$XDG_CONFIG_HOME` or `~/.config`), created on first use. A missing or different key is an
/// error that says which key the store needs, never a silent re-link.
public struct TokenVault: Sendable {
    public let keyFile: String
    private let key: SymmetricKey
    /// First 8 bytes of SHA-256 of the key, hex: stored beside each sealed token.
    public let keyID: String

    /// Where the key file is (or will be created).
    public static func keyFilePath(_ env: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let path = env["MONEYFLOW_KEY_FILE"], !path.isEmpty { return path }
        let config = env["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? ((env["HOME"] ?? NSHomeDirectory()) + "/.config")
        return config + "/moneyflow/plaid.key"
    }

    /// Opens the key file; creates it (0600, in a 0700 folder) only when `mayCreate` (no token
    /// has been sealed yet in this store) and it does not exist.
    public static func open(keyFile: String = keyFilePath(), mayCreate: Bool, storeKeyID: String? = nil) throws -> TokenVault {
        let fm = FileManager.default
        if !fm.fileExists(atPath: keyFile) {
            guard mayCreate else {
                throw VaultError(
                    "the key file \(keyFile) is missing, but this store holds Plaid tokens sealed with key \(storeKeyID ?? "?"); restore that key file (or set MONEYFLOW_KEY_FILE to it), or link the banks again with `moneyflow plaid link`"
                )
            }
            try create(keyFile)
        }
        let attributes = try? fm.attributesOfItem(atPath: keyFile)
        if let mode = (attributes?[.posixPermissions] as? NSNumber)?.intValue, mode & 0o077 != 0 {
            throw VaultError(
                "the key file \(keyFile) can be read by other users (mode \(String(mode, radix: 8))); run `chmod 600 \(keyFile)`")
        }
        guard let text = try? String(contentsOfFile: keyFile, encoding: .utf8),
            let bytes = Data(base64Encoded: text.trimmingCharacters(in: .whitespacesAndNewlines)), bytes.count == 32
        else {
            throw VaultError("the key file \(keyFile) does not hold a MoneyFlow key (32 bytes, base64); restore it from your backup")
        }
        let vault = TokenVault(keyFile: keyFile, key: SymmetricKey(data: bytes))
        if let storeKeyID, storeKeyID != vault.keyID {
            throw VaultError(
                "the key file \(keyFile) holds key \(vault.keyID), but this store's Plaid tokens were sealed with key \(storeKeyID); set MONEYFLOW_KEY_FILE to the right key file"
            )
        }
        return vault
    }

    init(keyFile: String, key: SymmetricKey) {
        self.keyFile = keyFile; self.key = key
        let digest = key.withUnsafeBytes { SHA256.hash(data: Data($0)) }
        self.keyID = digest.prefix(8).map { String(format: "%02x", $0) }.joined()
    }

    private static func create(_ path: String) throws {
        let fm = FileManager.default
        let dir = (path as NSString).deletingLastPathComponent
        if !dir.isEmpty && !fm.fileExists(atPath: dir) {
            try fm.createDirectory(atPath: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        let key = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
        // Created with 0600 from the start (no window in which the key is readable by others).
        guard fm.createFile(atPath: path, contents: Data((key.base64EncodedString() + "\n").utf8), attributes: [.posixPermissions: 0o600])
        else { throw VaultError("cannot create the key file \(path); set MONEYFLOW_KEY_FILE to a writable path") }
    }

    /// AES-GCM over the token, with the item id authenticated alongside.
    public func seal(_ token: String, itemID: String) throws -> Data {
        guard let combined = try AES.GCM.seal(Data(token.utf8), using: key, authenticating: Data(itemID.utf8)).combined else {
            throw VaultError("cannot seal the access token")
        }
        return combined
    }

    public func open(_ sealed: Data, itemID: String) throws -> String {
        do {
            let box = try AES.GCM.SealedBox(combined: sealed)
            return String(decoding: try AES.GCM.open(box, using: key, authenticating: Data(itemID.utf8)), as: UTF8.self)
        } catch {
            throw VaultError(
                "the access token of item \(itemID) does not open with the key in \(keyFile) (a different key, or the store was altered); restore the right key file or run `moneyflow plaid link --update \(itemID)`"
            )
        }
    }
}

/// A key file or sealed-token problem.
public struct VaultError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}
