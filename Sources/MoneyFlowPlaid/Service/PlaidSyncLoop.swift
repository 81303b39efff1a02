import Foundation
import MoneyFlowCore

/// One complete `/transactions/sync` update of an item, as the pages Plaid sent.
public struct PlaidUpdate: Sendable {
    /// Each page wrapped with the request that produced it (`{"request": {"cursor", "item_id"},
    /// "response": <the page's bytes as received>}`), in order: the shape the Plaid importer
    /// reads and whose cursor chain it checks.
    public var pages: [Data]
    /// The cursor the update started from (nil: the whole history).
    public var startCursor: String?
    public var nextCursor: String
    public var changeCount: Int
    /// `transactions_update_status` of the last page.
    public var updateStatus: String?
    /// How often Plaid's data changed while paging and the update was fetched again.
    public var restarts: Int

    /// The pages as one JSON array: the file that is archived and imported.
    public var fileBytes: Data {
        var out = Data("[\n".utf8)
        for (k, page) in pages.enumerated() {
            if k > 0 { out.append(Data(",\n".utf8)) }
            out.append(page)
        }
        out.append(Data("\n]\n".utf8))
        return out
    }
}

/// What fetching an update ended with.
public enum PlaidUpdateOutcome: Sendable {
    case update(PlaidUpdate)
    /// Right after linking Plaid has nothing yet (`NOT_READY`): not an error, try again later.
    case notReady
}

/// The sync loop for one item: page with `count` 500 from the stored cursor until `has_more`
/// is false; on `TRANSACTIONS_SYNC_MUTATION_DURING_PAGINATION` throw the pages away and start
/// again from the update's first cursor (Plaid's rule). Nothing is applied here: the caller
/// applies the complete update and saves its cursor in one store transaction.
struct PlaidSyncLoop {
    var client: PlaidClient
    var accessToken: String
    var itemID: String
    /// Restarts allowed after mutations before the item's sync fails.
    var maxRestarts = 3
    /// NOT_READY polls before giving up for this run.
    var notReadyPolls = 5
    var progress: (@Sendable (_ pages: Int, _ changes: Int) -> Void)?

    func fetch(from cursor: String?) async throws -> PlaidUpdateOutcome {
        var restarts = 0
        var polls = 0
        while true {
            do {
                var pages: [Data] = []
                var changes = 0
                var current = cursor
                while true {
                    let page = try await client.syncPage(accessToken: accessToken, cursor: current)
                    let head: TransactionsSyncPageHead
                    do { head = try JSONDecoder().decode(TransactionsSyncPageHead.self, from: page) } catch {
                        throw PlaidTransportError(
                            path: "/transactions/sync", problem: "unexpected sync page (\(PlaidClient.describe(error)))", retryable: false)
                    }
                    if head.transactions_update_status == "NOT_READY" && head.changeCount == 0 && pages.isEmpty
                        && (cursor ?? "").isEmpty && head.next_cursor.isEmpty
                    {
                        polls += 1
                        if polls > notReadyPolls { return .notReady }
                        try await Task.sleep(for: client.retry.baseDelay * 2)
                        continue
                    }
                    try Self.checkNoToken(page, token: accessToken)
                    pages.append(Self.envelope(page, cursor: current, itemID: itemID))
                    changes += head.changeCount
                    progress?(pages.count, changes)
                    if !head.has_more {
                        return .update(
                            PlaidUpdate(
                                pages: pages, startCursor: cursor.flatMap { $0.isEmpty ? nil : $0 }, nextCursor: head.next_cursor,
                                changeCount: changes, updateStatus: head.transactions_update_status, restarts: restarts))
                    }
                    current = head.next_cursor
                }
            } catch let e as PlaidAPIError where e.handling == .restartUpdate && restarts < maxRestarts {
                restarts += 1
            }
        }
    }

    /// `{"request": {...}, "response": page}` with the page's bytes untouched (amounts stay
    /// the exact text Plaid sent).
    static func envelope(_ page: Data, cursor: String?, itemID: String) -> Data {
        let c = cursor.flatMap { $0.isEmpty ? nil : $0 }
        let request =
            "{\"request\": {\"cursor\": \(c.map { JSONString.quoted($0, lineSeparators: .literal) } ?? "null"), \"item_id\": \(JSONString.quoted(itemID, lineSeparators: .literal))}, \"response\": "
        var out = Data(request.utf8)
        out.append(page)
        out.append(Data("}".utf8))
        return out
    }

    /// Plaid never echoes the access token; if a page ever did, it must not be archived.
    static func checkNoToken(_ page: Data, token: String) throws {
        if !token.isEmpty, page.range(of: Data(token.utf8)) != nil {
            throw PlaidTransportError(
                path: "/transactions/sync", problem: "a sync page contains the access token; refused", retryable: false)
        }
    }
}
