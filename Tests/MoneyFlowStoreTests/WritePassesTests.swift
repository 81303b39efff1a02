import Foundation
import GRDB
import MoneyFlowCore
import MoneyFlowPipeline
import MoneyFlowStoreTestSupport
import Testing

@testable import MoneyFlowStore

/// The passes after a write (``WritePasses``) run for every write, whatever code changed the
/// records: no write path computes or stores the merged view itself, so a new one cannot
/// forget it.
@Suite struct WritePassesTests {
    /// A store holding three days of one account, one record per transaction.
    func store(_ kind: StoreKind) throws -> LedgerStore {
        let (store, _) = try freshStore(kind)
        _ = try ImportService(store: store).apply(
            GeneratedStatements.statement(account: 0, days: 0..<3), fileName: "a.csv", sha256: "a", options: FileImportOptions())
        return store
    }

    /// A write that only changes a record's text shows it on the record's transaction.
    @Test(arguments: StoreKind.testable) func aChangedRecordIsShownByItsTransaction(_ kind: StoreKind) throws {
        let store = try store(kind)
        let first = try #require(store.transactions().first)
        let record = try #require(first.sources.first).id
        try store.write { db in
            try db.execute(sql: "UPDATE record SET description = 'CHANGED TEXT' WHERE id = ?", arguments: [record])
        }
        #expect(try store.transaction(id: first.id)?.description == "CHANGED TEXT")
    }

    /// A write that only moves a link: the transaction left without records is voided, the
    /// one it joined is merged again (the first record by id shows), and transfers follow.
    @Test(arguments: StoreKind.testable) func aMovedLinkMergesBothTransactions(_ kind: StoreKind) throws {
        let store = try store(kind)
        let txs = try store.transactions()
        let (a, b) = (txs[0], txs[1])
        let recordOfB = try #require(b.sources.first).id
        try store.write { db in
            try db.execute(sql: "UPDATE link SET transaction_id = ? WHERE record_id = ?", arguments: [a.id, recordOfB])
        }
        let after = try store.transactions(includeAll: true)
        #expect(after.first { $0.id == b.id }?.status == "void")
        let joined = try #require(after.first { $0.id == a.id })
        #expect(joined.status == "active" && joined.sources.count == 2)
        #expect(joined.description == a.description && joined.amount == a.amount)
    }
}
