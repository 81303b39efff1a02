import Foundation
import MoneyFlowCore
import MoneyFlowPipeline
import MoneyFlowReconcile
import MoneyFlowStore
import MoneyFlowStoreTestSupport
import MoneyFlowTestSupport
import Testing

/// The engine tests plan against ``InMemoryLedgerView`` instead of a store; this proves the
/// view answers as the store does: the same statement, planned against a store holding a feed
/// and against the view holding the same feed, gets the same plan, entry for entry (same
/// decisions, same transaction ids, same reasons and scores).
@Suite struct InMemoryLedgerViewTests {
    typealias F = TextlessFixture

    static let feeds: [(String, ImportedStatement)] = [
        ("a day apart", F.feed(wholeFoodsOn: F.day.adding(days: -1))),
        ("same day", F.feed(wholeFoodsOn: F.day)),
        (
            "amount recurring",
            F.feed(
                wholeFoodsOn: F.day,
                extra: [
                    AbstainFixture.plaid("wf2", F.day.adding(days: 10), -4210, "WHOLEFDS SEA 10234", row: 3)
                ])
        ),
        ("two candidates", AbstainFixture.plaidFeed),
    ]

    typealias A = LearnedAliasFixture
    /// Earlier file, then the file planned (statement after feed, feed after statement).
    static let imports: [(String, ImportedStatement, ImportedStatement)] =
        feeds.map { ($0.0, $0.1, F.statement) } + [
            ("alias, feed first", A.plaid, A.statement),
            ("alias, statement first", A.statement, A.plaid),
            ("alias, nothing to learn", A.loneFeed, A.loneRow),
        ]

    @Test(arguments: StoreKind.testable, imports.indices)
    func planAgainstTheViewEqualsPlanAgainstTheStore(_ kind: StoreKind, index: Int) throws {
        let (label, earlier, planned) = Self.imports[index]
        let store = try freshReconcileStore(kind)
        let service = ImportService(store: store)
        try importFile(service, earlier, name: "first")
        let stored = try service.apply(planned, fileName: "second", sha256: "sha-second", options: FileImportOptions()).plan
        let (inMemory, _) = try InMemoryLedgerView.plan(planned, after: [earlier])
        #expect(
            inMemory.entries == stored.entries,
            "\(label): \(inMemory.entries.map { describe($0.decision) }) vs \(stored.entries.map { describe($0.decision) })")
        #expect(inMemory.accounts.map(\.accountID) == stored.accounts.map(\.accountID), "\(label)")
        #expect(!inMemory.entries.isEmpty)
    }
}
