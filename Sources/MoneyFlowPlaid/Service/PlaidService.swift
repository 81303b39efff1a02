import Crypto
import Foundation
import MoneyFlowCore
import MoneyFlowPipeline
import MoneyFlowStore

/// The live Plaid connection of one store: link items, sync them, list and remove them.
///
/// Everything Plaid sends goes the way a saved file would (architecture: feeds are files in
/// motion): the response is archived as Plaid JSON, read by the Plaid importer and applied by
/// the pipeline in one store transaction, with the sync cursor saved in that same transaction.
/// Access tokens enter and leave only through the ``TokenVault``.
public struct PlaidService: Sendable {
    public let store: LedgerStore
    public let client: PlaidClient
    public var archive: PlaidArchive
    public var keyFile: String
    /// Country codes offered in Link (`--country`).
    public var countryCodes = ["US"]
    /// Progress and notices (stderr in the CLI). Never given a token.
    public var notice: @Sendable (String) -> Void = { _ in }
    public var now: @Sendable () -> Date = { Date() }
    /// Asked when a newly linked Plaid account could be one of several store accounts (same
    /// institution, mask, type and subtype): gets the account's name and mask and the
    /// candidates' names, returns the chosen name or nil to keep it a new account. Without it
    /// (no terminal) the link warns and creates a new account, to be joined with `accounts link`.
    public var chooseAccount: (@Sendable (_ account: String, _ mask: String?, _ candidates: [String]) -> String?)?

    public init(store: LedgerStore, client: PlaidClient, archive: PlaidArchive? = nil, keyFile: String = TokenVault.keyFilePath()) {
        self.store = store; self.client = client
        self.archive = archive ?? store.filePath.map(PlaidArchive.besideStore) ?? PlaidArchive.forLedger(named: store.path)
        self.keyFile = keyFile
    }

    /// Plaid's `client_user_id`: stable per store, and not personal data.
    public var clientUserID: String {
        let path = URL(fileURLWithPath: store.path).standardizedFileURL.path
        return "moneyflow-" + SHA256.hash(data: Data(path.utf8)).prefix(12).map { String(format: "%02x", $0) }.joined()
    }

    /// The vault for this store's tokens; a key is created only before the first token.
    func vault(creating: Bool) async throws -> TokenVault {
        let keyID = try await store.plaidTokenKeyID()
        return try TokenVault.open(keyFile: keyFile, mayCreate: creating && keyID == nil, storeKeyID: keyID)
    }

    func accessToken(_ item: PlaidItemRecord, vault: TokenVault) throws -> String {
        guard let sealed = item.sealedToken, item.isLinked else {
            throw PlaidServiceError(
                "item \(item.itemID) was \(item.status == .retired ? "replaced by \(item.replacedBy ?? "a newer item")" : "removed"); it has no access token any more"
            )
        }
        return try vault.open(sealed, itemID: item.itemID)
    }

    func item(_ itemID: String) async throws -> PlaidItemRecord {
        guard let item = try await store.plaidItem(itemID) else {
            let known = try await store.plaidItems().map(\.itemID)
            throw PlaidServiceError.notFound(
                itemID: itemID,
                "no Plaid item \(itemID) in \(store.path)\(known.isEmpty ? "; link one with `moneyflow plaid link`" : " (known: \(known.joined(separator: ", ")))")"
            )
        }
        return item
    }

    static func timestamp(_ d: Date) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        return f.string(from: d)
    }

    /// Archives `data` under `kind` for `itemID`, imports it as Plaid JSON, and keeps the
    /// archive file only once the import committed (all on the store's threads: the archive
    /// file and the import block).
    func importArchived(_ data: Data, kind: String, itemID: String) async throws -> (FileImportResult, String) {
        let archive = self.archive
        let name = PlaidArchive.fileName(kind: kind, itemID: itemID, at: now())
        return try await store.perform { store in
            let partial = try archive.writePartial(data, name: name)
            let finalPath = (archive.directory as NSString).appendingPathComponent(name)
            do {
                let result = try ImportService(store: store).importFile(
                    path: partial, displayName: finalPath, options: FileImportOptions(format: "plaid"))
                try archive.commit(partial)
                return (result, finalPath)
            } catch {
                try? FileManager.default.removeItem(atPath: partial)
                throw error
            }
        }
    }

    /// Settles the archive's partial files a killed run left (see ``PlaidArchive/recover(store:)``),
    /// on the store's threads.
    func recoverArchive() async throws {
        let archive = self.archive
        try await store.perform { try archive.recover(store: $0) }
    }

    // MARK: - Items and removal

    /// One row of `plaid items`.
    public struct ItemInfo: Sendable {
        public var item: PlaidItemRecord
        /// Store accounts its Plaid accounts land on.
        public var accounts: [String]
        /// Set when `/item/get` could not be asked (offline, bad keys): what went wrong.
        public var statusError: String?
    }

    /// Every item, with Plaid's freshness (`/item/get`) for the linked ones when `askPlaid`.
    public func items(askPlaid: Bool) async throws -> [ItemInfo] {
        try await recoverArchive()
        var statusErrors: [String: String] = [:]
        let linked = try await store.plaidItems().filter(\.isLinked)
        if askPlaid, !linked.isEmpty {
            let vault = try await self.vault(creating: false)
            var unanswered: PlaidTransportError?
            for item in linked {
                if let unanswered {
                    statusErrors[item.itemID] = "not asked: \(unanswered.description)"
                    continue
                }
                do {
                    let status = try await client.item(accessToken: try accessToken(item, vault: vault))
                    let code = status.item.error?.error_code
                    let newStatus: PlaidItemRecord.Status = code == nil ? (item.status == .needsUser ? .active : item.status) : .needsUser
                    try await store.notePlaidFreshness(
                        itemID: item.itemID, status: newStatus, errorCode: code ?? (newStatus == .active ? nil : item.errorCode),
                        errorMessage: status.item.error?.error_message, plaidLastUpdate: status.status?.transactions?.last_successful_update
                    )
                } catch let e as PlaidAPIError {
                    statusErrors[item.itemID] = e.description
                    if e.handling == .itemNeedsUser || e.handling == .itemGone {
                        try await store.notePlaidFreshness(
                            itemID: item.itemID, status: e.handling == .itemNeedsUser ? .needsUser : .error, errorCode: e.errorCode,
                            errorMessage: e.errorMessage, plaidLastUpdate: nil)
                    }
                } catch let e as PlaidTransportError where e.noAnswer {
                    statusErrors[item.itemID] = e.description
                    unanswered = e
                } catch {
                    statusErrors[item.itemID] = String(describing: error)
                }
            }
        }
        return try await Self.storedItems(store).map { info in
            var info = info
            info.statusError = statusErrors[info.item.itemID]
            return info
        }
    }

    /// Every item as the store knows it, without asking Plaid (`plaid items --offline`: needs
    /// no Plaid keys and no key file).
    public static func storedItems(_ store: LedgerStore) async throws -> [ItemInfo] {
        let keys = Dictionary(try await store.plaidAccountKeys().map { ($0.key, $0.account) }, uniquingKeysWith: { a, _ in a })
        return try await store.plaidItems().map { item in
            var accounts: [String] = []
            for name in item.accountIDs.compactMap({ keys["plaid:" + $0] }) where !accounts.contains(name) { accounts.append(name) }
            return ItemInfo(item: item, accounts: accounts, statusError: nil)
        }
    }

    /// `/item/remove` at Plaid and the sealed token deleted; the item's transactions stay.
    public func remove(itemID: String) async throws {
        let item = try await self.item(itemID)
        guard item.isLinked else { throw PlaidServiceError("item \(itemID) is already \(item.status.rawValue)") }
        let token = try accessToken(item, vault: try await vault(creating: false))
        do { try await client.removeItem(accessToken: token) } catch let e as PlaidAPIError where e.handling == .itemGone {
            notice("Plaid no longer knows item \(itemID) (\(e.errorCode)); forgetting its token")
        }
        try await store.unlinkPlaidItem(itemID, status: .removed)
    }
}
