import Foundation
import GRDB
import MoneyFlowCore

/// The user's review decisions: which transaction a record belongs to, and what waits for a decision.
extension LedgerStore {
    /// Links record `recordID` to transaction `transactionID` as the user decided; remembered
    /// and never overturned by a later import.
    public func userLink(recordID: Int64, transactionID: Int64) throws {
        try write { db in try UserDecisions(db: db).link(recordID: recordID, transactionID: transactionID) }
    }

    /// Detaches record `recordID` into its own transaction as the user decided.
    public func userUnlink(recordID: Int64) throws -> Int64 {
        try unlink(recordID: recordID).transactionID
    }

    /// Like ``userUnlink(recordID:)``, saying whether the record was already alone.
    public func unlink(recordID: Int64) throws -> UnlinkResult {
        try write { db in try UserDecisions(db: db).unlink(recordID: recordID) }
    }

    /// Records waiting for a review decision, with their candidates.
    public func pendingReviews() throws -> [PendingReview] {
        try read { db in try Queries.pendingReviews(db) }
    }
}

/// A record flagged for review, with the transactions it might belong to.
public struct PendingReview: Sendable, Codable {
    public var recordID: Int64
    public var transactionID: Int64
    public var record: LedgerSource
    public var account: String
    public var candidates: [ReviewCandidate]
}
