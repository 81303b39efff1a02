import Foundation
import MoneyFlowPlaid
import Synchronization
import Testing

/// One sync running per item and at most one waiting; further requests join the waiting one.
@Suite struct PlaidSyncCoalescerTests {
    @Test("while a sync runs: the first request waits, the rest join it; other items are not held")
    func coalesces() async throws {
        let coalescer = PlaidSyncCoalescer()
        let runs = Mutex(0)
        let (gate, open) = AsyncStream.makeStream(of: Void.self)
        let job: PlaidSyncCoalescer.Job = {
            runs.withLock { $0 += 1 }
            for await _ in gate { break }
        }
        #expect(await coalescer.request("a", job) == .started)
        var admissions: [PlaidSyncCoalescer.Admission] = []
        for _ in 0..<50 { admissions.append(await coalescer.request("a", job)) }
        #expect(admissions.first == .queued && admissions.dropFirst().allSatisfy { $0 == .joined })
        #expect(await coalescer.request("b", {}) == .started)
        open.yield()
        open.yield()
        open.finish()
        await coalescer.drained()
        #expect(runs.withLock { $0 } == 2)
        #expect(await coalescer.started("a") == 2)
        #expect(await coalescer.started("b") == 1)
        #expect(await !coalescer.isBusy("a"))
        #expect(await coalescer.request("a", {}) == .started, "idle again: a new request runs at once")
        await coalescer.drained()
    }
}
