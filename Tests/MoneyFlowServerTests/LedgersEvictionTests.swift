import Foundation
import MoneyFlowPipeline
import MoneyFlowStore
import MoneyFlowTestSupport
import Testing

@testable import MoneyFlowServer

/// With `--database`, each open ledger holds a PostgreSQL connection and its working copy in
/// memory: the server keeps only the most recently used ones open, and a closed one opens
/// again with everything in it.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["MONEYFLOW_TEST_POSTGRES"] != nil, "needs MONEYFLOW_TEST_POSTGRES"))
struct LedgersEvictionTests {
    @Test func theLeastRecentlyUsedLedgerIsClosedAndOpensAgainWithItsData() async throws {
        let users = try UserDirectory(dataDirectory: try TestPaths.tempDir("ledgers-lru"))
        let database = ProcessInfo.processInfo.environment["MONEYFLOW_TEST_POSTGRES"]!
        let ledgers = Ledgers(users: users, databaseURL: database, maxOpenRemote: 2)
        let (alice, _) = try users.add(name: "alice")
        let (bob, _) = try users.add(name: "bob")
        let (carol, _) = try users.add(name: "carol")
        let first = try await ledgers.store(for: alice)
        let csv = TestPaths.repoRoot.appendingPathComponent("Samples/csv/chase_checking.csv").path
        let imported = try ImportService(store: first).importFile(path: csv, options: FileImportOptions())
        #expect(try await ledgers.store(for: alice) === first, "an open ledger is reused")
        _ = try await ledgers.store(for: bob)
        _ = try await ledgers.store(for: carol) // three open: alice, the least recent, is closed
        let again = try await ledgers.store(for: alice)
        #expect(again !== first)
        #expect(try again.transactions().count == imported.plan.counts.new)
        #expect(try again.transactions().allSatisfy { $0.id > alice.idBase }, "ids stay in alice's block")
        #expect(try await ledgers.store(for: bob).transactions().isEmpty, "bob's ledger is his own")
    }
}
