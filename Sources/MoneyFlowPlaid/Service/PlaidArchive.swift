import Foundation
import MoneyFlowPipeline
import MoneyFlowStore

/// The folder where every Plaid response MoneyFlow applied is kept as the Plaid JSON the
/// importer reads (tokens never in it), so `moneyflow import <archive>` into a fresh store
/// rebuilds the same ledger: audit and replay.
///
/// Names sort in the order the files were applied (UTC time to the millisecond, then item and
/// kind), and a folder import takes them in that order. A file is written hidden
/// (`.NAME.partial`, skipped by folder imports) before its import and renamed when the import
/// committed; after a crash in between, ``recover(store:)`` keeps it if the store has it and
/// deletes it otherwise, so the archive always holds exactly what the store applied.
public struct PlaidArchive: Sendable {
    public let directory: String

    public init(directory: String) { self.directory = directory }

    /// The default: `<store name>-plaid-archive` beside the store file.
    public static func besideStore(_ storePath: String) -> PlaidArchive {
        let dir = (storePath as NSString).deletingLastPathComponent
        let base = ((storePath as NSString).lastPathComponent as NSString).deletingPathExtension
        return PlaidArchive(directory: (dir.isEmpty ? "." : dir as NSString).appendingPathComponent("\(base)-plaid-archive"))
    }

    /// For a ledger on a server (no file to sit beside): a folder per ledger under
    /// `$XDG_DATA_HOME/moneyflow/plaid-archive` (default `~/.local/share/...`), named after the
    /// ledger's URL without its password; `--archive DIR` chooses another.
    public static func forLedger(named name: String) -> PlaidArchive {
        let env = ProcessInfo.processInfo.environment
        let base = env["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? ((env["HOME"] ?? NSTemporaryDirectory()) + "/.local/share")
        let safe = String(name.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "." ? $0 : "_" })
        return PlaidArchive(directory: base + "/moneyflow/plaid-archive/" + safe)
    }

    /// `20261124T101500.123Z-<item>-sync.json`.
    static func fileName(kind: String, itemID: String, at date: Date) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyyMMdd'T'HHmmss.SSS'Z'"
        let safeItem = String(
            itemID.unicodeScalars.map { CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_" ? Character($0) : "_" })
        return "\(f.string(from: date))-\(safeItem)-\(kind).json"
    }

    /// Writes `data` as the hidden partial of `name` (0600: bank data); returns its path.
    func writePartial(_ data: Data, name: String) throws -> String {
        let fm = FileManager.default
        if !fm.fileExists(atPath: directory) {
            try fm.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        let path = (directory as NSString).appendingPathComponent(".\(name).partial")
        guard fm.createFile(atPath: path, contents: data, attributes: [.posixPermissions: 0o600]) else {
            throw PlaidServiceError("cannot write the archive file \(path); choose another folder with --archive")
        }
        return path
    }

    /// Renames a partial to its final name, once its import committed.
    @discardableResult
    func commit(_ partialPath: String) throws -> String {
        let name = String((partialPath as NSString).lastPathComponent.dropFirst().dropLast(".partial".count))
        let final = (directory as NSString).appendingPathComponent(name)
        if rename(partialPath, final) != 0 { throw PlaidServiceError("cannot rename \(partialPath) to \(final)") }
        return final
    }

    /// Settles partials a killed run left: imported ones are committed, the others deleted.
    func recover(store: LedgerStore) throws {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names.sorted() where name.hasPrefix(".") && name.hasSuffix(".partial") {
            let path = (directory as NSString).appendingPathComponent(name)
            guard let data = FileManager.default.contents(atPath: path) else { continue }
            if try store.fileAlreadyImported(sha256: ImportService.sha256(data)) {
                try commit(path)
            } else {
                try FileManager.default.removeItem(atPath: path)
            }
        }
    }
}

/// A Plaid link, sync or archive failure that is not one of Plaid's own errors.
public struct PlaidServiceError: Error, CustomStringConvertible, Sendable {
    /// What a missing-item error is about, as data: its ``description`` is worded for the
    /// terminal (the store's file, `moneyflow plaid link`), which a caller such as the server
    /// must not pass on (no server file paths, no CLI advice to an app), so it words its own.
    public enum Missing: Sendable, Equatable {
        /// This item id names no item of the ledger (another user's, a typo).
        case item(String)
        /// The ledger has no linked item at all.
        case anyLinkedItem
    }

    public var description: String
    /// Set when the error is that something is missing from the ledger (see ``Missing``).
    public var missing: Missing?
    /// True when the error is that an item id names no item of this ledger (another user's,
    /// a typo): the server answers 404 for it, as for any id that names nothing.
    public var isNotFound: Bool {
        if case .item = missing { return true }
        return false
    }
    public init(_ description: String, missing: Missing? = nil) {
        self.description = description; self.missing = missing
    }

    /// An item id that names nothing in this ledger.
    public static func notFound(itemID: String, _ description: String) -> PlaidServiceError {
        PlaidServiceError(description, missing: .item(itemID))
    }
}
