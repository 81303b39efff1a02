import Foundation
import MoneyFlowCore
import MoneyFlowPipeline
import MoneyFlowStoreTestSupport
import MoneyFlowTestSupport
import Testing

/// ``ReviewOnlyPairRule`` through the store, whichever side is imported first: a row whose only
/// pair shares no text with the feed does not push the shop's own row onto the shop's coffee
/// of three days before (``ReviewOnlyPairFixture``).
@Suite struct ReviewOnlyPairStoreTests {
    @Test(arguments: StoreKind.testable, [true, false])
    func theShopsRowLinksToItsOwnCoffee(_ kind: StoreKind, statementSecond: Bool) throws {
        let (store, _) = try freshStore(kind)
        try importBothSides(into: store, feed: ReviewOnlyPairFixture.feed, statement: ReviewOnlyPairFixture.statement, statementSecond: statementSecond)
        let linked = try store.transactions().filter { t in t.sources.contains { $0.kind == .csv } && t.sources.contains { $0.kind == .plaid } }
        let pairs = linked.map { t in
            (t.description, t.sources.filter { $0.kind == .plaid }.compactMap(\.externalID))
        }
        #expect(linked.count == 1, "\(pairs)")
        #expect(linked.first?.sources.filter { $0.kind == .plaid }.compactMap(\.externalID) == ["donq-2"], "\(pairs)")
    }
}
