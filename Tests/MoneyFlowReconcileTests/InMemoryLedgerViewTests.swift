import Foundation
import Testing
import MoneyFlowCore
import MoneyFlowReconcile
import MoneyFlowStore
import MoneyFlowTestSupport

/// The engine tests plan against ``InMemoryLedgerView`` instead of a store; this proves the
/// view answers as the store does: the same statement, planned against a store holding a feed
/// and against the view holding the same feed, gets the same plan, entry for entry (same
/// decisions, same transaction ids, same reasons and scores).
@Suite struct InMemoryLedgerViewTests {
    typealias F = TextlessFixture

    static let feeds: [(String, ImportedStatement)] = [
        ("a day apart", F.feed(wholeFoodsOn: F.day.adding(days: -1))),
        ("same day", F.feed(wholeFoodsOn: F.day)),
        ("amount recurring", F.feed(wholeFoodsOn: F.day, extra: [
            AbstainFixture.plaid("wf2", F.day.adding(days: 10), -4210, "WHOLEFDS SEA 10234", row: 3),
        ])),
        ("two candidates", AbstainFixture.plaidFeed),
    ]

    @Test(arguments: feeds.indices)
    func planAgainstTheViewEqualsPlanAgainstTheStore(feed: Int) throws {
        let (label, st) = Self.feeds[feed]
        let (stored, _) = try F.run(st)
        let (inMemory, _) = try F.plan(st)
        #expect(inMemory.entries == stored.plan.entries, "\(label): \(inMemory.entries.map { describe($0.decision) }) vs \(stored.plan.entries.map { describe($0.decision) })")
        #expect(inMemory.accounts.map(\.accountID) == stored.plan.accounts.map(\.accountID), "\(label)")
        #expect(!inMemory.entries.isEmpty)
    }
}
