import Foundation
import GRDB

/// One entry of a batch's undo log (`batch_change`, see ``BatchChangeTable``): what the batch
/// changed and what was there before. ``BatchUndo`` handles every case in one exhaustive
/// switch, so a new kind of change that undo does not reverse does not compile.
///
/// Stored as it always was (``stored``, ``init(kind:target:old:)``): the kind's name, the
/// target's text and the old value's text (JSON for snapshots and row images), so every
/// existing store undoes its old batches unchanged.
enum BatchChange: Equatable {
    /// An import updated a stored record from its provider: the record's mutable columns before.
    case recordRow(recordID: Int64, before: RecordSnapshot)
    /// An import changed a stored record's state (superseded, removed): the state before.
    case recordState(recordID: Int64, before: String?)
    /// An import relinked an earlier import's record: its link and review row before.
    case linkMoved(recordID: Int64, before: LinkSnapshot)
    /// A complete sync update saved its cursor: the scope's cursor before (nil: none).
    case syncCursor(scope: String, before: String?)
    /// A sync page saved its place inside an update: the scope's place before (nil: none).
    case syncProgress(scope: String, before: String?)
    /// A whole row of any table as it was before (``RowImage``; nil: the row did not exist).
    case row(RowImage.Key, before: RowImage.Image?)
    /// A merge (``AccountMerge``) into this account: marks the batch as a merge (undo restores
    /// its rows from their images).
    case mergeInto(accountID: Int64)
    /// A merge of this account (gone after the merge).
    case mergeFrom(accountID: Int64)
    /// An import created this account.
    case accountCreated(accountID: Int64)
    /// An import attached this import key to its account.
    case accountKey(String)
    /// An import added this currency to the account.
    case accountCurrency(accountID: Int64, currency: String)
    /// An import set the account's balances: the balances before.
    case accountBalance(accountID: Int64, before: AccountBalance)
    /// A categorize batch set the user's category decision of this transaction: the decision
    /// before (nil: the user had not decided).
    case categoryDecision(transactionID: Int64, before: CategoryTable.StoredDecision?)

    /// The stored names of the kinds.
    enum Kind: String, CaseIterable {
        case recordRow = "record_row", recordState = "record_state", linkMoved = "link_moved"
        case syncCursor = "sync_cursor", syncProgress = "sync_progress", row = "row"
        case mergeInto = "merge_into", mergeFrom = "merge_from"
        case accountCreated = "account_created", accountKey = "account_key", accountCurrency = "account_currency"
        case accountBalance = "account_balance"
        case categoryDecision = "category_decision"
    }

    /// An account's balance columns (`current_balance_minor`, `available_balance_minor`,
    /// `balance_currency`), stored as `current|available|currency` (`null` for none).
    struct AccountBalance: Equatable {
        var current: Int64?
        var available: Int64?
        var currency: String?
    }

    var kind: Kind {
        switch self {
        case .recordRow: return .recordRow
        case .recordState: return .recordState
        case .linkMoved: return .linkMoved
        case .syncCursor: return .syncCursor
        case .syncProgress: return .syncProgress
        case .row: return .row
        case .mergeInto: return .mergeInto
        case .mergeFrom: return .mergeFrom
        case .accountCreated: return .accountCreated
        case .accountKey: return .accountKey
        case .accountCurrency: return .accountCurrency
        case .accountBalance: return .accountBalance
        case .categoryDecision: return .categoryDecision
        }
    }

    /// The row's `target` and `old_value` texts.
    func stored() throws -> (target: String, old: String?) {
        switch self {
        case .recordRow(let id, let before): return (String(id), try Self.json(before))
        case .recordState(let id, let before): return (String(id), before)
        case .linkMoved(let id, let before): return (String(id), try Self.json(before))
        case .syncCursor(let scope, let before), .syncProgress(let scope, let before): return (scope, before)
        case .row(let key, let before): return (key.logText, before?.logText)
        case .mergeInto(let id), .mergeFrom(let id), .accountCreated(let id): return (String(id), nil)
        case .accountKey(let key): return (key, nil)
        case .accountCurrency(let id, let currency): return ("\(id)|\(currency)", nil)
        case .accountBalance(let id, let b):
            return (String(id), "\(b.current.map(String.init) ?? "null")|\(b.available.map(String.init) ?? "null")|\(b.currency ?? "")")
        case .categoryDecision(let id, let before): return (String(id), try before.map(Self.json))
        }
    }

    /// The change a stored row holds; `batchID` names the batch in errors.
    init(kind name: String, target: String, old: String?, batchID: Int64) throws {
        guard let kind = Kind(rawValue: name) else { throw StoreError("unknown change kind \(name) in batch \(batchID)") }
        func id(_ text: String) throws -> Int64 {
            guard let v = Int64(text) else { throw StoreError("unreadable \(name) change \(target) in batch \(batchID)") }
            return v
        }
        func decoded<T: Decodable>(_ type: T.Type) throws -> T {
            do { return try JSONDecoder().decode(type, from: Data((old ?? "").utf8)) } catch {
                throw StoreError("unreadable \(name) change of \(target) in batch \(batchID): \(error)")
            }
        }
        switch kind {
        case .recordRow: self = .recordRow(recordID: try id(target), before: try decoded(RecordSnapshot.self))
        case .recordState: self = .recordState(recordID: try id(target), before: old)
        case .linkMoved: self = .linkMoved(recordID: try id(target), before: try decoded(LinkSnapshot.self))
        case .syncCursor: self = .syncCursor(scope: target, before: old)
        case .syncProgress: self = .syncProgress(scope: target, before: old)
        case .row: self = .row(try RowImage.Key(logText: target), before: try old.map(RowImage.Image.init(logText:)))
        case .mergeInto: self = .mergeInto(accountID: try id(target))
        case .mergeFrom: self = .mergeFrom(accountID: try id(target))
        case .accountCreated: self = .accountCreated(accountID: try id(target))
        case .accountKey: self = .accountKey(target)
        case .accountCurrency:
            let parts = target.split(separator: "|", maxSplits: 1)
            guard parts.count == 2 else { throw StoreError("unreadable \(name) change \(target) in batch \(batchID)") }
            self = .accountCurrency(accountID: try id(String(parts[0])), currency: String(parts[1]))
        case .accountBalance:
            let parts = (old ?? "null|null|").split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            self = .accountBalance(
                accountID: try id(target),
                before: AccountBalance(
                    current: Int64(parts[0]), available: parts.count > 1 ? Int64(parts[1]) : nil,
                    currency: parts.count > 2 && !parts[2].isEmpty ? parts[2] : nil))
        case .categoryDecision:
            self = .categoryDecision(
                transactionID: try id(target), before: old == nil ? nil : try decoded(CategoryTable.StoredDecision.self))
        }
    }

    private static func json(_ value: some Encodable) throws -> String {
        String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    }
}
