import MoneyFlowCore
import Testing

@testable import MoneyFlowStore

/// The reason stored with a record waiting for review says why it waits, from its candidates'
/// own reasons (a textless guess is not "candidates nearly tied").
@Suite struct ReviewReasonTests {
    func candidate(_ reasons: [MatchReason]) -> ReviewCandidate {
        ReviewCandidate(transactionID: 7, score: 0.78, reasons: reasons)
    }

    @Test func aTextlessGuessSaysSo() {
        let r = PlanApplier.reviewReasons([
            candidate([MatchReason("date", "1 day apart"), MatchReason("guess", "the texts share nothing: amount and date alone")])
        ])
        #expect(r.map(\.detail) == ["the texts share nothing: amount and date alone do not decide"])
    }

    @Test func aContestedCandidateSaysSo() {
        let r = PlanApplier.reviewReasons([candidate([MatchReason("contested", "another incoming record fits it as well")])])
        #expect(r.map(\.detail) == ["another incoming record fits the same transaction as well"])
    }

    @Test func nearTiesStillSayNearlyTied() {
        let r = PlanApplier.reviewReasons([candidate([MatchReason("text", "0.9")]), candidate([MatchReason("text", "0.8")])])
        #expect(r.map(\.detail) == ["2 candidates nearly tied"])
    }
}
