import Foundation
import MoneyFlowCore
import MoneyFlowPipeline
import MoneyFlowStore
import MoneyFlowStoreTestSupport
import MoneyFlowTestSupport
import Testing

/// `review` lists each candidate of a record once, with that record's own reasons.
@Suite struct ReviewCandidateTests {
    /// Statement first, then two Plaid coffees (day -1 and day +1) competing for its one row:
    /// the flagged record's candidate list names the bank transaction once, with the date gap
    /// of THIS record, and says that another record wants it too.
    @Test(arguments: StoreKind.testable) func competingRowsGiveOneCandidateEntryWithOwnReasons(_ kind: StoreKind) throws {
        let store = try freshReconcileStore(kind)
        let service = ImportService(store: store)
        _ = try service.apply(AbstainFixture.statement1, fileName: "march-a.csv", sha256: "sha-a", options: FileImportOptions())
        _ = try service.apply(AbstainFixture.plaidFeed, fileName: "plaid.json", sha256: "sha-p", options: FileImportOptions())
        let review = try #require(try store.pendingReviews().first)
        let ids = review.candidates.compactMap(\.transactionID)
        #expect(ids.count == review.candidates.count)
        #expect(Set(ids).count == ids.count, "one entry per candidate: \(review.candidates)")
        let txns = Dictionary(uniqueKeysWithValues: try store.transactions(includeAll: true).map { ($0.id, $0) })
        for c in review.candidates {
            let id = try #require(c.transactionID)
            let t = try #require(txns[id])
            let gap = abs(t.date.dayNumber - review.record.date.dayNumber)
            #expect(c.reasons.contains(MatchReason("date", "\(gap) day(s) apart")), "\(c.reasons) for a \(gap)-day gap")
        }
        #expect(review.candidates[0].reasons.contains { $0.factor == "contested" })
    }
}
