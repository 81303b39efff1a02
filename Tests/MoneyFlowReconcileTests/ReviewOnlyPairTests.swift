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
    static let facts = AccountFacts(key: "acct", suggestedName: "Checking 1234", currencies: ["USD"])
    static let base = LocalDate(year: 2025, month: 9, day: 29)!

    /// The feed: (id, posted day, authorized day), days after `base`.
    static let coffees: [(id: String, day: Int, authorized: Int)] = [("donq-1", 0, 0), ("donq-2", 3, 2)]

    static var feed: ImportedStatement {
        ImportedStatement(
            importerID: "plaid", accounts: [facts],
            records: coffees.enumerated().map { k, c in
                IncomingRecord(
                    accountKey: "acct", sourceKind: .plaid, date: base.adding(days: c.day), amount: AbstainFixture.usd(-425),
                    description: "DONQUAMA #3335 NEWARK", counterparty: "Donquama", externalID: c.id,
                    authorizedDate: base.adding(days: c.authorized), locator: Locator(page: 1, row: k + 1))
            })
    }

    /// The shop's row of the second coffee, then the other shop's row (no feed record).
    static var statement: ImportedStatement {
        ImportedStatement(
            importerID: "csv", accounts: [facts],
            records: [
                AbstainFixture.bank(base.adding(days: 3), -425, "POS PURCHASE DONQUAMA #3335 NEWARK NJ", balance: 99_575, line: 2),
                AbstainFixture.bank(base.adding(days: 5), -425, "POS PURCHASE KALY #1364 BOSTON MA", balance: 99_150, line: 3),
            ])
    }

    /// The statement after the feed and the feed after the statement: the shop's row is linked
    /// to its own coffee, nothing links the first coffee to it, and the other shop's row is not
    /// linked. Without the rule the shop's row was linked to the coffee of three days before.
    @Test(arguments: [true, false])
    func aPairThatCanOnlyBeReviewedTakesNoTransactionFromALink(statementSecond: Bool) throws {
        // (bank row index, feed id) of every link the plan makes.
        var links: [String] = []
        var reviewed = 0
        if statementSecond {
            let (plan, view) = try InMemoryLedgerView.plan(Self.statement, fileName: "stmt.csv", after: [Self.feed])
            let idOf = Dictionary(uniqueKeysWithValues: zip(view.transactions.map(\.id), Self.coffees.map(\.id)))
            for e in plan.entries {
                if case .link(let t, _, _, _) = e.decision { links.append("row\(e.index)-\(idOf[t]!)") }
                if case .needsReview = e.decision { reviewed += 1 }
            }
        } else {
            let (plan, view) = try InMemoryLedgerView.plan(Self.feed, fileName: "feed.json", after: [Self.statement])
            let rowOf = Dictionary(uniqueKeysWithValues: zip(view.transactions.map(\.id), [0, 1]))
            for e in plan.entries {
                if case .link(let t, _, _, _) = e.decision { links.append("row\(rowOf[t]!)-\(Self.coffees[e.index].id)") }
                if case .needsReview = e.decision { reviewed += 1 }
            }
        }
        #expect(links == ["row0-donq-2"], "links \(links), \(reviewed) reviewed")
        #expect(reviewed == 0, "links \(links), \(reviewed) reviewed")
    }
}
