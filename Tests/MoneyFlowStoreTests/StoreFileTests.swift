import Foundation
import GRDB
import MoneyFlowCore
import MoneyFlowPipeline
import MoneyFlowStoreTestSupport
import MoneyFlowTestSupport
import Testing

@testable import MoneyFlowStore

/// The store's file: created private, recognised before anything is written, readable when
/// read-only, never created by a reading command. (SQLite's file; the PostgreSQL counterparts
/// are in PostgresStoreTests.)
@Suite struct StoreFileTests {
    func tempDir() throws -> String { try TestPaths.tempDir("file") }

    /// A store at `location` (a path or a postgres:// URL) holding one generated statement of
    /// `days` (closed again before returning).
    func importDays(_ days: Range<Int>, into location: String) throws {
        let store = try reopenTestStore(location)
        _ = try ImportService(store: store).apply(
            GeneratedStatements.statement(account: 0, days: days), fileName: "a.csv", sha256: "a", options: FileImportOptions())
    }

    func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int ?? -1) & 0o777
    }

    @Test func aStoreCreatedThroughADanglingSymlinkIsPrivateWithItsWALAndSHM() throws {
        let dir = try tempDir()
        let target = dir + "/real.sqlite", link = dir + "/link.sqlite"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "real.sqlite")
        let store = try LedgerStore(path: link)
        _ = try ImportService(store: store).apply(
            GeneratedStatements.statement(account: 0, days: 0..<3), fileName: "a.csv", sha256: "a", options: FileImportOptions())
        #expect(try mode(target) == 0o600)
        for suffix in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: target + suffix) {
            #expect(try mode(target + suffix) == 0o600, "\(suffix)")
        }
        #expect(FileManager.default.fileExists(atPath: target + "-wal"), "the store is in WAL mode and open")
        #expect(try store.transactions().count == 3)
    }

    @Test func aStoreFromANewerMoneyFlowIsRefusedUnchanged() throws {
        let dir = try tempDir()
        let path = dir + "/store.sqlite"
        try importDays(0..<3, into: path)
        // A newer version added a migration this one does not know.
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: "INSERT INTO grdb_migrations(identifier) VALUES ('v99-from-the-future')")
        }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        for access in [StoreAccess.readWrite, .readOnly] {
            let error = #expect(throws: StoreError.self) { try LedgerStore(path: path, access: access) }
            #expect(error?.message.contains("newer MoneyFlow") == true)
            #expect(error?.message.contains("v99-from-the-future") == true)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
    }

    @Test func anotherApplicationsDatabaseIsRefusedAndLeftByteIdentical() throws {
        let dir = try tempDir()
        let path = dir + "/notes.db"
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: "CREATE TABLE note(id INTEGER PRIMARY KEY, body TEXT); INSERT INTO note(body) VALUES ('keep me')")
        }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let before = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        for access in [StoreAccess.readWrite, .readOnly] {
            let error = #expect(throws: StoreError.self) { try LedgerStore(path: path, access: access) }
            #expect(error?.message.contains("another application's SQLite database (tables: note)") == true)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == before, "no -wal/-shm left behind")
        // Not SQLite at all: refused too, untouched.
        let csv = dir + "/statement.csv"
        try Data("Date,Amount\n".utf8).write(to: URL(fileURLWithPath: csv))
        #expect(throws: StoreError.self) { try LedgerStore(path: csv) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: csv)) == Data("Date,Amount\n".utf8))
    }

    /// Another GRDB application (its own migrations) is not ours; a store another process is
    /// creating right now (migrations table made, first migration not committed) is.
    @Test func migrationsTablesAreToldApart() throws {
        let dir = try tempDir()
        let other = dir + "/other.db"
        var m = DatabaseMigrator()
        m.registerMigration("createNotes") { db in try db.execute(sql: "CREATE TABLE note(id INTEGER PRIMARY KEY)") }
        try m.migrate(try DatabaseQueue(path: other))
        let bytes = try Data(contentsOf: URL(fileURLWithPath: other))
        let error = #expect(throws: StoreError.self) { try LedgerStore(path: other) }
        #expect(error?.message.contains("another application's SQLite database (tables: grdb_migrations, note)") == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: other)) == bytes)
        let starting = dir + "/starting.sqlite"
        try DatabaseQueue(path: starting).write { db in
            try db.execute(sql: "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
        }
        #expect(try LedgerStore(path: starting).transactions().isEmpty)
    }

    @Test func readingAMissingStoreIsAnErrorAndCreatesNothing() throws {
        let dir = try tempDir()
        let path = dir + "/typo.sqlite"
        let error = #expect(throws: StoreError.self) { try LedgerStore(path: path, access: .readOnly) }
        #expect(error?.message.contains(path) == true)
        #expect(error?.message.contains("moneyflow import") == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }

    @Test(arguments: StoreKind.testable) func aReadOnlyOpenReadsAndNeverWrites(_ kind: StoreKind) throws {
        let location = try testStoreLocation(kind, name: "file")
        try importDays(0..<4, into: location)
        let reader = try reopenTestStore(location, access: .readOnly)
        #expect(try reader.transactions().count == 4)
        #expect(throws: (any Error).self) { try reader.renameAccount("Test Checking", to: "X") }
        #expect(try reopenTestStore(location).accounts().map(\.name) == ["Test Checking"])
    }

    /// A store of the schema before ids were AUTOINCREMENT keeps every row and id through the
    /// upgrade, and ids deleted before it are not handed out again once above the largest.
    @Test func upgradingAnOlderStoreKeepsItsRowsAndIds() throws {
        let dir = try tempDir()
        let path = dir + "/old.sqlite"
        let queue = try DatabaseQueue(path: path)
        try Schema.migrator.migrate(queue, upTo: "v2-sync-progress")
        try queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO account(id, name, created_at) VALUES (3, 'Old', '2024-01-01');
                    INSERT INTO account_key(key, account_id) VALUES ('csv:old', 3);
                    INSERT INTO batch(id, file_name, file_sha256, importer, imported_at) VALUES (5, 'old.csv', 'x', 'csv', '2024-01-01');
                    INSERT INTO txn(id, account_id, date, amount_minor, currency, description, created_batch_id, sort_key)
                      VALUES (7, 3, '2024-01-02', -100, 'USD', 'OLD SHOP', 5, 1);
                    INSERT INTO record(id, batch_id, account_id, source_kind, fingerprint, date, amount_minor, currency, description, raw, file_seq)
                      VALUES (9, 5, 3, 'csv', 'fp', '2024-01-02', -100, 'USD', 'OLD SHOP', '{}', 0);
                    INSERT INTO link(record_id, transaction_id, score, reasons, decided_by) VALUES (9, 7, 1, '[]', 'auto');
                    """)
        }
        // Read-only commands read it as it is (and do not upgrade it).
        let reader = try LedgerStore(path: path, access: .readOnly)
        #expect(try reader.batches().map(\.seenAgain) == [0])
        #expect(try reader.transactions().map(\.id) == [7])
        #expect(
            try DatabaseQueue(path: path).read { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") }.count == 2)
        let store = try LedgerStore(path: path)
        let txs = try store.transactions()
        #expect(txs.map(\.id) == [7])
        #expect(txs.first?.sources.map(\.id) == [9])
        #expect(try store.accounts().map(\.keys) == [["csv:old"]])
        let r = try ImportService(store: store).apply(
            GeneratedStatements.statement(account: 0, days: 0..<2), fileName: "n.csv", sha256: "n", options: FileImportOptions())
        #expect(r.batchID == 6)
        #expect(try store.transactions().map(\.id).sorted() == [7, 8, 9])
        try store.undo(batchID: 6)
        _ = try ImportService(store: store).apply(
            GeneratedStatements.statement(account: 1, days: 0..<1), fileName: "m.csv", sha256: "m", options: FileImportOptions())
        #expect(try store.transactions().map(\.id).sorted() == [7, 10])
        #expect(try store.integrityCheck() == "ok")
    }

    /// Every connection reads the file through a memory map (``LedgerStore/mappedBytes``), the
    /// writer's, a pool reader's and a read-only open's alike (the writer's map is off only
    /// inside a write transaction: `WriteMemoryMapTests`).
    @Test func everyConnectionReadsThroughAMemoryMap() throws {
        let path = try TestPaths.tempStore("mmap")
        let store = try LedgerStore(path: path)
        let mapped = try store.read { db in try Int.fetchOne(db, sql: "PRAGMA mmap_size") }
        #expect(mapped == LedgerStore.mappedBytes)
        #expect(try store.pool.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA mmap_size") } == LedgerStore.mappedBytes)
        let reader = try LedgerStore(path: path, access: .readOnly)
        #expect(try reader.read { db in try Int.fetchOne(db, sql: "PRAGMA mmap_size") } == LedgerStore.mappedBytes)
    }

    /// A new store gets ``LedgerStore/pageSize`` pages, in WAL mode; a store made with another
    /// page size keeps it (SQLite cannot change it in WAL mode) and imports into it as before.
    @Test func aNewStoreHasLargePagesAndAnOlderStoreKeepsItsOwn() throws {
        let path = try TestPaths.tempStore("pages")
        try importDays(0..<3, into: path)
        let fresh = try LedgerStore(path: path)
        #expect(try fresh.read { db in try Int.fetchOne(db, sql: "PRAGMA page_size") } == LedgerStore.pageSize)
        #expect(try fresh.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "wal")

        let older = try TestPaths.tempStore("pages-4k")
        try importDays(0..<3, into: older)
        // The page size every store had before: rebuilt with SQLite's default.
        try DatabaseQueue(path: older).writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode = DELETE; PRAGMA page_size = 4096; VACUUM; PRAGMA journal_mode = WAL")
        }
        try importDays(3..<6, into: older)
        let reopened = try LedgerStore(path: older)
        #expect(try reopened.read { db in try Int.fetchOne(db, sql: "PRAGMA page_size") } == 4096)
        #expect(try reopened.transactions().count == 6)
        #expect(try reopened.integrityCheck() == "ok")
    }
}
