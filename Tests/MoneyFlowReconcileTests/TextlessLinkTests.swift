import Foundation
import MoneyFlowCore
import MoneyFlowPipeline
import MoneyFlowReconcile
import MoneyFlowStore
import MoneyFlowStoreTestSupport
import MoneyFlowTestSupport
import Testing

/// A pair whose texts share nothing is a guess (``TextlessLinkRule``): review, unless other
/// evidence carries it. One statement row, one feed record of the same amount.
struct TextlessFixture {
    static let facts = AccountFacts(key: "acct", suggestedName: "Checking 1234", currencies: ["USD"])
    static let day = LocalDate(year: 2025, month: 3, day: 10)!
    static func usd(_ m: Int64) -> Money { Money(minorUnits: m, currency: "USD") }

    /// The feed holds a Whole Foods purchase and an unrelated, text-confirmed one.
    static func feed(wholeFoodsOn d: LocalDate, extra: [IncomingRecord] = []) -> ImportedStatement {
        ImportedStatement(
            importerID: "plaid", accounts: [facts],
            records: [
                AbstainFixture.plaid("wf", d, -4210, "WHOLEFDS SEA 10234", row: 1),
                AbstainFixture.plaid("uber", day.adding(days: -3), -2217, "Uber", row: 2),
            ] + extra)
    }
    /// The statement holds a Safeway purchase of the same amount, and the Uber ride.
    static var statement: ImportedStatement {
        ImportedStatement(
            importerID: "csv", accounts: [facts],
            records: [
                AbstainFixture.bank(day.adding(days: -3), -2217, "UBER *TRIP HELP.UBER.COM CA", balance: 97783, line: 2),
                AbstainFixture.bank(day, -4210, "SAFEWAY #1234 SEATTLE WA", balance: 93573, line: 3),
            ])
    }

    /// The engine's plan for the statement against the ledger holding `feed` (in memory: the
    /// store is not the subject), and the ids of the feed's transactions by external id.
    static func plan(_ feed: ImportedStatement) throws -> (ImportPlan, [String: Int64]) {
        let (plan, view) = try InMemoryLedgerView.plan(statement, fileName: "stmt.csv", after: [feed])
        return (plan, Dictionary(uniqueKeysWithValues: zip(feed.records.map { $0.externalID! }, view.transactions.map(\.id))))
    }
}

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
}

/// A bank that prints the legal entity where the feed names the brand: texts that share
/// nothing, but same-day, unique-amount pairs show they name the same merchant.
@Suite struct LearnedAliasTests {
    static let facts = AccountFacts(key: "cmb", suggestedName: "CMB 8705", currencies: ["CNY"])
    static let day = LocalDate(year: 2026, month: 6, day: 20)!
    static func cny(_ m: Int64) -> Money { Money(minorUnits: m, currency: "CNY") }
    static func bank(_ offset: Int, _ amount: Int64, row: Int) -> IncomingRecord {
        IncomingRecord(
            accountKey: "cmb", sourceKind: .cmbPDF, date: day.adding(days: offset), amount: cny(amount), description: "快捷支付",
            counterparty: "拉扎斯网络科技（上海）有限公司", locator: Locator(page: 1, row: row))
    }
    static func feed(_ id: String, _ offset: Int, _ amount: Int64, row: Int) -> IncomingRecord {
        IncomingRecord(
            accountKey: "cmb", sourceKind: .plaid, date: day.adding(days: offset), amount: cny(amount), description: "饿了么",
            counterparty: "饿了么", externalID: id, locator: Locator(page: 1, row: row))
    }

    /// Two same-day pairs with amounts found nowhere else carry themselves and teach the alias;
    /// the third pair, two days apart, is then linked on that evidence (and says so).
    static var statement: ImportedStatement {
        ImportedStatement(
            importerID: "cmb-pdf", accounts: [facts],
            records: [
                bank(-10, -3012, row: 1), bank(-5, -4590, row: 2), bank(0, -2733, row: 3),
            ])
    }
    static var plaid: ImportedStatement {
        ImportedStatement(
            importerID: "plaid", accounts: [facts],
            records: [
                feed("e1", -10, -3012, row: 1), feed("e2", -5, -4590, row: 2), feed("e3", -2, -2733, row: 3),
            ])
    }
    /// One feed record and its bank row, two days apart, with nothing to learn from.
    static var loneFeed: ImportedStatement {
        ImportedStatement(importerID: "plaid", accounts: [facts], records: [feed("e3", -2, -2733, row: 1)])
    }
    static var loneRow: ImportedStatement {
        ImportedStatement(importerID: "cmb-pdf", accounts: [facts], records: [bank(0, -2733, row: 1)])
    }

    @Test(arguments: [false, true])
    func sameDayUniquePairsCarryTheAliasForTheOthers(statementFirst: Bool) throws {
        let (first, second) = statementFirst ? (Self.statement, Self.plaid) : (Self.plaid, Self.statement)
        let (plan, _) = try InMemoryLedgerView.plan(second, after: [first])
        #expect(plan.counts.linked == 3, "\(plan.entries.map { describe($0.decision) })")
        #expect(plan.counts.needsReview == 0, "nothing goes to review")
        let late = try #require(plan.entries.first { plan.statement.records[$0.index].amount.minorUnits == -2733 })
        guard case .link(_, _, let reasons, _) = late.decision else { Issue.record("\(late.decision)"); return }
        #expect(reasons.contains { $0.factor == "alias" })
    }

    /// Without a same-day pair there is nothing to learn from: the textless pair is reviewed.
    @Test func withoutConfirmationsTheTextlessPairIsReviewed() throws {
        let (plan, _) = try InMemoryLedgerView.plan(Self.loneRow, fileName: "stmt", after: [Self.loneFeed])
        #expect(plan.counts.needsReview == 1 && plan.counts.linked == 0, "\(plan.entries.map { describe($0.decision) })")
    }
}

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
