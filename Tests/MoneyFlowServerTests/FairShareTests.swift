import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MoneyFlowTestSupport
import Testing

@testable import MoneyFlowServer

/// One user's flood of requests waits in that user's own line: another user's request gets the
/// next free turn, the flooder gets 429 beyond its bound, and the token check never waits
/// behind anyone's work. Asserted on queue positions and counts, never on times.
@Suite("Each user's fair share of the server")
struct FairShareTests {
    /// The order in which things happened.
    actor Events {
        var order: [String] = []
        func add(_ s: String) { order.append(s) }
    }

    /// How many blocking jobs have started (counted on the jobs' threads).
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func add() { lock.withLock { count += 1 } }
        var value: Int { lock.withLock { count } }
    }

    /// Waits until `condition` holds: yielding first, then polling (a request on a socket
    /// takes the event loop's time); a condition that never holds fails after about `seconds`.
    static func until(_ what: String, within seconds: Int = 30, _ condition: () -> Bool) async throws {
        for i in 0..<(1000 + seconds * 100) where !condition() {
            if i < 1000 { await Task.yield() } else { try await Task.sleep(for: .milliseconds(10)) }
        }
        try #require(condition(), "never happened: \(what)")
    }

    @Test("users waiting for a turn are served in turn: a newcomer goes before the flooder's second request")
    func servedInTurn() async throws {
        let share = FairShare(limits: .init(slots: 2, perUserRunning: 1, perUserInFlight: 8))
        try await share.acquire("a")
        try await share.acquire("b") // both turns held
        var tasks: [Task<Void, any Error>] = []
        for i in 0..<3 {
            tasks.append(Task { try await share.acquire("a") })
            try await Self.until("a's request \(i) waits") { share.counts("a").waiting == i + 1 }
        }
        tasks.append(Task { try await share.acquire("c") })
        try await Self.until("c waits") { share.counts("c").waiting == 1 }
        // a's turn ends: a's first waiting request goes (a was first in line), then c, not a again.
        share.release("a")
        try await Self.until("one served") { share.counts("a").running == 1 }
        #expect(share.counts("a").waiting == 2 && share.counts("c").waiting == 1)
        share.release("a")
        try await Self.until("two served") { share.counts("c").running == 1 }
        #expect(share.counts("a") == FairShare.Counts(inFlight: 0, running: 0, waiting: 2))
        share.release("c")
        share.release("b")
        // Two turns free, but one user holds at most one: a's next goes, its last still waits.
        try await Self.until("a's next") { share.counts("a").running == 1 }
        #expect(share.counts("a").waiting == 1)
        share.release("a")
        try await Self.until("all served") { share.counts("a").running == 1 && share.counts("a").waiting == 0 }
        share.release("a")
        #expect(share.counts("a") == FairShare.Counts())
        for t in tasks { try await t.value }
    }

    @Test("a cancelled wait leaves the line and holds no turn")
    func cancelledWait() async throws {
        let share = FairShare(limits: .init(slots: 2, perUserRunning: 1, perUserInFlight: 8))
        try await share.acquire("a")
        let waiting = Task { try await share.acquire("a") }
        try await Self.until("waits") { share.counts("a").waiting == 1 }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        #expect(share.counts("a") == FairShare.Counts(inFlight: 0, running: 1, waiting: 0))
        share.release("a")
        #expect(share.counts("a") == FairShare.Counts())
    }

    @Test("one user's flood waits in its own line: another user is answered meanwhile, the flooder gets 429 + Retry-After beyond its bound")
    func floodOverHTTP() async throws {
        let share = FairShare(limits: .init(slots: 4, perUserRunning: 2, perUserInFlight: 4))
        try await InProcessServer.run(share: share) { h in
            let flooder = try h.users.add(name: "flooder"), other = try h.users.add(name: "other")
            // The flooder's two turns are busy (as with two heavy reads running).
            try await share.acquire(flooder.user.id)
            try await share.acquire(flooder.user.id)
            var flood: [Task<Int, any Error>] = []
            for i in 0..<4 {
                flood.append(Task { try await h.get("/v1/reconcile", token: flooder.token).status })
                try await Self.until("flood request \(i) waits") { share.counts(flooder.user.id).waiting == i + 1 }
            }
            let refused = try await h.client.execute(
                uri: "/v1/reconcile", method: .get, headers: [.authorization: "Bearer \(flooder.token)"], body: nil)
            #expect(refused.status == .tooManyRequests)
            #expect(refused.headers[.retryAfter] == "1")
            #expect(String(buffer: refused.body).contains("too_many_requests"))
            // The other user is answered while all four of the flooder's requests still wait.
            let answered = try await h.get("/v1/accounts", token: other.token)
            #expect(answered.status == 200, "\(answered.text)")
            #expect(share.counts(flooder.user.id).waiting == 4)
            #expect(share.counts(other.user.id) == FairShare.Counts())
            share.release(flooder.user.id)
            share.release(flooder.user.id)
            for t in flood { #expect(try await t.value == 200) }
            try await Self.until("the flooder's share is empty") { share.counts(flooder.user.id) == FairShare.Counts() }
        }
    }

    @Test("a Plaid route waits for Plaid, not for a turn: it is answered while the user's turns are all busy")
    func plaidRoutesHoldNoTurn() async throws {
        let share = FairShare(limits: .init(slots: 4, perUserRunning: 1, perUserInFlight: 8))
        let tenSeconds: (inout ServerConfiguration) -> Void = { $0.requestTimeout = .seconds(10) }
        try await InProcessServer.run(share: share, configure: tenSeconds) { h in
            let (alice, token) = try h.users.add(name: "alice")
            // The ledger is open before the turn is taken (opening it is no part of the question).
            #expect(try await h.get("/v1/accounts", token: token).status == 200)
            try await share.acquire(alice.id) // the user's one turn is busy
            // No Plaid keys here: the route answers 503 plaid_not_configured, not a
            // request_timeout after waiting for a turn it would never get.
            let r = try await h.get("/v1/plaid/items", token: token)
            #expect(r.status == 503 && r.text.contains("plaid_not_configured"), "\(r.text)")
            #expect(share.counts(alice.id) == FairShare.Counts(inFlight: 0, running: 1, waiting: 0))
            share.release(alice.id)
        }
    }

    @Test("the token check does not wait behind the user directory's other work")
    func authenticationHasItsOwnThreads() async throws {
        let users = try UserDirectory(dataDirectory: try TestPaths.tempDir("fair-auth"))
        let (alice, token) = try users.add(name: "alice")
        let gate = DispatchSemaphore(value: 0)
        let started = Counter()
        // Every thread of the directory busy, and more work queued behind them.
        let threads = users.executor.maxThreads
        var busy: [Task<Void, any Error>] = []
        for _ in 0..<(threads + 2) {
            busy.append(
                Task {
                    try await users.perform { _ in
                        started.add()
                        gate.wait()
                    }
                })
        }
        try await Self.until("every thread busy") { started.value == threads }
        let order = Events()
        // Releases the blocked work after a while if the check is stuck behind it (then the
        // order below shows the failure instead of a hang).
        let releaser = Task {
            try? await Task.sleep(for: .seconds(20))
            await order.add("released")
            for _ in 0..<(threads + 2) { gate.signal() }
        }
        let found = try await users.authenticate(token: token)
        await order.add("authenticated")
        #expect(found?.id == alice.id)
        #expect(await order.order.first == "authenticated")
        releaser.cancel()
        _ = await releaser.value
        for t in busy { try await t.value }
    }
}
