import MoneyFlowCore
import MoneyFlowReconcile
import MoneyFlowTestSupport
import Testing

/// Two $4.25 coffees at one shop, the feed's posted three days apart; the bank's row of the
/// first is missing. A row of another shop two days later has no feed record of its own. Its
/// only pair, with the shop's second coffee, shares no text: it can only be reviewed. Counted
/// at its full score, that pair took the second coffee in the optimal assignment (2.36 against
/// 2.0) and pushed the shop's own row onto the first coffee, three days back, where it was
/// linked: a wrong link bought with a review (``ReviewOnlyPairRule``).
@Suite struct ReviewOnlyPairTests {
    typealias Fixture = ReviewOnlyPairFixture

    /// The statement after the feed and the feed after the statement: the shop's row is linked
    /// to its own coffee, nothing links the first coffee to it, and the other shop's row is not
    /// linked. Without the rule the shop's row was linked to the coffee of three days before.
    @Test(arguments: [true, false])
    func aPairThatCanOnlyBeReviewedTakesNoTransactionFromALink(statementSecond: Bool) throws {
        // (bank row index, feed id) of every link the plan makes.
        var links: [String] = []
        var reviewed = 0
        if statementSecond {
            let (plan, view) = try InMemoryLedgerView.plan(Fixture.statement, fileName: "stmt.csv", after: [Fixture.feed])
            let idOf = Dictionary(uniqueKeysWithValues: zip(view.transactions.map(\.id), Fixture.coffees.map(\.id)))
            for e in plan.entries {
                if case .link(let t, _, _, _) = e.decision { links.append("row\(e.index)-\(idOf[t]!)") }
                if case .needsReview = e.decision { reviewed += 1 }
            }
        } else {
            let (plan, view) = try InMemoryLedgerView.plan(Fixture.feed, fileName: "feed.json", after: [Fixture.statement])
            let rowOf = Dictionary(uniqueKeysWithValues: zip(view.transactions.map(\.id), [0, 1]))
            for e in plan.entries {
                if case .link(let t, _, _, _) = e.decision { links.append("row\(rowOf[t]!)-\(Fixture.coffees[e.index].id)") }
                if case .needsReview = e.decision { reviewed += 1 }
            }
        }
        #expect(links == ["row0-donq-2"], "links \(links), \(reviewed) reviewed")
        #expect(reviewed == 0, "links \(links), \(reviewed) reviewed")
    }
}
