import Foundation
import MoneyFlowCore

/// One candidate pairing of an incoming record (row) with a stored transaction (column).
struct MatchPair {
    var row: Int32
    var col: Int32
    /// Day gap used for scoring (signed: bank date minus provider date).
    var lag: Int32
    var sim: Double
    var score: Double
    var externalIDAgrees = false
    /// The dates agree exactly (before any pending allowance); see ``TextlessLinkRule``.
    var exactDate = false
    /// The two sides name different stores or states (``PlaceRule``): the texts are no evidence.
    var placesDisagree = false
    /// Other carried pairs with the same two texts (a learned alias), see ``TextlessLinkRule``;
    /// `aliasFromLedger` of them are confirmed transactions of the ledger.
    var aliasConfirmations: Int32 = 0
    var aliasFromLedger: Int32 = 0
    /// Index into ``MatchGroup/replacements`` for a posted provider record replacing a removed
    /// pending one, else -1 (keeps the pair a plain value: no reference counting).
    var replacement: Int32 = -1
}

/// A posted provider record replacing a pending one removed in the same update (tips).
struct PendingReplacement {
    var pendingRecordID: Int64
    var pendingExternalID: String
    var tip: Int64
}

/// Candidates of one account and currency arranged for the date sweep.
struct CandidateIndex: Sendable {
    var candDay: [Int], minDay: [Int], extraStart: [Int32], extraDays: [Int], kinds: [UInt8], order: [Int]
    /// Per candidate: its latest record date, and the latest authorization date of its records
    /// (``AuthorizationRule/none`` when none prints one), see ``AuthorizationRule``.
    var maxDay: [Int], authorized: [Int]
    var bucket: [Int64: Range<Int>]
    var span: Int
}

/// What scanning a range of rows found.
struct PairScan: Sendable {
    var pairs: [MatchPair] = []
    var rivals: [Int32] = []
    var hasBankCandidate: [Bool] = []
}
