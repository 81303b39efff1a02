import Foundation
import GRDB
import MoneyFlowCore
import MoneyFlowPipeline
import MoneyFlowStoreTestSupport
import MoneyFlowTestSupport
import Testing

@testable import MoneyFlowStore

/// A write transaction reads without the memory map (see ``LedgerStore/withoutMappedReads(_:_:)``)
/// and leaves the writing connection as it found it, whether it commits or fails.
@Suite struct WriteMemoryMapTests {
    func mapSize(_ db: Database) throws -> Int { try Int.fetchOne(db, sql: "PRAGMA mmap_size") ?? -1 }

    @Test func aWriteReadsWithoutTheMapAndRestoresIt() throws {
        let store = try LedgerStore(path: try TestPaths.tempStore("mmap"))
        let during = try store.write { db in try mapSize(db) }
        #expect(during == 0)
        #expect(try store.pool.writeWithoutTransaction { db in try mapSize(db) } == LedgerStore.mappedBytes)

        // An import (the write the map mattered for) still lands, and a failed write restores the map too.
        let applied = try ImportService(store: store).apply(
            GeneratedStatements.statement(account: 0, days: 0..<3), fileName: "a.csv", sha256: "a", options: FileImportOptions())
        #expect(applied.plan.counts.new > 0)
        #expect(throws: StoreError.self) { try store.write { _ in throw StoreError("fails on purpose") } }
        #expect(try store.pool.writeWithoutTransaction { db in try mapSize(db) } == LedgerStore.mappedBytes)
        #expect(try store.pool.read { db in try mapSize(db) } == LedgerStore.mappedBytes)
    }
}
