import Foundation

/// One link of a bank: its own ids for the bank's accounts and transactions, and how far back
/// it sees (`days_requested`, fixed when the item is created, as at Plaid).
struct ItemRecord: Sendable {
    let itemID: String
    let accessToken: String
    let institutionID: String
    let daysRequested: Int
    /// The oldest day the item sees: link day minus `days_requested`.
    let earliestDay: PlaidDay
    var accountIDs: [String: String]
    /// Bank id -> this item's transaction id, assigned on first sight and never reused.
    var transactionIDs: [String: String] = [:]
    var removed = false
    var errorCode: String?
    var notReadyRequests = 0
    var webhook: String?
    var lastSuccessfulUpdate: Date
    var lastFailedUpdate: Date?

    func sees(_ t: BankTransaction) -> Bool { accountIDs[t.account] != nil && t.day >= earliestDay }

    mutating func transactionID(_ bankID: String) -> String {
        if let id = transactionIDs[bankID] { return id }
        let id = Identifiers.objectID()
        transactionIDs[bankID] = id
        return id
    }

    /// What the item shows at a log position: bank id -> transaction state.
    func visible(_ bank: Bank, at position: Int) -> [String: BankTransaction] {
        bank.state(at: position).filter { sees($0.value) }
    }
}

/// A `/transactions/sync` cursor: the log positions an update goes from and to, and how many of
/// its changes were already delivered. A cursor with `from == to` and no offset is the end of an
/// update (a position); anything else is an intermediate cursor of a paged update. Opaque to
/// clients (base64), bound to its item, well under Plaid's 256 characters.
struct SyncCursor: Equatable {
    var from: Int
    var to: Int
    var offset: Int

    static func position(_ p: Int) -> SyncCursor { SyncCursor(from: p, to: p, offset: 0) }

    var isPosition: Bool { from == to && offset == 0 }

    func encoded(itemID: String) -> String {
        Data("v1|\(itemID)|\(from)|\(to)|\(offset)".utf8).base64EncodedString()
    }

    /// Nil when the text is not a cursor this server issued for this item.
    init?(_ text: String, itemID: String, head: Int) {
        if text.isEmpty { self = .position(0); return }
        guard let data = Data(base64Encoded: text), let plain = String(data: data, encoding: .utf8) else { return nil }
        let parts = plain.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 5, parts[0] == "v1", parts[1] == itemID,
            let from = Int(parts[2]), let to = Int(parts[3]), let offset = Int(parts[4]),
            0 <= from, from <= to, to <= head, offset >= 0
        else { return nil }
        self.init(from: from, to: to, offset: offset)
    }

    init(from: Int, to: Int, offset: Int) {
        self.from = from
        self.to = to
        self.offset = offset
    }
}

/// One page of an update.
struct SyncPage {
    var added: [BankTransaction] = []
    var modified: [BankTransaction] = []
    var removed: [BankTransaction] = []
    var next: SyncCursor
    var hasMore: Bool
    /// True when this page is the first of an update that has more pages (where a test's
    /// `mutateDuringNextPagination` change lands).
    var firstOfSeveral: Bool
}

/// Plaid's `/transactions/sync` rules over a bank's change log.
///
/// An update is the difference between what the cursor already delivered (the item's view at
/// `from`) and the item's view now: `added` = new since, `modified` = delivered before and
/// changed, `removed` = delivered before and gone. Its changes are listed in a fixed order
/// (added, modified, removed; each by date then creation) and handed out `count` at a time, so a
/// pending transaction's removal can land on a later page than the posted one replacing it. If
/// the item's view changes while an update is being paged, the intermediate cursor is refused
/// with TRANSACTIONS_SYNC_MUTATION_DURING_PAGINATION; restarting from the update's first cursor
/// computes a new update that includes the change.
enum TransactionSync {
    static func page(item: ItemRecord, bank: Bank, cursor: SyncCursor, count: Int) throws(PlaidAPIError) -> SyncPage {
        let head = bank.head
        let to: Int
        if cursor.isPosition {
            to = head
        } else {
            guard changeKey(item.visible(bank, at: cursor.to)) == changeKey(item.visible(bank, at: head)) else {
                throw .mutationDuringPagination
            }
            to = cursor.to
        }
        let before = item.visible(bank, at: cursor.from)
        let after = item.visible(bank, at: to)
        let ordered = { (list: [BankTransaction]) in list.sorted { ($0.day, $0.ordinal) < ($1.day, $1.ordinal) } }
        let added = ordered(after.values.filter { before[$0.bankID] == nil })
        let modified = ordered(after.values.filter { t in before[t.bankID].map { $0.revision != t.revision } ?? false })
        let removed = ordered(before.values.filter { after[$0.bankID] == nil })
        let changes = added.map { (0, $0) } + modified.map { (1, $0) } + removed.map { (2, $0) }

        if changes.isEmpty {
            // Nothing new: hand back the same position (a stable cursor), not a new one.
            return SyncPage(next: cursor.isPosition ? cursor : .position(to), hasMore: false, firstOfSeveral: false)
        }
        let start = cursor.isPosition ? 0 : cursor.offset
        guard start < changes.count else { throw .invalidField("cursor is not a valid cursor for this item") }
        let end = min(changes.count, start + count)
        var page = SyncPage(
            next: end < changes.count ? SyncCursor(from: cursor.from, to: to, offset: end) : .position(to),
            hasMore: end < changes.count,
            firstOfSeveral: start == 0 && end < changes.count)
        for (kind, t) in changes[start..<end] {
            switch kind {
            case 0: page.added.append(t)
            case 1: page.modified.append(t)
            default: page.removed.append(t)
            }
        }
        return page
    }

    /// What makes two views equal for the mutation check: the same transactions at the same revisions.
    private static func changeKey(_ view: [String: BankTransaction]) -> [String: Int] {
        view.mapValues(\.revision)
    }
}
