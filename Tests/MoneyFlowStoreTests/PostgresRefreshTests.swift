import Foundation
import MoneyFlowPipeline
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

    /// Every step through A is seen through B with the same content as a store opened afresh.
    @Test func aSecondStoreFollowsEveryKindOfChangeIncrementally() throws {
        let ledger = Self.newLedger()
        let a = try StoreOpener.open(Self.url(ledger))
        let b = try StoreOpener.open(Self.url(ledger))
        func same(_ step: String) throws {
            let fresh = try StoreOpener.open(Self.url(ledger), access: .readOnly)
            let expected = try fresh.contentDigest()
            #expect(try a.contentDigest() == expected, "A after \(step)")
            #expect(try b.contentDigest() == expected, "B after \(step)")
        }
        let loadsBefore = Self.fullLoads(b)
        let first = try ImportService(store: a).importFile(path: sample("csv/chase_checking.csv"), options: FileImportOptions())
        try same("an import through A")
        _ = try ImportService(store: b).importFile(path: sample("csv/chase_card.csv"), options: FileImportOptions())
        try same("an import through B")
        let t = try #require(try a.transactions().first)
        try b.editTransaction(t.id, description: "Rent, July", note: "split with Sam")
        try same("an edit through B")
        #expect(try a.transactions().first { $0.id == t.id }?.description == "Rent, July")
        try a.undo(batchID: first.batchID!)
        try same("an undo through A")
        _ = try ImportService(store: b).importFile(path: sample("csv/chase_checking.csv"), options: FileImportOptions())
        try same("the undone file imported again through B")
        #expect(Self.fullLoads(b) == loadsBefore, "B followed by the logged keys, never loading the whole ledger again")
        #expect(Self.fullLoads(a) == 0, "A created the ledger and followed B's writes by their keys")
    }

    /// Renames that pass a name from one account to another cannot be applied row by row on
    /// the copy (a name is unique at every step): the copy then loads in full, and is right.
    @Test func swappedAccountNamesFallBackToAFullLoad() throws {
        let ledger = Self.newLedger()
        let a = try StoreOpener.open(Self.url(ledger))
        let b = try StoreOpener.open(Self.url(ledger))
        let service = ImportService(store: a)
        _ = try service.importFile(path: sample("csv/chase_checking.csv"), options: FileImportOptions())
        _ = try service.importFile(path: sample("csv/chase_card.csv"), options: FileImportOptions())
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
}
