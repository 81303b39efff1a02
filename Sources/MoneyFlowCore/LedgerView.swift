/// A stored record as the reconciler sees it.
public struct ExistingRecord: Sendable, Hashable, Codable {
    public enum State: String, Sendable, Codable { case active, superseded, removed }
    public var id: Int64
    public var accountID: Int64
    public var transactionID: Int64?
    public var sourceKind: SourceKind
    public var externalID: String?
    public var pending: Bool
    public var state: State
    public var date: LocalDate
    public var amount: Money
    public init(
        id: Int64, accountID: Int64, transactionID: Int64?, sourceKind: SourceKind, externalID: String?,
        pending: Bool, state: State, date: LocalDate, amount: Money
    ) {
        self.id = id; self.accountID = accountID; self.transactionID = transactionID; self.sourceKind = sourceKind
        self.externalID = externalID; self.pending = pending; self.state = state; self.date = date; self.amount = amount
    }
}

/// A stored transaction as the reconciler sees it when looking for link candidates.
///
/// A big import plans against up to millions of these at once, so the per-record lists keep
/// their first element inline (``InlineList``) and the kinds are a bit set (``SourceKindSet``):
/// no heap block per candidate and list. Views that load many share repeated texts (one Plaid
/// `account_id`, a merchant's name) between candidates.
public struct CandidateTransaction: Sendable, Hashable, Codable {
    public var id: Int64
    public var accountID: Int64
    public var date: LocalDate
    public var amount: Money
    public var description: String
    public var counterparty: String?
    public var pending: Bool
    /// Source kinds of the active records that support it, with their file families
    /// (e.g. the statement's account number) so one file family never links twice.
    public var supportingKinds: SourceKindSet
    /// Dates of supporting records (statement posting date, Plaid date / authorized date).
    public var otherDates: InlineList<LocalDate>
    /// Active Plaid external ids supporting it.
    public var externalIDs: InlineList<String>
    /// Plaid `account_id` of each active Plaid record supporting it ("" when a record does not
    /// say). A re-linked bank (a new Plaid item) re-delivers history under new account ids: a
    /// Plaid record may link to a transaction only when all its Plaid records are of other
    /// Plaid accounts (see ``MatchGroup``), never to one its own Plaid account already holds.
    public var plaidAccountIDs: InlineList<String>
    /// The shown note: where a bank statement prints the merchant behind a payment channel
    /// (CMB 客户摘要 `财付通-微信支付-<merchant>`, see ``TextSimilarity``'s channel merchant).
    public var note: String?
    /// The earliest time of day a supporting record prints (a wallet's `12:56:16`), nil when
    /// none does: twins of one day and amount pair in time order (``ComponentSolver``).
    public var time: String?
    /// Authorization dates of supporting records that print one (Plaid `authorized_date`, an
    /// OFX `DTUSER`): no record of the same payment posts before it (see the engine's
    /// authorization rule).
    public var authorizedDates: InlineList<LocalDate> = []
    /// Where supporting records' providers say the payment was made (Plaid `location`), one
    /// entry per record that says anything (``PaymentPlace``).
    public var places: InlineList<PaymentPlace> = []
    public init(
        id: Int64, accountID: Int64, date: LocalDate, amount: Money, description: String,
        counterparty: String?, pending: Bool, supportingKinds: SourceKindSet,
        otherDates: InlineList<LocalDate> = [], externalIDs: InlineList<String> = [], plaidAccountIDs: InlineList<String> = [],
        note: String? = nil, time: String? = nil, authorizedDates: InlineList<LocalDate> = [], places: InlineList<PaymentPlace> = []
    ) {
        self.note = note; self.time = time; self.authorizedDates = authorizedDates; self.places = places
        self.id = id; self.accountID = accountID; self.date = date; self.amount = amount
        self.description = description; self.counterparty = counterparty; self.pending = pending
        self.supportingKinds = supportingKinds; self.otherDates = otherDates; self.externalIDs = externalIDs
        self.plaidAccountIDs = plaidAccountIDs
    }
}

/// Read-only view of the store that the reconciler plans against.
public protocol LedgerView {
    /// Account that owns import identity `key`, if any.
    func accountID(forKey key: String) throws -> Int64?
    /// Account with this display name, if any.
    func accountID(named name: String) throws -> Int64?
    /// Record with this fingerprint in an account and kind.
    func record(accountID: Int64, kind: SourceKind, fingerprint: String) throws -> ExistingRecord?
    /// Record with this provider id (any state).
    func record(kind: SourceKind, externalID: String) throws -> ExistingRecord?
    /// Live (not void) transactions of an account in a currency within a date range.
    func candidateTransactions(accountID: Int64, currency: String, from: LocalDate, through: LocalDate) throws -> [CandidateTransaction]
    /// True when a file with these exact bytes was imported before and not undone.
    func fileAlreadyImported(sha256: String) throws -> Bool
    /// Record ids a user pinned to a transaction (`moneyflow link`) or away from one (`unlink`).
    func userDecision(accountID: Int64, kind: SourceKind, fingerprint: String) throws -> UserDecision?
    /// Accounts of `provider` whose account number (Plaid mask) is `number`: where a
    /// re-linked bank's new provider accounts may belong (see `Reconciler.resolveAccounts`).
    func accounts(provider: String, number: String) throws -> [StoredAccount]
    /// Accounts whose number ends in `last4`, with their keys: where a wallet's card
    /// (``PaymentCard``) and that card's statement account find each other.
    func accounts(numberEndingIn last4: String) throws -> [StoredAccount]
}

extension LedgerView {
    /// Views that cannot list accounts offer none: every unknown account key is a new account.
    public func accounts(provider: String, number: String) throws -> [StoredAccount] { [] }
    public func accounts(numberEndingIn last4: String) throws -> [StoredAccount] { [] }
}

/// A store account's identifying facts, as the reconciler sees them.
public struct StoredAccount: Sendable, Hashable, Codable {
    public var id: Int64
    public var name: String
    public var institution: String?
    public var number: String?
    public var type: String?
    public var subtype: String?
    public var provider: String?
    /// The account's import keys (``AccountFacts/key``), when the view says them.
    public var keys: [String]
    public init(
        id: Int64, name: String, institution: String?, number: String?, type: String?, subtype: String?, provider: String?,
        keys: [String] = []
    ) {
        self.id = id; self.name = name; self.institution = institution; self.number = number
        self.type = type; self.subtype = subtype; self.provider = provider; self.keys = keys
    }

    /// The card this account is by its facts (``PaymentCard``), if any.
    public var card: PaymentCard? { PaymentCard(institution: institution, number: number, type: type, subtype: subtype) }
    /// True when only wallets' card keys name the account: a wallet made it before the card's
    /// own statement arrived.
    public var madeFromCardKeys: Bool { !keys.isEmpty && keys.allSatisfy { PaymentCard(key: $0) != nil } }
}

/// Bulk lookups a store can answer faster than record by record.
public protocol BulkLedgerView: LedgerView {
    func bulkRecords(accountID: Int64, kind: SourceKind, fingerprints: [String]) throws -> [String: ExistingRecord]
    func bulkRecords(kind: SourceKind, externalIDs: [String]) throws -> [String: ExistingRecord]
    /// All user decisions of an account and kind, by fingerprint.
    func userDecisions(accountID: Int64, kind: SourceKind) throws -> [String: UserDecision]
}

/// A user's remembered decision about a record, never overturned by an import.
public enum UserDecision: Sendable, Hashable, Codable {
    case linked(transactionID: Int64)
    case standalone
}

/// A stored record whose link the engine decided in an earlier import (not a user, not the
/// provider's pending->posted chain), offered for re-planning when a later import brings rows
/// near it: the combined evidence may pair it differently than its own import could.
public struct ReopenedRecord: Sendable, Hashable {
    /// Where the record stands now.
    public enum Standing: String, Sendable, Hashable, Codable {
        /// Linked into a transaction that other records support too.
        case linked
        /// Alone in its own transaction.
        case standalone
        /// Alone in its own transaction, waiting for a review decision.
        case review
    }
    public var recordID: Int64
    public var transactionID: Int64
    public var standing: Standing
    /// The record as an importer would deliver it (its account key is the store's account id).
    public var record: IncomingRecord
    /// The Plaid `account_id` of a Plaid record (its account key no longer says it).
    public var plaidAccountID: String?
    public init(recordID: Int64, transactionID: Int64, standing: Standing, record: IncomingRecord, plaidAccountID: String? = nil) {
        self.recordID = recordID; self.transactionID = transactionID; self.standing = standing; self.record = record
        self.plaidAccountID = plaidAccountID
    }
}

/// Engine decisions of earlier imports that may be re-planned, and the transactions they touch
/// as they would look without those records.
public struct Reopening: Sendable {
    public var records: [ReopenedRecord]
    /// Each transaction holding a reopened record, as a candidate built from its other
    /// supporting records; nil when nothing else supports it.
    public var remainders: [Int64: CandidateTransaction?]
    public init(records: [ReopenedRecord] = [], remainders: [Int64: CandidateTransaction?] = [:]) {
        self.records = records; self.remainders = remainders
    }
}

/// A view that can reopen earlier engine decisions.
public protocol ReopeningLedgerView: LedgerView {
    /// Active records of these kinds in an account and currency dated within the range whose
    /// link the engine made (never a user's decision, nor a transaction a user edited or
    /// linked), except the records in `except` (those the plan already settles otherwise).
    /// Plaid records only of the Plaid accounts in `plaidAccountIDs`: another Plaid account's
    /// records (an earlier item of a re-linked bank) are what the new rows link to, not rows
    /// to plan again with them.
    func reopenable(
        accountID: Int64, currency: String, kinds: Set<SourceKind>, from: LocalDate, through: LocalDate,
        except: Set<Int64>, plaidAccountIDs: Set<String>
    ) throws -> Reopening
}
