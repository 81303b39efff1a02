import Foundation
import MoneyFlowPipeline
import MoneyFlowTestSupport
import Testing

@testable import MoneyFlowPostgres
@testable import MoneyFlowStore

/// Two stores open on one PostgreSQL ledger (two processes or hosts): what one writes, the
/// other sees at its next read or write, fetched by the logged keys rather than loaded in full.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["MONEYFLOW_TEST_POSTGRES"] != nil, "needs MONEYFLOW_TEST_POSTGRES"))
struct PostgresRefreshTests {
    static func url(_ ledger: String) -> String {
        ProcessInfo.processInfo.environment["MONEYFLOW_TEST_POSTGRES"]! + "&ledger=" + ledger
    }
    static func newLedger() -> String { "refresh_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16) }
    static func fullLoads(_ store: LedgerStore) -> Int { (store.remote as! PostgresLedger).fullLoads }
    /// A store whose working copy is in memory only (two of them in one process stand for two
    /// processes), or kept in `cacheFile`.
    static func open(_ ledger: String, cachePrefix: String? = nil, access: StoreAccess = .readWrite) throws -> LedgerStore {
        try LedgerStore(remote: PostgresLedger(try PostgresLocation.parse(url(ledger)), cachePrefix: cachePrefix), access: access)
    }

    /// Every step through A is seen through B with the same content as a store opened afresh.
    @Test func aSecondStoreFollowsEveryKindOfChangeIncrementally() throws {
        let ledger = Self.newLedger()
        let a = try Self.open(ledger)
        let b = try Self.open(ledger)
        func same(_ step: String) throws {
            let fresh = try Self.open(ledger, access: .readOnly)
            let expected = try fresh.contentDigest()
            #expect(try a.contentDigest() == expected, "A after \(step)")
            #expect(try b.contentDigest() == expected, "B after \(step)")
        }
        let loadsBefore = Self.fullLoads(b)
        let first = try ImportService(store: a).importFile(path: TestPaths.sample("csv/chase_checking.csv"), options: FileImportOptions())
        try same("an import through A")
        _ = try ImportService(store: b).importFile(path: TestPaths.sample("csv/chase_card.csv"), options: FileImportOptions())
        try same("an import through B")
        let t = try #require(try a.transactions().first)
        try b.editTransaction(t.id, description: "Rent, July", note: "split with Sam")
        try same("an edit through B")
        #expect(try a.transactions().first { $0.id == t.id }?.description == "Rent, July")
        try a.undo(batchID: first.batchID!)
        try same("an undo through A")
        _ = try ImportService(store: b).importFile(path: TestPaths.sample("csv/chase_checking.csv"), options: FileImportOptions())
        try same("the undone file imported again through B")
        #expect(Self.fullLoads(b) == loadsBefore, "B followed by the logged keys, never loading the whole ledger again")
        #expect(Self.fullLoads(a) == 1, "A loaded the ledger once, when it made it, and followed B's writes by their keys")
    }

    /// Renames that pass a name from one account to another cannot be applied row by row on
    /// the copy (a name is unique at every step): the copy then loads in full, and is right.
    @Test func swappedAccountNamesFallBackToAFullLoad() throws {
        let ledger = Self.newLedger()
        let a = try Self.open(ledger)
        let b = try Self.open(ledger)
        let service = ImportService(store: a)
        _ = try service.importFile(path: TestPaths.sample("csv/chase_checking.csv"), options: FileImportOptions())
        _ = try service.importFile(path: TestPaths.sample("csv/chase_card.csv"), options: FileImportOptions())
        let names = try b.accounts().map(\.name)
        #expect(names.count == 2)
        let loads = Self.fullLoads(b)
        try a.renameAccount(names[0], to: "swap")
        try a.renameAccount(names[1], to: names[0])
        try a.renameAccount("swap", to: names[1])
        #expect(try b.accounts().map(\.name).sorted() == names.sorted())
        #expect(try b.contentDigest() == a.contentDigest())
        #expect(Self.fullLoads(b) == loads + 1)
    }

    /// The next process on the same ledger starts from the cache file the last one left: no
    /// full load, only what others changed meanwhile; a cache of a ledger that was dropped and
    /// made again, or a damaged one, is loaded afresh.
    @Test func aCacheFileSparesTheNextProcessTheFullLoad() throws {
        let ledger = Self.newLedger()
        let folder = try TestPaths.tempDir("ledger-cache")
        let cache = folder + "/copy"
        let chase = TestPaths.sample("csv/chase_checking.csv")
        do {
            let first = try Self.open(ledger, cachePrefix: cache)
            _ = try ImportService(store: first).importFile(path: chase, options: FileImportOptions())
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".sqlite") }
        #expect(files.count == 1)
        var info = stat()
        #expect(stat(folder + "/" + (files.first ?? ""), &info) == 0 && info.st_mode & 0o777 == 0o600)
        let reopened = try Self.open(ledger, cachePrefix: cache)
        #expect(Self.fullLoads(reopened) == 0)
        let expected = try Self.open(ledger, access: .readOnly).contentDigest()
        #expect(try reopened.contentDigest() == expected)
        // Another machine imports meanwhile; the next process fetches just that.
        _ = try ImportService(store: try Self.open(ledger)).importFile(
            path: TestPaths.sample("csv/chase_card.csv"), options: FileImportOptions())
        let later = try Self.open(ledger, cachePrefix: cache)
        #expect(try later.contentDigest() == Self.open(ledger, access: .readOnly).contentDigest())
        #expect(Self.fullLoads(later) == 0)
        // The ledger dropped and made again (a new incarnation, same name): the cache is not used.
        let location = try PostgresLocation.parse(Self.url(ledger))
        try PostgresSession(location).execute("DROP SCHEMA \"\(location.schema)\" CASCADE")
        _ = try ImportService(store: try Self.open(ledger)).importFile(path: TestPaths.sample("csv/amex.csv"), options: FileImportOptions())
        let remade = try Self.open(ledger, cachePrefix: cache)
        #expect(Self.fullLoads(remade) == 1)
        #expect(try remade.accounts().map(\.name) == Self.open(ledger, access: .readOnly).accounts().map(\.name))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".sqlite") }.count == 2, "a file of its own")
        // A damaged cache file is replaced.
        for file in try FileManager.default.contentsOfDirectory(atPath: folder) where file.hasSuffix(".sqlite") {
            for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: folder + "/" + file + suffix) }
            try Data(repeating: 0x42, count: 8192).write(to: URL(fileURLWithPath: folder + "/" + file))
        }
        let repaired = try Self.open(ledger, cachePrefix: cache)
        #expect(try repaired.contentDigest() == Self.open(ledger, access: .readOnly).contentDigest())
    }
}
