import Foundation
import MoneyFlowCore
import MoneyFlowPipeline
import MoneyFlowStore
import MoneyFlowStoreTestSupport
import MoneyFlowTestSupport
import Testing

func coffeeTransactions(_ store: LedgerStore) throws -> [LedgerTransaction] {
    try store.transactions().filter { $0.amount.minorUnits == -545 }
}

func sourceSummary(_ store: LedgerStore) throws -> [String] {
    try store.transactions().map { t in
        "\(t.date.iso)|\(t.amount.decimalString)|review=\(t.needsReview)|"
            + t.sources.map { "\($0.kind.rawValue):\($0.externalID ?? "line\($0.line ?? 0)")" }.sorted().joined(separator: ",")
    }.sorted()
}

@Suite struct ReviewDecisionTests {
    typealias F = AbstainFixture

    @Test(arguments: StoreKind.testable) func engineAbstainsUserDecidesAndImportsNeverOverturnIt(_ kind: StoreKind) throws {
        let store = try freshReconcileStore(kind)
        let service = ImportService(store: store)
        try importFile(service, F.plaidFeed, name: "plaid.json")
        let stmt = try service.apply(F.statement1, fileName: "march-a.csv", sha256: "sha-a", options: FileImportOptions())
        #expect(stmt.plan.counts.needsReview == 1, "decisions: \(stmt.plan.entries.map { describe($0.decision) })")
        #expect(stmt.plan.counts.linked == 1) // the grocery row is unambiguous

        // The coffee row stands alone, flagged, with both Plaid transactions as candidates.
        let reviews = try store.pendingReviews()
        try #require(reviews.count == 1)
        let review = reviews[0]
        #expect(review.record.kind == .csv && review.record.amount.minorUnits == -545)
        let byExt = Dictionary(
            uniqueKeysWithValues: try store.transactions().compactMap { t in
                t.sources.first(where: { $0.kind == .plaid }).map { ($0.externalID!, t) }
            })
        let before = try #require(byExt["cof-before"]), after = try #require(byExt["cof-after"])
        #expect(Set(review.candidates.compactMap(\.transactionID)) == [before.id, after.id])
        var coffees = try coffeeTransactions(store)
        #expect(coffees.count == 3)
        #expect(coffees.filter(\.needsReview).map(\.id) == [review.transactionID])

        // The user picks the later Plaid record (the one a date-biased guess would not pick).
        try store.userLink(recordID: review.recordID, transactionID: after.id)
        #expect(try store.pendingReviews().isEmpty)
        coffees = try coffeeTransactions(store)
        #expect(coffees.count == 2)
        #expect(!coffees.contains { $0.needsReview })
        let linked = try #require(coffees.first { $0.id == after.id })
        #expect(Set(linked.sources.map(\.kind)) == [.csv, .plaid])
        #expect(linked.date == F.day && linked.description == F.coffee) // the bank's own fields win
        let decided = try sourceSummary(store)

        // Nothing overturns it: the same statement again (same bytes, re-downloaded), an
        // overlapping statement, the Plaid feed again, and a Plaid update of the chosen record.
        _ = try service.apply(F.statement1, fileName: "march-a.csv", sha256: "sha-a", options: FileImportOptions())
        _ = try service.apply(F.statement1, fileName: "march-a (1).csv", sha256: "sha-a-redownload", options: FileImportOptions())
        let overlap = try service.apply(F.statement2, fileName: "march-b.csv", sha256: "sha-b", options: FileImportOptions())
        #expect(overlap.plan.counts.alreadyPresent == 1 && overlap.plan.counts.new == 1)
        _ = try service.apply(F.plaidFeed, fileName: "plaid.json", sha256: "sha-plaid-2", options: FileImportOptions())
        var modified = F.plaidFeed
        modified.records = [F.plaid("cof-after", F.day.adding(days: 1), -545, "Starbucks Coffee", row: 1)]
        modified.modifiedExternalIDs = ["cof-after"]
        let upd = try service.apply(modified, fileName: "plaid-update.json", sha256: "sha-plaid-upd", options: FileImportOptions())
        #expect(upd.plan.counts.updated == 1)
        let after2 = try sourceSummary(store).filter { !$0.contains("-22.17") }
        #expect(after2 == decided, "\(after2) vs \(decided)")
        #expect(try store.pendingReviews().isEmpty)
    }

    /// Undoing the statement and importing it again restores the user's link (remembered by the
    /// row's fingerprint), without a new review.
    @Test(arguments: StoreKind.testable) func userLinkSurvivesUndoAndReimport(_ kind: StoreKind) throws {
        let store = try freshReconcileStore(kind)
        let service = ImportService(store: store)
        try importFile(service, F.plaidFeed, name: "plaid.json")
        let stmt = try service.apply(F.statement1, fileName: "march-a.csv", sha256: "sha-a", options: FileImportOptions())
        let review = try #require(try store.pendingReviews().first)
        let target = try #require(review.candidates.compactMap(\.transactionID).max())
        try store.userLink(recordID: review.recordID, transactionID: target)
        let decided = try sourceSummary(store)
        _ = try store.undo(batchID: stmt.batchID!)
        #expect(try coffeeTransactions(store).count == 2)
        let again = try service.apply(F.statement1, fileName: "march-a.csv", sha256: "sha-a", options: FileImportOptions())
        #expect(again.plan.counts.needsReview == 0, "decisions: \(again.plan.entries.map { describe($0.decision) })")
        #expect(try sourceSummary(store) == decided)
        #expect(try store.pendingReviews().isEmpty)
    }

    /// The user says "this row is its own transaction": later imports never link it again, not
    /// even when the competitor disappears or a re-downloaded statement brings it back.
    @Test(arguments: StoreKind.testable) func userUnlinkIsNeverOverturned(_ kind: StoreKind) throws {
        let store = try freshReconcileStore(kind)
        let service = ImportService(store: store)
        try importFile(service, F.plaidFeed, name: "plaid.json")
        _ = try service.apply(F.statement1, fileName: "march-a.csv", sha256: "sha-a", options: FileImportOptions())
        // The grocery row was linked automatically; the user separates it.
        let grocery = try #require(try store.transactions().first { $0.amount.minorUnits == -6412 })
        #expect(grocery.sources.count == 2)
        let row = try #require(grocery.sources.first { $0.kind == .csv })
        let own = try store.userUnlink(recordID: row.id)
        var groceries = try store.transactions().filter { $0.amount.minorUnits == -6412 }
        #expect(groceries.count == 2)
        #expect(groceries.first { $0.id == own }?.sources.map(\.id) == [row.id])
        let decided = try sourceSummary(store)
        _ = try service.apply(F.statement1, fileName: "march-a (1).csv", sha256: "sha-a-redownload", options: FileImportOptions())
        _ = try service.apply(F.plaidFeed, fileName: "plaid.json", sha256: "sha-plaid-2", options: FileImportOptions())
        #expect(try sourceSummary(store) == decided)
        // Undo + re-import of the statement: the row comes back standalone.
        let batches = try store.batches().filter { $0.fileName == "march-a.csv" }
        _ = try store.undo(batchID: try #require(batches.first).id)
        _ = try service.apply(F.statement1, fileName: "march-a.csv", sha256: "sha-a", options: FileImportOptions())
        groceries = try store.transactions().filter { $0.amount.minorUnits == -6412 }
        #expect(groceries.count == 2, "\(groceries.map { $0.sources.map(\.kind) })")
        #expect(groceries.allSatisfy { $0.sources.count == 1 })
    }

    /// Statement first, then the two Plaid candidates in one update: they compete for the same
    /// bank transaction; the engine must not guess, the user then links the flagged one, and
    /// replaying the Plaid file changes nothing.
    @Test(arguments: StoreKind.testable) func twoPlaidRecordsCompetingForOneRow(_ kind: StoreKind) throws {
        let store = try freshReconcileStore(kind)
        let service = ImportService(store: store)
        _ = try service.apply(F.statement1, fileName: "march-a.csv", sha256: "sha-a", options: FileImportOptions())
        let p = try service.apply(F.plaidFeed, fileName: "plaid.json", sha256: "sha-p", options: FileImportOptions())
        #expect(p.plan.counts.needsReview == 1, "decisions: \(p.plan.entries.map { describe($0.decision) })")
        let coffees = try coffeeTransactions(store)
        // Never two Plaid records on one bank row.
        #expect(!coffees.contains { $0.sources.filter { $0.kind == .plaid }.count > 1 })
        let review = try #require(try store.pendingReviews().first)
        let bankTxn = try #require(coffees.first { $0.sources.contains { $0.kind == .csv } })
        #expect(review.candidates.contains { $0.transactionID == bankTxn.id })
        try store.userLink(recordID: review.recordID, transactionID: bankTxn.id)
        let decided = try sourceSummary(store)
        #expect(try coffeeTransactions(store).count == 2)
        _ = try service.apply(F.plaidFeed, fileName: "plaid.json", sha256: "sha-p", options: FileImportOptions())
        _ = try service.apply(F.plaidFeed, fileName: "plaid (1).json", sha256: "sha-p2", options: FileImportOptions())
        _ = try service.apply(F.statement2, fileName: "march-b.csv", sha256: "sha-b", options: FileImportOptions())
        #expect(try sourceSummary(store).filter { !$0.contains("-22.17") } == decided)
        #expect(try store.pendingReviews().isEmpty)
    }
}
