import Foundation
import MoneyFlowPipeline
import MoneyFlowStore
import MoneyFlowTestSupport
import Testing

@testable import MoneyFlowServer

/// `moneyflow users remove` while the user's import runs: the removal waits for the import,
/// which lands in the ledger before the folder is moved aside; afterwards no job runs for the
/// user, their ledger is closed and their folder is never made again.
@Suite("users remove during a user's running job")
struct UserRemovalTests {
    @Test("the removal waits for the running import; then no job, no open ledger, no new folder")
    func removalWaitsForTheJob() async throws {
        let dir = try TestPaths.tempDir("remove-during-job")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let users = try UserDirectory(dataDirectory: dir)
        let ledgers = Ledgers(users: users)
        let (alice, _) = try users.add(name: "alice")
        let events = FairShareTests.Events()
        let (started, startedNow) = AsyncStream<Void>.makeStream()
        let (finish, finishNow) = AsyncStream<Void>.makeStream()
        let csv = TestPaths.samples.appendingPathComponent("csv/chase_checking.csv").path
        let job = Task {
            try await ledgers.exclusive(alice, "an import") { store in
                startedNow.yield()
                for await _ in finish { break }
                let r = try await store.perform { try ImportService(store: $0).importFile(path: csv, options: FileImportOptions()) }
                await events.add("import done")
                return r.plan.counts.new
            }
        }
        for await _ in started { break }
        let removal = Task {
            try await RawConnection.run { try users.remove(name: "alice") }
            await events.add("removed")
        }
        // The user is gone from the directory at once; the folder stays while the import runs.
        try await FairShareTests.until("alice is deleted") { (try? users.list().isEmpty) == true }
        for _ in 0..<100 where FileManager.default.fileExists(atPath: users.ledgerFolder(for: alice)) {
            try await Task.sleep(for: .milliseconds(10))
        }
        finishNow.yield()
        let added = try await job.value
        try await removal.value
        #expect(await events.order == ["import done", "removed"])
        // The import is in the ledger that was moved aside, whole.
        let moved = try FileManager.default.contentsOfDirectory(atPath: dir + "/removed")
        try #require(moved.count == 1)
        let kept = try LedgerStore(path: dir + "/removed/" + moved[0] + "/ledger.sqlite", access: .readOnly)
        let count = try kept.transactions().count
        #expect(added > 0 && count == added)
        // Afterwards: no job runs, no ledger opens, the ledger is closed, no folder is made.
        await #expect(throws: APIError.self) { try await ledgers.exclusive(alice, "an import") { _ in 0 } }
        await #expect(throws: APIError.self) { try await ledgers.store(for: alice) }
        #expect(await !ledgers.isOpen(alice.id))
        #expect(!FileManager.default.fileExists(atPath: users.ledgerFolder(for: alice)), "the removed user's folder was made again")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/ledgers").isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/locks").isEmpty, "a removed user's lock file is left")
    }
}
