import Foundation
import MoneyFlowCore
import MoneyFlowImporters
import MoneyFlowPipeline
import MoneyFlowStore

/// What syncing one item did.
public struct PlaidItemSyncResult: Sendable {
    public enum Outcome: String, Sendable {
        /// A complete update was applied.
        case synced
        /// Plaid had nothing new since the saved cursor.
        case upToDate = "up_to_date"
        /// Plaid has not finished its first pull after linking; run sync again later.
        case notReady = "not_ready"
        case failed
    }
    public var itemID: String
    public var institution: String?
    public var outcome: Outcome
    /// Added + modified + removed entries Plaid sent.
    public var changes = 0
    /// Times the update was fetched again because Plaid's data changed while paging.
    public var restarts = 0
    public var updateStatus: String?
    public var importResult: FileImportResult?
    public var archiveFile: String?
    public var errorCode: String?
    public var error: String?
}

extension PlaidService {
    /// The error code of an item whose sync failed because Plaid could not be reached.
    public static let unreachableCode = "PLAID_UNREACHABLE"

    /// Syncs `itemIDs` (every linked item when empty), one after the other. One item failing
    /// (login needed, outage after the retries) is recorded on it and does not stop the others.
    /// `refresh` first asks Plaid to fetch from the bank (`/transactions/refresh`).
    public func sync(
        itemIDs: [String], refresh: Bool, progress: (@Sendable (_ itemID: String, _ pages: Int, _ changes: Int) -> Void)? = nil
    ) async throws -> [PlaidItemSyncResult] {
        try await recoverArchive()
        let all = try await store.plaidItems()
        let chosen: [PlaidItemRecord]
        if itemIDs.isEmpty {
            chosen = all.filter(\.isLinked)
            if chosen.isEmpty {
                throw PlaidServiceError(
                    "no linked Plaid item in \(store.path); link one with `moneyflow plaid link`", missing: .anyLinkedItem)
            }
        } else {
            var asked: [PlaidItemRecord] = []
            for id in itemIDs {
                let item = try await self.item(id)
                if !item.isLinked { _ = try accessToken(item, vault: try await vault(creating: false)) } // says why it cannot sync
                asked.append(item)
            }
            chosen = asked
        }
        let tokenVault = try await self.vault(creating: false)
        var results: [PlaidItemSyncResult] = []
        // Once Plaid did not answer, the other items would only wait as long again: they are
        // reported not tried, so a request ends within one call's deadline.
        var unanswered: String?
        for item in chosen {
            if let unanswered {
                results.append(
                    PlaidItemSyncResult(
                        itemID: item.itemID, institution: item.institutionName ?? item.institutionID, outcome: .failed,
                        errorCode: Self.unreachableCode, error: "not tried: \(unanswered)"))
                continue
            }
            let token = try accessToken(item, vault: tokenVault)
            let result = await syncOne(item, token: token, refresh: refresh, progress: progress)
            if result.errorCode == Self.unreachableCode { unanswered = result.error }
            results.append(result)
        }
        return results
    }

    /// True when the update's accounts carry a balance the store does not have yet: a quiet
    /// day still brings the day's balances (applied like any update, so they are archived too).
    func balancesChanged(_ update: PlaidUpdate) async throws -> Bool {
        let statement = try PlaidImporter().read(ImportInput(fileName: "sync", data: update.fileBytes), options: ImportOptions())
        let stored = try await store.accounts()
        for f in statement.accounts where f.currentBalance != nil || f.availableBalance != nil {
            guard let account = stored.first(where: { $0.keys.contains(f.key) }) else { return true }
            if (f.currentBalance != nil && f.currentBalance != account.currentBalance)
                || (f.availableBalance != nil && f.availableBalance != account.availableBalance)
            {
                return true
            }
        }
        return false
    }

    private func syncOne(
        _ item: PlaidItemRecord, token: String, refresh: Bool,
        progress: (@Sendable (_ itemID: String, _ pages: Int, _ changes: Int) -> Void)?
    ) async -> PlaidItemSyncResult {
        var result = PlaidItemSyncResult(itemID: item.itemID, institution: item.institutionName ?? item.institutionID, outcome: .failed)
        let startedAt = Self.timestamp(now())
        do {
            if refresh {
                do { try await client.refresh(accessToken: token) } catch let e as PlaidAPIError where e.handling == .fatal {
                    // Refresh is a paid add-on: without it the sync still brings what Plaid has.
                    notice("\(item.itemID): /transactions/refresh refused (\(e.errorCode)); syncing what Plaid already has")
                }
            }
            if item.accountIDs.isEmpty {
                // The link stopped before its accounts came in: bring them first, so they are
                // named after the bank (and land on a re-linked bank's accounts).
                _ = try await finishUpdate(itemID: item.itemID)
            }
            let scope = SyncUpdate.plaidItemScope(itemID: item.itemID)
            var saved = try await store.syncProgress(scope: scope)
            if saved == nil { saved = try await store.syncCursor(scope: scope) }
            let cursor = saved
            let itemID = item.itemID
            var loop = PlaidSyncLoop(client: client, accessToken: token, itemID: itemID)
            if let progress {
                loop.progress = { @Sendable pages, changes in progress(itemID, pages, changes) }
            }
            switch try await loop.fetch(from: cursor) {
            case .notReady:
                result.outcome = .notReady
                result.updateStatus = "NOT_READY"
                try await store.notePlaidSync(
                    itemID: item.itemID, status: .active, errorCode: nil, errorMessage: nil, at: startedAt, succeeded: false,
                    plaidLastUpdate: nil)
                return result
            case .update(let update):
                result.changes = update.changeCount
                result.restarts = update.restarts
                result.updateStatus = update.updateStatus
                let quiet = update.changeCount == 0 && update.nextCursor == (cursor ?? "")
                let balancesMoved = quiet ? try await balancesChanged(update) : true
                if quiet && !balancesMoved {
                    result.outcome = .upToDate
                } else {
                    let (imported, path) = try await importArchived(update.fileBytes, kind: "sync", itemID: item.itemID)
                    result.importResult = imported
                    result.archiveFile = path
                    result.outcome = .synced
                }
            }
            let freshness = try? await client.item(accessToken: token)
            try await store.notePlaidSync(
                itemID: item.itemID, status: .active, errorCode: nil, errorMessage: nil, at: startedAt, succeeded: true,
                plaidLastUpdate: freshness?.status?.transactions?.last_successful_update)
        } catch {
            result.outcome = .failed
            var status = PlaidItemRecord.Status.error
            switch error {
            case let e as PlaidAPIError:
                result.errorCode = e.errorCode
                result.error = e.description
                if e.handling == .itemNeedsUser { status = .needsUser }
            case let e as PlaidTransportError where e.noAnswer:
                result.errorCode = Self.unreachableCode
                result.error = e.description
            case let e as ImportError:
                result.errorCode = "IMPORT_FAILED"
                result.error = e.description
            default:
                result.errorCode = "SYNC_FAILED"
                result.error = String(describing: error)
            }
            try? await store.notePlaidSync(
                itemID: item.itemID, status: status, errorCode: result.errorCode, errorMessage: result.error, at: startedAt,
                succeeded: false, plaidLastUpdate: nil)
        }
        return result
    }
}
