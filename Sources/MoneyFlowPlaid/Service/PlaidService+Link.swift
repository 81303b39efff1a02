import Foundation
import MoneyFlowCore
import MoneyFlowImporters
import MoneyFlowPipeline
import MoneyFlowReconcile
import MoneyFlowStore

/// What linking an item did.
public struct PlaidLinkResult: Sendable {
    public var itemID: String
    public var institution: String?
    /// The import of the item's `/accounts/get` response (which store accounts it created or joined).
    public var accounts: FileImportResult
    /// Items of the same bank this link replaced (removed at Plaid, transactions kept).
    public var retiredItems: [String]
    /// Items whose removal at Plaid failed (retired here anyway); remove them in the dashboard.
    public var retireFailures: [String]
}

extension PlaidService {
    /// Days of history asked for at link time: Plaid fixes it when the item is created, and its
    /// own default (90) is what users regret; 730 is Plaid's maximum.
    public static let defaultDays = 730

    /// A link token for a new item (`update` nil) or update mode for an existing one.
    public func createLinkToken(days: Int, redirectURI: String?, update itemID: String? = nil) async throws -> String {
        let request: LinkTokenCreateRequest
        if let itemID {
            let token = try accessToken(try await item(itemID), vault: try await vault(creating: false))
            request = .update(accessToken: token, userID: clientUserID, countryCodes: countryCodes, redirectURI: redirectURI)
        } else {
            request = .newItem(userID: clientUserID, days: days, countryCodes: countryCodes, redirectURI: redirectURI)
        }
        return try await client.createLinkToken(request).link_token
    }

    /// `--sandbox`: a sandbox item without a browser.
    public func linkSandbox(institutionID: String, days: Int) async throws -> PlaidLinkResult {
        guard client.configuration.allowsSandboxEndpoints else {
            throw PlaidServiceError("--sandbox needs PLAID_ENV=sandbox (or a sandbox base URL); PLAID_ENV is production")
        }
        let publicToken = try await client.sandboxPublicToken(institutionID: institutionID, days: days)
        return try await finishLink(publicToken: publicToken)
    }

    /// Exchanges a public token (from Link, an app, or the sandbox) and brings the item in:
    /// token sealed and saved at once, its accounts imported (landing on the store accounts of
    /// an earlier link of the same bank), and any item it replaces retired.
    public func finishLink(publicToken: String) async throws -> PlaidLinkResult {
        let vault = try await self.vault(creating: true)
        try await recoverArchive()
        let (token, itemID) = try await client.exchange(publicToken: publicToken)
        // Saved before anything else can fail: an item Plaid bills for is never forgotten.
        var record = PlaidItemRecord(
            itemID: itemID, institutionID: nil, institutionName: nil, sealedToken: try vault.seal(token, itemID: itemID),
            keyID: vault.keyID, linkedAt: Self.timestamp(now()))
        try await store.savePlaidItem(record)
        if let status = try? await client.item(accessToken: token) {
            record.institutionID = status.item.institution_id
            record.institutionName = status.item.institution_name
            record.plaidLastUpdate = status.status?.transactions?.last_successful_update
        }
        try await store.savePlaidItem(record)
        let accountsBody = Self.withInstitutionName(try await client.accounts(accessToken: token), record.institutionName)
        try await askWhereAmbiguousAccountsBelong(accountsBody)
        let (result, _) = try await importArchived(accountsBody, kind: "accounts", itemID: itemID)
        // Only once its accounts are in (a sync brings them first otherwise).
        record.accountIDs = Self.accountIDs(in: accountsBody)
        try await store.savePlaidItem(record)
        let (retired, failed) = try await retireReplacedItems(by: record)
        return PlaidLinkResult(
            itemID: itemID, institution: record.institutionName ?? record.institutionID, accounts: result, retiredItems: retired,
            retireFailures: failed)
    }

    /// After `link --update ITEM` succeeded in Link: the item works again and accounts the user
    /// added in Account Select come in; its data and cursor are kept.
    public func finishUpdate(itemID: String) async throws -> FileImportResult {
        var record = try await item(itemID)
        let token = try accessToken(record, vault: try await vault(creating: false))
        let body = try await client.accounts(accessToken: token)
        let result = try await importArchived(Self.withInstitutionName(body, record.institutionName), kind: "accounts", itemID: itemID).0
        record.accountIDs = Self.accountIDs(in: body)
        record.status = .active
        record.errorCode = nil
        record.errorMessage = nil
        try await store.savePlaidItem(record)
        return result
    }

    /// Items of the same institution ALL of whose accounts the new item's accounts landed on:
    /// the same bank linked again. They are removed at Plaid and kept here as `retired` (their
    /// transactions stay; the new item's history links to them). An item that shares only some
    /// accounts (a joint account seen from a second login) stays: both keep syncing, and the
    /// shared account's transactions link instead of doubling.
    func retireReplacedItems(by new: PlaidItemRecord) async throws -> (retired: [String], failed: [String]) {
        let keys = Dictionary(try await store.plaidAccountKeys().map { ($0.key, $0.account) }, uniquingKeysWith: { a, _ in a })
        let newAccounts = Set(new.accountIDs.compactMap { keys["plaid:" + $0] })
        var retired: [String] = [], failed: [String] = []
        let vault = try await self.vault(creating: false)
        for old in try await store.plaidItems() where old.itemID != new.itemID && old.isLinked {
            if let a = old.institutionID, let b = new.institutionID, a != b { continue }
            let oldAccounts = Set(old.accountIDs.compactMap { keys["plaid:" + $0] })
            guard !oldAccounts.isEmpty, oldAccounts.isSubset(of: newAccounts) else { continue }
            do {
                try await client.removeItem(accessToken: try accessToken(old, vault: vault))
            } catch let e as PlaidAPIError where e.handling == .itemGone {
                // Already gone at Plaid: nothing left to remove.
            } catch {
                failed.append(old.itemID)
                notice("could not remove the replaced item \(old.itemID) at Plaid (\(error)); remove it in the Plaid dashboard")
            }
            try await store.unlinkPlaidItem(old.itemID, status: .retired, replacedBy: new.itemID)
            retired.append(old.itemID)
        }
        return (retired, failed)
    }

    /// A re-linked bank whose account matches several store accounts (institution, mask, type
    /// and subtype) is not guessed by the import: when a ``chooseAccount`` is set, the user
    /// picks, and the account's key is attached to their choice before the import, which then
    /// lands it there.
    func askWhereAmbiguousAccountsBelong(_ accountsBody: Data) async throws {
        guard let chooseAccount else { return }
        let statement = try PlaidImporter().read(ImportInput(fileName: "accounts", data: accountsBody), options: ImportOptions())
        let existing = try await store.accounts()
        let known = Set(existing.flatMap(\.keys))
        for f in statement.accounts where f.provider == "plaid" && !known.contains(f.key) {
            let candidates = existing.filter {
                Reconciler.couldBeRelinked(
                    f, institution: $0.institution, number: $0.number, type: $0.type, subtype: $0.subtype, provider: $0.provider)
            }
            guard candidates.count > 1 else { continue }
            if let chosen = chooseAccount(f.suggestedName, f.number, candidates.map(\.name)),
                candidates.contains(where: { $0.name == chosen })
            {
                try await store.linkAccountKey(f.key, toAccount: chosen)
            }
        }
    }

    static func accountIDs(in body: Data) -> [String] {
        guard let o = try? JSONSerialization.jsonObject(with: body) as? [String: Any], let list = o["accounts"] as? [[String: Any]] else {
            return []
        }
        return list.compactMap { $0["account_id"] as? String }
    }

    /// `/accounts/get` names the institution only by id; the name `/item/get` gave is added to
    /// its `item` object (a field of Plaid's own Item schema) so accounts are named after the bank.
    /// Spliced into the bytes: re-serialising would send the balances' number text through Double.
    static func withInstitutionName(_ body: Data, _ name: String?) -> Data {
        guard let name, body.range(of: Data("\"institution_name\"".utf8)) == nil,
            let key = body.range(of: Data("\"item\"".utf8))
        else { return body }
        var k = key.upperBound
        func skipSpace() { while k < body.endIndex, [0x20, 0x09, 0x0A, 0x0D].contains(body[k]) { k += 1 } }
        skipSpace()
        guard k < body.endIndex, body[k] == UInt8(ascii: ":") else { return body }
        k += 1
        skipSpace()
        guard k < body.endIndex, body[k] == UInt8(ascii: "{") else { return body }
        let emptyObject = body[(k + 1)...].first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "}")
        var out = body
        let field = "\"institution_name\": \(JSONString.quoted(name, lineSeparators: .literal))" + (emptyObject ? "" : ", ")
        out.insert(contentsOf: Data(field.utf8), at: k + 1)
        return out
    }
}
