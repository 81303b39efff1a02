import Foundation
import MoneyFlowCore
import MoneyFlowReconcile
import MoneyFlowTestSupport
import Testing

/// The decision the plan took for the statement row whose description starts with `prefix`.
func decision(_ plan: ImportPlan, forRowStartingWith prefix: String) throws -> RecordDecision {
    try #require(plan.entries.first { plan.statement.records[$0.index].description.hasPrefix(prefix) }).decision
}

@Suite struct TextlessLinkTests {
    typealias F = TextlessFixture

    /// SAFEWAY vs WHOLEFDS, same amount, one day apart, the only candidate: not linked.
    @Test func descriptionsSharingNothingGoToReview() throws {
        let (plan, ids) = try F.plan(F.feed(wholeFoodsOn: F.day.adding(days: -1)))
        #expect(plan.counts.linked == 1, "the Uber ride is text-confirmed: \(plan.entries.map { describe($0.decision) })")
        #expect(plan.counts.needsReview == 1)
        guard case .needsReview(let candidates) = try decision(plan, forRowStartingWith: "SAFEWAY") else {
            Issue.record("the SAFEWAY row is not in review"); return
        }
        #expect(candidates.map(\.transactionID) == [ids["wf"]], "Whole Foods stays on its own: the only candidate")
        #expect(candidates[0].reasons.contains { $0.factor == "guess" })
        #expect(!plan.entries.contains { if case .link(ids["wf"]!, _, _, _) = $0.decision { true } else { false } })
    }

    /// Same date and an amount found nowhere else within two weeks on either side: amount and
    /// date carry the pair without text.
    @Test func exactDateAndUniqueAmountCarryIt() throws {
        let (plan, ids) = try F.plan(F.feed(wholeFoodsOn: F.day))
        #expect(plan.counts.linked == 2, "\(plan.entries.map { describe($0.decision) })")
        #expect(plan.counts.needsReview == 0)
        guard case .link(let transactionID, _, _, _) = try decision(plan, forRowStartingWith: "SAFEWAY") else {
            Issue.record("the SAFEWAY row is not linked"); return
        }
        #expect(transactionID == ids["wf"], "the statement row joins the Whole Foods transaction")
    }

    /// The same exact-date pair, but the feed has another purchase of that amount ten days
    /// later (outside the matching window, inside the uniqueness window): not unique, review.
    @Test func exactDateWithTheAmountRecurringNearbyIsReviewed() throws {
        let later = AbstainFixture.plaid("wf2", F.day.adding(days: 10), -4210, "WHOLEFDS SEA 10234", row: 3)
        let (plan, _) = try F.plan(F.feed(wholeFoodsOn: F.day, extra: [later]))
        #expect(plan.counts.needsReview == 1, "\(plan.entries.map { describe($0.decision) })")
        #expect(plan.counts.linked == 1)
    }

    /// Two stores of one chain: the bank's row prints store #1798 in Chicago, the feed's only
    /// purchase of that amount, a day earlier, store #7985 in Austin. The chain's name is no
    /// evidence of one purchase when the store numbers differ: review, not a link. The same
    /// store number links.
    @Test func differentStoreNumbersAreNoTextEvidence() throws {
        func plan(feedName: String) throws -> ImportPlan {
            let feed = ImportedStatement(
                importerID: "plaid", accounts: [F.facts],
                records: [AbstainFixture.plaid("dal", F.day.adding(days: -1), -425, feedName, row: 1)])
            let statement = ImportedStatement(
                importerID: "csv", accounts: [F.facts],
                records: [AbstainFixture.bank(F.day, -425, "POS PURCHASE DALNEMI #1798 CHICAGO IL", balance: 10_000, line: 2)])
            return try InMemoryLedgerView.plan(statement, fileName: "stmt.csv", after: [feed]).0
        }
        let other = try plan(feedName: "DALNEMI #7985 AUSTIN")
        #expect(other.counts.linked == 0, "\(other.entries.map { describe($0.decision) })")
        #expect(other.counts.needsReview == 1)
        let same = try plan(feedName: "DALNEMI #1798 CHICAGO")
        #expect(same.counts.linked == 1, "\(same.entries.map { describe($0.decision) })")
    }
}

/// A bank that prints the legal entity where the feed names the brand: texts that share
/// nothing, but same-day, unique-amount pairs show they name the same merchant.
@Suite struct LearnedAliasTests {
    typealias F = LearnedAliasFixture

    @Test(arguments: [false, true])
    func sameDayUniquePairsCarryTheAliasForTheOthers(statementFirst: Bool) throws {
        let (first, second) = statementFirst ? (F.statement, F.plaid) : (F.plaid, F.statement)
        let (plan, _) = try InMemoryLedgerView.plan(second, after: [first])
        #expect(plan.counts.linked == 3, "\(plan.entries.map { describe($0.decision) })")
        #expect(plan.counts.needsReview == 0, "nothing goes to review")
        let late = try #require(plan.entries.first { plan.statement.records[$0.index].amount.minorUnits == -2733 })
        guard case .link(_, _, let reasons, _) = late.decision else { Issue.record("\(late.decision)"); return }
        #expect(reasons.contains { $0.factor == "alias" })
    }

    /// Without a same-day pair there is nothing to learn from: the textless pair is reviewed.
    @Test func withoutConfirmationsTheTextlessPairIsReviewed() throws {
        let (plan, _) = try InMemoryLedgerView.plan(F.loneRow, fileName: "stmt", after: [F.loneFeed])
        #expect(plan.counts.needsReview == 1 && plan.counts.linked == 0, "\(plan.entries.map { describe($0.decision) })")
    }
}
