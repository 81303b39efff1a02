import Foundation
import MoneyFlowCore
import MoneyFlowPipeline
import MoneyFlowStoreTestSupport
import Testing

@testable import MoneyFlowStore

/// An edit belongs to its transaction: it survives link / unlink of the transaction's records
/// while any record supports it, moves with the last record when the transaction empties, and
/// when an undo removes the transaction it is kept by the records' identity and comes back
/// when those rows are imported again.
@Suite struct EditSurvivalTests: GeneratedDaysSuite {
    @Test(arguments: StoreKind.testable) func unlinkingARecordThatIsAloneChangesNothingAndKeepsTheEdit(_ kind: StoreKind) throws {
        let (store, _) = try freshStore(kind)
        _ = try importDays(store, 0..<3, name: "a.csv")
        let t = try transaction(store, day: 1)
        let record = try #require(t.sources.first).id
        let first = try store.unlink(recordID: record)
        #expect(first == UnlinkResult(transactionID: t.id, alreadyAlone: true))
        try store.editTransaction(t.id, note: "lunch with Ana")
        let second = try store.unlink(recordID: record)
        #expect(second.transactionID == t.id && second.alreadyAlone)
        _ = try store.unlink(recordID: record)
        let now = try transaction(store, day: 1)
        #expect(now.id == t.id)
        #expect(now.note == "lunch with Ana")
        #expect(try store.transactions().count == 3)
    }

    @Test(arguments: StoreKind.testable) func anEditStaysWithItsTransactionThroughLinkAndUnlink(_ kind: StoreKind) throws {
        let (store, _) = try freshStore(kind)
        _ = try importDays(store, 0..<3, name: "a.csv")
        let t0 = try transaction(store, day: 0), t1 = try transaction(store, day: 1)
        let r1 = try #require(t1.sources.first).id
        try store.editTransaction(t1.id, description: "Dinner")
        try store.editTransaction(t0.id, note: "groceries")
        // The last record of t1 joins t0: t1 is gone, its edit goes with the record.
        try store.userLink(recordID: r1, transactionID: t0.id)
        var merged = try #require(try store.transactions().first { $0.id == t0.id })
        #expect(merged.sources.count == 2)
        #expect(merged.description == "Dinner" && merged.note == "groceries")
        #expect(try store.transactions().allSatisfy { $0.id != t1.id })
        // Detaching the record again: t0 keeps its edits (record of day 0 still supports it).
        let u = try store.unlink(recordID: r1)
        #expect(!u.alreadyAlone && u.transactionID != t0.id && u.transactionID != t1.id)
        merged = try #require(try store.transactions().first { $0.id == t0.id })
        #expect(merged.note == "groceries" && merged.description == "Dinner")
        // Unlinking once more is a no-op: same transaction as the first unlink.
        try store.editTransaction(u.transactionID, note: "split")
        let again = try store.unlink(recordID: r1)
        #expect(again == UnlinkResult(transactionID: u.transactionID, alreadyAlone: true))
        #expect(try store.transactions().first { $0.id == u.transactionID }?.note == "split")
    }

    @Test(arguments: StoreKind.testable) func undoReportsEditedTransactionsAndReimportRestoresTheirEdits(_ kind: StoreKind) throws {
        let (store, _) = try freshStore(kind)
        let a = try importDays(store, 0..<4, name: "a.csv")
        let t = try transaction(store, day: 2)
        try store.editTransaction(t.id, description: "Rent share", note: "paid back")
        let result = try store.undo(batchID: try #require(a.batchID))
        #expect(result.transactionsRemoved == 4)
        #expect(result.editedTransactionsRemoved == 1)
        #expect(try store.transactions().isEmpty)
        _ = try importDays(store, 1..<6, name: "b.csv")
        let back = try transaction(store, day: 2)
        #expect(back.id != t.id, "ids are never reused")
        #expect(back.description == "Rent share" && back.note == "paid back")
        #expect(try transaction(store, day: 3).note == nil)
        // Kept once: a later undo and import of other rows does not bring it elsewhere.
        #expect(try store.undo(batchID: 2).editedTransactionsRemoved == 1)
        _ = try importDays(store, 2..<3, name: "c.csv")
        #expect(try transaction(store, day: 2).note == "paid back")
    }
}
