/// How the store should find or create the account an importer's ``AccountFacts`` describe.
public struct AccountResolution: Sendable, Hashable, Codable {
    public var key: String
    /// Existing account id, or nil when the plan creates the account.
    public var accountID: Int64?
    /// Name of the account (existing name, or the one to create).
    public var name: String
    public var facts: AccountFacts
    /// The existing account was made from a wallet's card key before this statement of the
    /// card arrived: it takes `name` and the statement's facts, as if the statement had come
    /// first (nil: keep the account as it is; optional so older encoded plans still decode).
    public var adoptsFacts: Bool?
    public init(key: String, accountID: Int64?, name: String, facts: AccountFacts, adoptsFacts: Bool? = nil) {
        self.key = key; self.accountID = accountID; self.name = name; self.facts = facts; self.adoptsFacts = adoptsFacts
    }
}

/// One scored reason behind a link decision (explainability).
public struct MatchReason: Sendable, Hashable, Codable, CustomStringConvertible {
    public var factor: String
    public var detail: String
    public init(_ factor: String, _ detail: String) { self.factor = factor; self.detail = detail }
    public var description: String { "\(factor): \(detail)" }
}

/// What a link decision asserts for later imports to act on, apart from its reasons (which
/// are sentences for people and may be reworded freely). Stored with the link (`link.evidence`).
public enum LinkEvidence: String, Sendable, Hashable, Codable {
    /// The texts share nothing and provider ids agreed, or the date was exact and the amount
    /// unique: the pair's two texts are a learned alias for later imports (`AliasLedgerView` in the engine).
    case carried
}

/// A candidate offered to the user when the engine abstains.
public struct ReviewCandidate: Sendable, Hashable, Codable {
    public var transactionID: Int64?
    /// Index of another incoming record of the same plan, when the candidate is new too.
    public var incomingIndex: Int?
    public var score: Double
    public var reasons: [MatchReason]
    public init(transactionID: Int64?, incomingIndex: Int? = nil, score: Double, reasons: [MatchReason]) {
        self.transactionID = transactionID; self.incomingIndex = incomingIndex; self.score = score; self.reasons = reasons
    }
}

/// The decision for one incoming record.
public enum RecordDecision: Sendable, Hashable, Codable {
    /// The store already holds this record (same fingerprint or provider id): nothing to do.
    case alreadyPresent(recordID: Int64)
    /// The provider modified a record the store holds: update its fields, keep its link.
    case update(recordID: Int64)
    /// A new real-world transaction.
    case new
    /// The same real transaction as stored transaction `transactionID`; `evidence` is what the
    /// link asserts for later imports (nil: nothing beyond the link itself).
    case link(transactionID: Int64, score: Double, reasons: [MatchReason], evidence: LinkEvidence? = nil)
    /// Posted record replacing pending record `pendingRecordID` on the same transaction.
    case supersede(pendingRecordID: Int64, transactionID: Int64, reasons: [MatchReason])
    /// The same real transaction as the one created by entry `index` of this same plan.
    case linkToIncoming(index: Int, score: Double, reasons: [MatchReason])
    /// Posted record replacing the pending record of entry `pendingIndex` of this same plan.
    case supersedeIncoming(pendingIndex: Int, reasons: [MatchReason])
    /// Ambiguous: stored as its own transaction flagged for review with these candidates.
    case needsReview(candidates: [ReviewCandidate])

    public var label: String {
        switch self {
        case .alreadyPresent: return "already present"
        case .update: return "update"
        case .new: return "new"
        case .link, .linkToIncoming: return "link"
        case .supersede, .supersedeIncoming: return "supersede pending"
        case .needsReview: return "needs review"
        }
    }
}

/// One incoming record with its decision.
public struct PlanEntry: Sendable, Hashable, Codable {
    public var index: Int
    public var fingerprint: String
    public var decision: RecordDecision
    public init(index: Int, fingerprint: String, decision: RecordDecision) {
        self.index = index; self.fingerprint = fingerprint; self.decision = decision
    }
}

/// A provider removal resolved against the store.
public struct RemovalEffect: Sendable, Hashable, Codable {
    public var externalID: String
    /// Stored record to tombstone; nil when the store never saw it (or it was already removed).
    public var recordID: Int64?
    /// True when the removed record was superseded by a posted record in the same update.
    public var supersededInThisUpdate: Bool
    public init(externalID: String, recordID: Int64?, supersededInThisUpdate: Bool) {
        self.externalID = externalID; self.recordID = recordID; self.supersededInThisUpdate = supersededInThisUpdate
    }
}

/// An earlier engine decision that this import changes: with the new rows in view, a stored
/// record belongs elsewhere (another transaction, its own, or review).
public struct RelinkEffect: Sendable, Hashable, Codable {
    public var recordID: Int64
    /// The transaction the record supports now.
    public var fromTransactionID: Int64
    /// How it stood: ``ReopenedRecord/Standing``.
    public var from: ReopenedRecord.Standing
    /// The new decision: `.link` (to a stored transaction), `.linkToIncoming`, `.new` (its own
    /// transaction) or `.needsReview`.
    public var decision: RecordDecision
    /// The record as stored (for dry-run display).
    public var record: IncomingRecord
    public init(recordID: Int64, fromTransactionID: Int64, from: ReopenedRecord.Standing, decision: RecordDecision, record: IncomingRecord)
    {
        self.recordID = recordID; self.fromTransactionID = fromTransactionID; self.from = from
        self.decision = decision; self.record = record
    }
}

/// Everything an import will do, computed before anything is written. `--dry-run` prints it;
/// a real run applies exactly this value in one database transaction.
public struct ImportPlan: Sendable, Codable {
    public var fileName: String
    public var fileSHA256: String
    public var statement: ImportedStatement
    public var accounts: [AccountResolution]
    public var entries: [PlanEntry]
    public var removals: [RemovalEffect]
    /// Earlier engine decisions re-planned with this file's rows in view.
    public var relinks: [RelinkEffect]

    public init(
        fileName: String, fileSHA256: String, statement: ImportedStatement,
        accounts: [AccountResolution], entries: [PlanEntry], removals: [RemovalEffect], relinks: [RelinkEffect] = []
    ) {
        self.fileName = fileName; self.fileSHA256 = fileSHA256; self.statement = statement
        self.accounts = accounts; self.entries = entries; self.removals = removals; self.relinks = relinks
    }

    /// Counts per outcome, as printed in summaries.
    public var counts: ImportCounts {
        var c = ImportCounts()
        for e in entries {
            switch e.decision {
            case .alreadyPresent: c.alreadyPresent += 1
            case .update: c.updated += 1
            case .new: c.new += 1
            case .link, .supersede, .linkToIncoming, .supersedeIncoming: c.linked += 1
            case .needsReview: c.needsReview += 1
            }
        }
        c.removed = removals.filter { $0.recordID != nil }.count
        c.relinked = relinks.count
        c.warnings = statement.warnings.count
        return c
    }
}

/// Outcome counts of one import.
public struct ImportCounts: Sendable, Hashable, Codable {
    public var new = 0
    public var alreadyPresent = 0
    public var linked = 0
    public var updated = 0
    public var needsReview = 0
    public var removed = 0
    public var warnings = 0
    /// Stored records an import moved (see ``RelinkEffect``).
    public var relinked = 0
    public init() {}
}
