import Foundation
import GRDB
import MoneyFlowTestSupport
import Testing

@testable import MoneyFlowStore

/// A ledger "on a server" kept in memory, which notes at every read and write the store makes
/// through it whether the calling thread is one of the store's own (``StoreExecutor``): the
/// store's real code path, seen where it touches the database.
private final class ThreadNotingLedger: RemoteLedger, @unchecked Sendable {
    let displayName = "thread-noting ledger"
    private let lock = NSLock()
    private var executor: StoreExecutor?
    private var notes: [Bool] = []

    func watch(_ executor: StoreExecutor) {
        lock.withLock { self.executor = executor }
    }

    /// For each read or write since `watch`, whether it ran on the watched executor's thread.
    var onStoreThread: [Bool] { lock.withLock { notes } }

    private func note() {
        lock.withLock {
            guard let executor else { return }
            notes.append(executor.ownsCurrentThread)
        }
    }

    func attach(migrator: DatabaseMigrator, access: StoreAccess) throws -> DatabaseQueue {
        let copy = try DatabaseQueue()
        try migrator.migrate(copy)
        return copy
    }

    func read<T>(copy: DatabaseQueue, _ body: (Database) throws -> T) throws -> T {
        note()
        return try copy.read(body)
    }

    func write<T>(copy: DatabaseQueue, _ body: (Database) throws -> T) throws -> T {
        note()
        return try copy.write(body)
    }
}

private func item(_ id: String) -> PlaidItemRecord {
    PlaidItemRecord(itemID: id, institutionID: nil, institutionName: nil, sealedToken: nil, keyID: nil, linkedAt: "2026-01-01T00:00:00Z")
}

@Suite("The store's async operations")
struct StoreAsyncTests {
    @Test("an async store call made from a task runs on the store's own threads, not on the task's")
    func asyncCallsRunOnStoreThreads() async throws {
        let ledger = ThreadNotingLedger()
        let store = try LedgerStore(remote: ledger)
        ledger.watch(store.executor)
        try await Task {
            try await store.savePlaidItem(item("a"))
            _ = try await store.plaidItems()
            _ = try await store.accounts()
            _ = try await store.transactionsPage(afterID: 0, limit: 10)
        }.value
        let noted = ledger.onStoreThread
        #expect(noted.count == 4, "one read or write per call: \(noted)")
        #expect(noted.allSatisfy { $0 }, "every read and write ran on the store's threads: \(noted)")

        // The probe tells threads apart: the synchronous call stays on the caller's thread.
        let synchronous: () throws -> Void = { _ = try store.plaidItems() }
        try synchronous()
        #expect(ledger.onStoreThread.last == false)
    }

    @Test("many concurrent async calls on one store all complete, on no more threads than its bound")
    func manyConcurrentCallsComplete() async throws {
        let store = try LedgerStore(path: try TestPaths.tempStore("async"))
        let calls = 200
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<calls {
                group.addTask {
                    if i % 2 == 0 {
                        try await store.savePlaidItem(item("item-\(i)"))
                    } else {
                        _ = try await store.plaidItems()
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try await store.plaidItems().count == calls / 2)
        let started = store.executor.startedThreads
        #expect(started >= 1 && started <= store.executor.maxThreads, "\(started) threads for a bound of \(store.executor.maxThreads)")
    }
}
