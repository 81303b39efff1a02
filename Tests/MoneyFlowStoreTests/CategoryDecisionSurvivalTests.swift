import Foundation
import GRDB
import MoneyFlowCategories
import MoneyFlowCore
import MoneyFlowPipeline
import MoneyFlowStoreTestSupport
import Testing

@testable import MoneyFlowStore

/// A user's category decision is never lost: like a text edit (``EditSurvivalTests``), when an
/// undo removes its transaction it is kept by the records' identity and comes back when those
/// rows are imported again, and an account merge and its undo carry it.
@Suite struct CategoryDecisionSurvivalTests: GeneratedDaysSuite {
    /// The user's category of every transaction, by id (only those the user decided).
    func decided(_ store: LedgerStore) throws -> [Int64: String] {
        var out: [Int64: String] = [:]
        for t in try store.transactions(includeAll: true) where t.assignedCategory?.source == "user" {
            out[t.id] =
                (t.assignedCategory?.split.map { "\($0.account)=\($0.amount.decimalString)" } ?? []).joined(separator: " ")
                + (t.assignedCategory?.account ?? "")
        }
        return out
    }

    @Test(arguments: StoreKind.testable) func undoingTheImportAndImportingTheSameFileAgainBringsTheDecisionBack(_ kind: StoreKind)
        throws
    {
        let (store, _) = try freshStore(kind)
        let a = try importDays(store, 0..<4, name: "a.csv")
        let rent = try transaction(store, day: 2), shared = try transaction(store, day: 1)
        try store.categorize([rent.id], .account("Expenses:Rent"))
        try store.categorize([shared.id], .split(["Expenses:Food:0.01", "Expenses:Household:rest"]))
        let before = try decided(store)
        #expect(before.count == 2)

        let undo = try store.undo(batchID: try #require(a.batchID))
        #expect(undo.transactionsRemoved == 4 && undo.editedTransactionsRemoved == 2)
        #expect(try store.transactions().isEmpty)

        _ = try importDays(store, 0..<4, name: "a.csv")
        let back = try transaction(store, day: 2)
        #expect(back.id != rent.id, "ids are never reused")
        #expect(back.assignedCategory?.account == "Expenses:Rent" && back.assignedCategory?.source == "user")
        let split = try transaction(store, day: 1).assignedCategory
        #expect(split?.source == "user" && split?.split.map(\.account) == ["Expenses:Food", "Expenses:Household"])
        #expect(try decided(store).values.sorted() == before.values.sorted())
        #expect(try transaction(store, day: 3).assignedCategory?.source != "user")
    }

    @Test(arguments: StoreKind.testable) func aKeptDecisionComesBackOnceAndALaterOneStays(_ kind: StoreKind) throws {
        let (store, _) = try freshStore(kind)
        let a = try importDays(store, 0..<3, name: "a.csv")
        try store.categorize([try transaction(store, day: 1).id], .account("Expenses:Old"))
        _ = try store.undo(batchID: try #require(a.batchID))
        // The same row comes back in a file of its own first, and the kept decision with it.
        _ = try importDays(store, 1..<2, name: "b.csv")
        let t = try transaction(store, day: 1)
        #expect(t.assignedCategory?.account == "Expenses:Old")
        try store.categorize([t.id], .account("Expenses:New"))
        _ = try importDays(store, 0..<3, name: "a.csv")
        #expect(try transaction(store, day: 1).assignedCategory?.account == "Expenses:New", "kept once, restored once")
    }

    /// Undoing a categorize takes its decision back wherever it went: from the transaction a
    /// re-import restored it on (after an undo had kept it), and from `kept_edit` while it waits
    /// for its rows (then the re-import brings back the decision before it, not this one).
    @Test(arguments: StoreKind.testable, [true, false]) func undoingTheCategorizeRemovesTheDecisionWhereverItWent(
        _ kind: StoreKind, _ reimportFirst: Bool
    ) throws {
        let (store, _) = try freshStore(kind)
        let a = try importDays(store, 0..<3, name: "a.csv")
        let first = try transaction(store, day: 1).id
        try store.categorize([first], .account("Expenses:Before"))
        let later = try store.categorize([first], .account("Expenses:Later"))
        _ = try store.undo(batchID: try #require(a.batchID))
        if reimportFirst {
            _ = try importDays(store, 0..<3, name: "a.csv")
            #expect(try transaction(store, day: 1).assignedCategory?.account == "Expenses:Later")
            _ = try store.undo(batchID: later)
        } else {
            _ = try store.undo(batchID: later)
            _ = try importDays(store, 0..<3, name: "a.csv")
        }
        let back = try transaction(store, day: 1)
        #expect(back.id != first)
        #expect(back.assignedCategory?.account == "Expenses:Before" && back.assignedCategory?.source == "user")
        #expect(try decided(store).count == 1)
    }

    /// The store's digest (dry-run and undo comparisons) sees every category table: a change of
    /// any one of them alone changes it.
    @Test func theContentDigestCoversTheCategoryTables() throws {
        let (store, location) = try freshStore(.sqlite)
        _ = try importDays(store, 0..<3, name: "a.csv")
        try store.categorize([try transaction(store, day: 1).id], .account("Expenses:Rent"))
        try store.setCategorySettings(rules: nil, mapping: ProviderMapping())
        for sql in [
            "UPDATE category_decision SET account = 'Expenses:Other'", "UPDATE txn_category SET account = 'Expenses:Other'",
            "UPDATE category_setting SET value = '{\"alipay\":{}}'",
        ] {
            let before = try store.contentDigest()
            try DatabaseQueue(path: location).write { db in try db.execute(sql: sql) }
            #expect(try store.contentDigest() != before, "\(sql)")
        }
    }

    @Test(arguments: StoreKind.testable) func anAccountMergeAndItsUndoKeepEveryDecision(_ kind: StoreKind) throws {
        let (store, _, service, csvAccount, ofxAccount) = try AccountMergeTests.twoAccounts(kind)
        // One OFX transaction the merge empties into a CSV one, one CSV transaction it joins.
        let csv = try store.transactions(account: csvAccount)
        let csvAmounts = Set(csv.map(\.amount))
        let joined = try #require(try store.transactions(account: ofxAccount).first { csvAmounts.contains($0.amount) })
        let target = try #require(csv.first { $0.amount != joined.amount })
        try store.categorize([joined.id], .account("Expenses:Checked"))
        try store.categorize([target.id], .account("Expenses:Target"))
        let before = try decided(store)
        #expect(before.count == 2)

        let merged = try service.mergeAccount(ofxAccount, into: csvAccount, dryRun: false)
        let after = try decided(store)
        #expect(Set(after.values) == ["Expenses:Checked", "Expenses:Target"], "the merge carries the emptied transaction's decision")

        _ = try store.undo(batchID: try #require(merged.batchID))
        #expect(try decided(store) == before, "undoing the merge gives every decision back on its own transaction")
    }
}
