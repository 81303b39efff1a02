import Foundation

/// Each user's fair share of the server's work, so one user's flood cannot stall another.
///
/// Every ledger has its own threads, but the machine has a few cores and Swift's cooperative
/// pool one thread per core: forty heavy reads by one user, all running at once, leave another
/// user's request waiting seconds for a core. So a request works only while it holds a *turn*:
/// at most ``Limits/slots`` turns are held at once across all users, at most
/// ``Limits/perUserRunning`` by one user (always fewer than the slots, so another user finds
/// one free or the next one freed), and users waiting for a turn are served in turn, each from
/// their own queue, first come first served. Another user's request therefore waits at most for
/// one request's work, never behind a queue of someone else's. A user may have at most
/// ``Limits/perUserInFlight`` requests admitted (working, waiting or still sending their
/// answer); beyond that the answer is 429 with `Retry-After`, before any work is done.
final class FairShare: @unchecked Sendable {
    struct Limits: Sendable {
        /// Turns held at once, all users together.
        var slots: Int
        /// Turns one user holds at once (less than `slots`).
        var perUserRunning: Int
        /// Requests of one user admitted at once; more get 429.
        var perUserInFlight: Int

        init(slots: Int, perUserRunning: Int, perUserInFlight: Int) {
            self.slots = max(2, slots)
            self.perUserRunning = min(max(1, perUserRunning), self.slots - 1)
            self.perUserInFlight = max(1, perUserInFlight)
        }

        /// Two turns per core (a request waits on its store's threads part of the time), half of
        /// them for one user, and 32 requests in flight per user (a browser opens six
        /// connections per site, a household has a few devices, and a sync script or a load
        /// test runs 16 connections beside an upload; a flood of 40 is refused in part).
        static let standard: Limits = {
            let slots = max(4, 2 * ProcessInfo.processInfo.activeProcessorCount)
            return Limits(slots: slots, perUserRunning: slots / 2, perUserInFlight: 32)
        }()
    }

    /// What a test reads of one user's share.
    struct Counts: Equatable, Sendable {
        var inFlight = 0
        var running = 0
        var waiting = 0
    }

    let limits: Limits
    private let lock = NSLock()
    // Guarded by `lock`.
    private var running = 0
    private var users: [String: UserState] = [:]
    /// Users with requests waiting for a turn, in the order they are served.
    private var ring: [String] = []
    private var nextWaiter: UInt64 = 0

    private struct Waiter {
        var id: UInt64
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct UserState {
        var inFlight = 0
        var running = 0
        var waiting: [Waiter] = []
    }

    init(limits: Limits = .standard) { self.limits = limits }

    /// Seconds a client refused with 429 is told to wait (`Retry-After`).
    static let retryAfterSeconds = 1

    /// Admits one more request of `user`, or throws 429 when the user has
    /// ``Limits/perUserInFlight`` already. Each admission ends with one ``leave(_:)``.
    func admit(_ user: String) throws {
        lock.lock()
        defer { lock.unlock() }
        var state = users[user, default: UserState()]
        guard state.inFlight < limits.perUserInFlight else {
            throw APIError(
                .tooManyRequests, "too_many_requests",
                "you have \(limits.perUserInFlight) requests in progress already; retry after \(Self.retryAfterSeconds) s",
                retryAfter: Self.retryAfterSeconds)
        }
        state.inFlight += 1
        users[user] = state
    }

    /// The admitted request is answered (or gone).
    func leave(_ user: String) {
        lock.lock()
        users[user]?.inFlight -= 1
        forgetIfIdle(user)
        lock.unlock()
    }

    /// Waits for a turn of `user`'s; a cancelled wait throws `CancellationError` and holds none.
    func acquire(_ user: String) async throws {
        try Task.checkCancellation()
        let id: UInt64? = lock.withLock {
            let state = users[user, default: UserState()]
            if running < limits.slots && state.running < limits.perUserRunning && state.waiting.isEmpty {
                grant(user)
                return nil
            }
            nextWaiter += 1
            return nextWaiter
        }
        guard let id else { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                // Cancelled before it was queued: the cancel handler found nothing to take out.
                if Task.isCancelled { return continuation.resume(throwing: CancellationError()) }
                let ready = lock.withLock {
                    users[user, default: UserState()].waiting.append(Waiter(id: id, continuation: continuation))
                    if !ring.contains(user) { ring.append(user) }
                    return dispatch()
                }
                for r in ready { r.resume() }
            }
        } onCancel: {
            cancel(user, waiter: id)
        }
    }

    /// Gives back a turn of `user`'s; the next user in line gets it.
    func release(_ user: String) {
        lock.lock()
        running -= 1
        users[user]?.running -= 1
        forgetIfIdle(user)
        let ready = dispatch()
        lock.unlock()
        for r in ready { r.resume() }
    }

    func counts(_ user: String) -> Counts {
        lock.lock()
        defer { lock.unlock() }
        let s = users[user] ?? UserState()
        return Counts(inFlight: s.inFlight, running: s.running, waiting: s.waiting.count)
    }

    // MARK: Under the lock

    private func grant(_ user: String) {
        running += 1
        users[user, default: UserState()].running += 1
    }

    /// Hands free turns to waiting users, one each in ring order; the served user goes to the
    /// back of the ring. Returns the continuations to resume once the lock is released.
    private func dispatch() -> [CheckedContinuation<Void, any Error>] {
        var ready: [CheckedContinuation<Void, any Error>] = []
        var i = 0
        while running < limits.slots && i < ring.count {
            let user = ring[i]
            guard let state = users[user], !state.waiting.isEmpty, state.running < limits.perUserRunning else {
                i += 1
                continue
            }
            let waiter = users[user]!.waiting.removeFirst()
            grant(user)
            ready.append(waiter.continuation)
            ring.remove(at: i)
            if !users[user]!.waiting.isEmpty { ring.append(user) }
        }
        return ready
    }

    private func cancel(_ user: String, waiter id: UInt64) {
        lock.lock()
        guard let index = users[user]?.waiting.firstIndex(where: { $0.id == id }) else {
            lock.unlock()
            return
        }
        let waiter = users[user]!.waiting.remove(at: index)
        if users[user]!.waiting.isEmpty { ring.removeAll { $0 == user } }
        forgetIfIdle(user)
        lock.unlock()
        waiter.continuation.resume(throwing: CancellationError())
    }

    private func forgetIfIdle(_ user: String) {
        if let s = users[user], s.inFlight <= 0, s.running <= 0, s.waiting.isEmpty { users[user] = nil }
    }
}

/// One admitted request's hold on its user's share: whether it holds a turn now, and that it
/// leaves exactly once (when its answer is written, or when the answer is dropped unwritten).
final class FairPass: @unchecked Sendable {
    let share: FairShare
    let user: String
    private let lock = NSLock()
    private var holding = false
    private var left = false

    init(share: FairShare, user: String) {
        self.share = share
        self.user = user
    }

    deinit { finish() }

    func acquire() async throws {
        try await share.acquire(user)
        lock.withLock { holding = true }
    }

    /// Gives the turn back if it is held.
    func release() {
        lock.lock()
        let held = holding
        holding = false
        lock.unlock()
        if held { share.release(user) }
    }

    /// Runs `body` (waiting for the network, e.g. an upload's bytes) without holding a turn,
    /// then waits for one again: a slow client never keeps a turn from other users.
    func outsideTurn<T>(_ body: () async throws -> T) async throws -> T {
        release()
        let result = try await body()
        try await acquire()
        return result
    }

    /// The request is answered: its turn (if still held) and its admission are given back.
    func finish() {
        release()
        lock.lock()
        let first = !left
        left = true
        lock.unlock()
        if first { share.leave(user) }
    }
}
