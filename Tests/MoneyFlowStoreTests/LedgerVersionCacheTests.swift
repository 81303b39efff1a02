import Foundation
import GRDB
import MoneyFlowTestSupport
import Testing

@testable import MoneyFlowStore

/// A ledger "on a server" kept in memory: the working-copy path of the store.
private final class InMemoryLedger: RemoteLedger, @unchecked Sendable {
    let displayName = "in-memory ledger"
    func attach(migrator: DatabaseMigrator, access: StoreAccess) throws -> DatabaseQueue {
        let copy = try DatabaseQueue()
        try migrator.migrate(copy)
        return copy
    }
    func read<T>(copy: DatabaseQueue, _ body: (Database) throws -> T) throws -> T { try copy.read(body) }
    func write<T>(copy: DatabaseQueue, _ body: (Database) throws -> T) throws -> T { try copy.write(body) }
}

private func item(_ id: String) -> PlaidItemRecord {
    PlaidItemRecord(itemID: id, institutionID: nil, institutionName: nil, sealedToken: nil, keyID: nil, linkedAt: "2026-01-01T00:00:00Z")
}

@Suite("Whole-ledger results kept until the ledger changes")
struct LedgerVersionCacheTests {
    /// How many Plaid items the store holds, through the cache, counting the computations.
    private func counted(_ store: LedgerStore, _ runs: inout Int) throws -> Int {
        try store.computedPerVersion("test.items") { s in
            runs += 1
            return try s.plaidItems().count
        }
    }

    @Test("a store file: kept while nothing is written; a write through the store or through another store on the file is seen")
    func fileStore() throws {
        let path = try TestPaths.tempDir("version-cache") + "/ledger.sqlite"
        let store = try LedgerStore(path: path)
        var runs = 0
        #expect(try counted(store, &runs) == 0)
        #expect(try counted(store, &runs) == 0)
        #expect(runs == 1)
        try store.savePlaidItem(item("a"))
        #expect(try counted(store, &runs) == 1)
        #expect(runs == 2)
        // Another connection (as another process would) writes to the same file.
        let other = try LedgerStore(path: path)
        try other.savePlaidItem(item("b"))
        #expect(try counted(store, &runs) == 2)
        #expect(try counted(store, &runs) == 2)
        #expect(runs == 3)
    }

    @Test("a working copy (a ledger on a server): a write through the store is seen")
    func workingCopy() throws {
        let store = try LedgerStore(remote: InMemoryLedger())
        var runs = 0
        #expect(try counted(store, &runs) == 0)
        #expect(try counted(store, &runs) == 0)
        try store.savePlaidItem(item("a"))
        #expect(try counted(store, &runs) == 1)
        #expect(runs == 2)
    }
}
