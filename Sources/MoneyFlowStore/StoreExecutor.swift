import Foundation

/// The threads a store runs its blocking database work on when it is called from async code
/// (``LedgerStore``'s `async` operations, ``LedgerStore/perform(_:)``).
///
/// SQLite (through GRDB) and a PostgreSQL ledger's working copy block the thread that calls
/// them, and Swift's cooperative pool has about one thread per core: one import holding one of
/// them stalls every other task of the process (on a two-core server, two imports stall every
/// request). So async callers hop to these threads and are resumed when the work is done.
///
/// Why Foundation threads of its own, not NIO's `NIOThreadPool` or a `DispatchQueue`: the
/// store is linked by the CLI, the pipeline and the importers, which must not depend on NIO;
/// and a concurrent `DispatchQueue` on Linux runs its items on libdispatch's shared worker
/// threads and starts more whenever they block, with no bound. Threads of our own are bounded
/// (`maxThreads`; more work waits in order), marked (``ownsCurrentThread`` tells a test where
/// work ran), and end with their owner.
///
/// Threads start on demand (a CLI command that never awaits the store starts none) and wait
/// when idle. When the executor is released (its store is closed) they finish the work already
/// queued, so no caller is left waiting, and exit.
public final class StoreExecutor: Sendable {
    private let queue: JobQueue

    /// The most threads this executor runs at once.
    public var maxThreads: Int { queue.maxThreads }

    /// Threads per store by default: enough for a few concurrent reads beside a write (SQLite's
    /// WAL lets readers run during a write), few enough that thousands of open stores stay cheap.
    public static var defaultMaxThreads: Int { max(4, ProcessInfo.processInfo.activeProcessorCount) }

    public init(label: String = "moneyflow-store", maxThreads: Int = StoreExecutor.defaultMaxThreads) {
        queue = JobQueue(label: label, maxThreads: max(1, maxThreads))
    }

    deinit { queue.shutDown() }

    /// Runs `body` on one of the executor's threads and returns its result to the caller,
    /// whose own thread is free meanwhile. Work runs in the order it was asked for.
    public func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            queue.submit { continuation.resume(with: Result { try body() }) }
        }
    }

    /// True when the calling thread is one of this executor's.
    public var ownsCurrentThread: Bool { JobQueue.current() == ObjectIdentifier(queue) }

    /// How many threads have been started and not exited (for tests of the bound).
    var startedThreads: Int { queue.threadCount }
}

/// The executor's queue and threads. The threads hold the queue, never the executor, so
/// releasing the executor is what shuts them down.
private final class JobQueue: @unchecked Sendable {
    typealias Job = @Sendable () -> Void

    let label: String
    let maxThreads: Int
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var jobs: [Job] = []
    private var next = 0
    private var idle = 0
    private var threads = 0
    private var stopped = false

    init(label: String, maxThreads: Int) {
        self.label = label
        self.maxThreads = maxThreads
    }

    var threadCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return threads
    }

    func submit(_ job: @escaping Job) {
        condition.lock()
        jobs.append(job)
        // A thread is started only when the waiting jobs outnumber the idle threads.
        let start = !stopped && idle < jobs.count - next && threads < maxThreads
        if start { threads += 1 }
        let number = threads
        condition.signal()
        condition.unlock()
        if start {
            let thread = Thread { [self] in work() }
            thread.name = "\(label)-\(number)"
            thread.start()
        }
    }

    func shutDown() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    private func work() {
        Thread.current.threadDictionary[Self.ownerKey] = ObjectIdentifierBox(ObjectIdentifier(self))
        condition.lock()
        while true {
            while next == jobs.count && !stopped {
                idle += 1
                condition.wait()
                idle -= 1
            }
            if next == jobs.count {
                threads -= 1
                condition.unlock()
                return
            }
            let job = jobs[next]
            next += 1
            if next == jobs.count {
                jobs.removeAll(keepingCapacity: true)
                next = 0
            }
            condition.unlock()
            job()
            condition.lock()
        }
    }

    private static let ownerKey = "MoneyFlow.StoreExecutor"

    /// The queue whose thread this is, if any.
    static func current() -> ObjectIdentifier? {
        (Thread.current.threadDictionary[ownerKey] as? ObjectIdentifierBox)?.id
    }
}

/// Marks a thread with the queue that owns it (thread dictionaries hold objects).
private final class ObjectIdentifierBox: NSObject {
    let id: ObjectIdentifier
    init(_ id: ObjectIdentifier) { self.id = id }
}
