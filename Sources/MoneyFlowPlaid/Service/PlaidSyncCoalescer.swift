import Foundation

/// Syncs of one item, coalesced: at most one running and one waiting behind it; a request while
/// one waits joins it (the waiting sync will fetch whatever the request was about).
///
/// Why: every trigger (a webhook, the schedule, a replay that got through) asking for a sync of
/// an item that is already syncing needs exactly one more sync after the running one, never
/// one each. Syncs of different items run independently (their user's writing slot orders
/// them further). Keys are the caller's (the server uses user and item).
public actor PlaidSyncCoalescer {
    public typealias Job = @Sendable () async -> Void

    /// What became of a request.
    public enum Admission: String, Sendable {
        /// Nothing was running for the key: the job runs now.
        case started
        /// A sync runs: this job runs once it has finished.
        case queued
        /// A sync runs and another waits already: the waiting one stands for this request too.
        case joined
    }

    private var queued: [String: Job?] = [:]
    private var runners: [String: Task<Void, Never>] = [:]
    /// Jobs started, by key (tests and the load script read it through ``started(_:)``).
    private var starts: [String: Int] = [:]

    public init() {}

    /// Runs `job` for `key` now, after the running one, or not at all (see ``Admission``).
    @discardableResult
    public func request(_ key: String, _ job: @escaping Job) -> Admission {
        if let waiting = queued[key] {
            if waiting != nil { return .joined }
            queued[key] = .some(job)
            return .queued
        }
        queued[key] = .some(nil)
        starts[key, default: 0] += 1
        runners[key] = Task { await self.drain(key, first: job) }
        return .started
    }

    /// True while a sync of `key` runs or waits.
    public func isBusy(_ key: String) -> Bool { queued[key] != nil }

    /// How many jobs have started for `key`.
    public func started(_ key: String) -> Int { starts[key] ?? 0 }

    /// Cancels every running job and drops the waiting ones (server shutdown).
    public func cancelAll() {
        for key in queued.keys { queued[key] = .some(nil) }
        for runner in runners.values { runner.cancel() }
    }

    /// Returns once no job runs or waits for any key.
    public func drained() async {
        while let runner = runners.values.first { await runner.value }
    }

    private func drain(_ key: String, first: @escaping Job) async {
        var job: Job? = first
        while let current = job {
            await current()
            job = next(key)
        }
    }

    /// The job waiting for `key` (counted as started), or nil after marking `key` idle.
    private func next(_ key: String) -> Job? {
        guard let waiting = queued[key], let job = waiting, !Task.isCancelled else {
            queued[key] = nil
            runners[key] = nil
            return nil
        }
        queued[key] = .some(nil)
        starts[key, default: 0] += 1
        return job
    }
}
