import Foundation
import MoneyFlowCore

/// How a plan's review decisions are written: why a record waits, and candidates naming
/// records of the same plan resolved to the transactions it created.
extension PlanApplier {
    /// Why a record waits for review, from its candidates' own reasons: the texts sharing
    /// nothing (`guess`), another incoming record fitting as well (`contested`), or several
    /// candidates scoring nearly alike.
    static func reviewReasons(_ candidates: [ReviewCandidate]) -> [MatchReason] {
        let codes = Set(candidates.flatMap { $0.reasons.map(\.factor) })
        if codes.contains("guess") && candidates.count == 1 {
            return [MatchReason("review", "the texts share nothing: amount and date alone do not decide")]
        }
        if codes.contains("contested") && candidates.count == 1 {
            return [MatchReason("review", "another incoming record fits the same transaction as well")]
        }
        return [MatchReason("review", "\(candidates.count) candidates nearly tied")]
    }

    /// Review candidates naming another entry of this plan point at the transaction it created.
    static func resolve(_ candidates: [ReviewCandidate], createdTransactions: [Int64]) -> [ReviewCandidate] {
        candidates.map { c in
            var c = c
            if c.transactionID == nil, let i = c.incomingIndex, createdTransactions.indices.contains(i), createdTransactions[i] != 0 {
                c.transactionID = createdTransactions[i]
            }
            return c
        }
    }
}
