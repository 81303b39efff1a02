import Foundation
import GRDB
import MoneyFlowCore
import MoneyFlowPipeline
import Testing

@testable import MoneyFlowStore

/// How a failing or waiting write reaches the user (SQLite: its page limit and its file lock).
@Suite struct StoreWriteErrorTests {
    /// SQLite's page limit gives the same SQLITE_FULL as a full disk.
    @Test func aFullDiskIsOneShortLineNamingTheStore() throws {
        let (store, path) = try freshStore(.sqlite)
        _ = try ImportService(store: store).apply(
            GeneratedStatements.statement(account: 0, days: 0..<3), fileName: "a.csv", sha256: "a", options: FileImportOptions())
        let digest = try store.contentDigest()
        try store.pool.write { db in
            let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            try db.execute(sql: "PRAGMA max_page_count = \(pages + 1)")
        }
        let big = GeneratedStatements.statement(account: 1, days: 0..<2_000)
        let error = #expect(throws: StoreError.self) {
            _ = try ImportService(store: store).apply(big, fileName: "big.csv", sha256: "big", options: FileImportOptions())
        }
        let message = error?.message ?? ""
        #expect(message.hasPrefix("disk full while writing store \(path)"), "\(message)")
        #expect(!message.contains("INSERT") && !message.contains("\n") && message.count < 200)
        #expect(try store.contentDigest() == digest)
    }

    /// A writer that finds the store locked says so once (about a second in) and then
    /// finishes when the lock is released. Driven by the notice, not by a clock.
    @Test func aWaitingWriterSaysItWaits() throws {
        let (store, path) = try freshStore(.sqlite)
        let notices = NoticeBox()
        let waiting = try LedgerStore(path: path, waitNotice: { notices.append($0) })
        var unsafe = Configuration()
        unsafe.allowsUnsafeTransactions = true
        let blocker = try DatabaseQueue(path: path, configuration: unsafe)
        try blocker.inDatabase { db in try db.execute(sql: "BEGIN IMMEDIATE") }
        let (noticed, error) = try writeWhileLocked(waiting, notices: notices) {
            try blocker.inDatabase { db in try db.execute(sql: "COMMIT") }
        }
        #expect(noticed)
        #expect(notices.values == ["waiting for another moneyflow process to finish writing \(path)…"])
        #expect(error == "no account named 'nobody'", "the write went on after the wait")
        _ = store
    }
}

/// Starts a write through `waiting` (renaming an account that does not exist) on another
/// thread while the caller holds the store's lock, waits up to a minute for its wait notice,
/// then `release`s the lock and waits for the write to end. Returns whether it said it waits,
/// and the write's error.
func writeWhileLocked(_ waiting: LedgerStore, notices: NoticeBox, release: () throws -> Void) throws -> (noticed: Bool, error: String?) {
    let done = DispatchSemaphore(value: 0)
    let result = ResultBox()
    Thread.detachNewThread {
        do { try waiting.renameAccount("nobody", to: "x") } catch { result.set("\(error)") }
        done.signal()
    }
    var noticed = false
    for _ in 0..<600 where !noticed {
        noticed = !notices.values.isEmpty
        if !noticed { usleep(100_000) }
    }
    try release()
    done.wait()
    return (noticed, result.value)
}

final class NoticeBox: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    func append(_ s: String) { lock.lock(); items.append(s); lock.unlock() }
    var values: [String] { lock.lock(); defer { lock.unlock() }; return items }
}

final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var v: String?
    func set(_ s: String) { lock.lock(); v = s; lock.unlock() }
    var value: String? { lock.lock(); defer { lock.unlock() }; return v }
}
