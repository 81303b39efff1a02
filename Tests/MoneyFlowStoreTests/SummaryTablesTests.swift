import Foundation
import GRDB
import MoneyFlowCore
import MoneyFlowPipeline
import MoneyFlowStoreTestSupport
import MoneyFlowTestSupport
import Testing

@testable import MoneyFlowStore

/// The home page's sums are kept by every write (``SummaryPass``) instead of scanned per view.
/// After each kind of write (imports of several formats, a category choice, a relink, an undo,
/// raw changes to dates, amounts, statuses, categories and record states), on both stores:
/// the overview and the balance breaks read from the kept tables equal the same figures
/// computed by scanning the whole ledger (the queries the home page ran before v15), and the
/// kept tables equal the ones a fresh fill computes from scratch.
@Suite struct SummaryTablesTests {
    /// A Chase export of the same account as the CSV sample whose third row's printed balance
    /// does not chain, and whose fourth row falls in the next month.
    static let broken = """
        Details,Posting Date,Description,Amount,Type,Balance,Check or Slip #
        DEBIT,05/01/2026,"OIL CHANGE",-7.50,DEBIT_CARD,2792.50,,
        DEBIT,04/07/2026,"GARDEN",-5.00,DEBIT_CARD,2800.00,,
        DEBIT,04/06/2026,"BOOKS",-20.00,DEBIT_CARD,2878.30,,
        DEBIT,04/05/2026,"HARDWARE",-10.00,DEBIT_CARD,2898.30,,

        """

    @Test(arguments: StoreKind.testable) func keptSumsEqualAScanAfterEveryKindOfWrite(_ kind: StoreKind) throws {
        let (store, _) = try freshStore(kind)
        let service = ImportService(store: store)
        let dir = try TestPaths.tempDir("summary")
        let brokenPath = dir + "/april.csv"
        try Self.broken.write(toFile: brokenPath, atomically: true, encoding: .utf8)
        var step = 0
        func check(_ what: String) throws {
            step += 1
            try Self.expectKeptEqualsScan(store, "step \(step): \(what)")
        }
        for (path, intoFirstAccount) in try ImportRehearsalTests.steps("csv+ofx") + ImportRehearsalTests.steps("us_quarter") {
            var options = FileImportOptions()
            if intoFirstAccount { options.accountName = try #require(try store.accounts().first?.name) }
            _ = try service.importFile(path: path, options: options)
            try check("import \((path as NSString).lastPathComponent)")
        }
        var options = FileImportOptions()
        options.accountName = try #require(try store.accounts().first { $0.name.contains("Checking") }?.name)
        let brokenBatch = try #require(try service.importFile(path: brokenPath, options: options).batchID)
        try check("a file whose balance does not chain")
        #expect(try store.balanceBreaks().count == 1)

        let live = try store.transactions().filter { $0.status == "active" }
        let uncategorised = live.filter { $0.category == nil }.prefix(3).map(\.id)
        let categorize = try store.categorize(Array(uncategorised), .account("Expenses:Test:Sorted"))
        try check("a category choice")
        let linked = try #require(live.first { $0.sources.count > 1 })
        let record = try #require(linked.sources.last).id
        _ = try store.userUnlink(recordID: record)
        try check("a record unlinked")
        try store.userLink(recordID: record, transactionID: linked.id)
        try check("the record linked again")

        let moved = try #require(live.first { $0.sources.count == 1 })
        try store.write { db in
            try db.execute(sql: "UPDATE txn SET date = '2019-12-31', amount_minor = amount_minor - 1234 WHERE id = ?", arguments: [moved.id])
            try db.execute(sql: "UPDATE txn SET status = 'void' WHERE id = ?", arguments: [live[1].id])
            try db.execute(sql: "DELETE FROM txn_category WHERE transaction_id IN (SELECT transaction_id FROM txn_category LIMIT 2)")
        }
        try check("raw changes of a date, an amount, a status and two category rows")
        try store.write { db in
            // The broken file's second row (file order) leaves the run: the chain is checked without it.
            try db.execute(
                sql: "UPDATE record SET state = 'superseded' WHERE batch_id = ? AND file_seq = (SELECT min(file_seq) + 1 FROM record WHERE batch_id = ?)",
                arguments: [brokenBatch, brokenBatch])
        }
        try check("a record of the broken file superseded")

        _ = try store.undo(batchID: categorize)
        try check("the category choice undone")
        _ = try store.undo(batchID: brokenBatch)
        try check("the broken file undone")
        #expect(try store.balanceBreaks().isEmpty)
    }

    /// A batch whose records' ids are not in file order (two rows' places in the file swapped
    /// by a raw write): the kept breaks follow the file's order, as the scan's do.
    @Test(arguments: StoreKind.testable) func breaksFollowFileOrderNotRecordOrder(_ kind: StoreKind) throws {
        let (store, _) = try freshStore(kind)
        let dir = try TestPaths.tempDir("summary-file-order")
        let path = dir + "/april.csv"
        try Self.broken.write(toFile: path, atomically: true, encoding: .utf8)
        var options = FileImportOptions()
        options.accountName = "Chase Checking"
        let batch = try #require(try ImportService(store: store).importFile(path: path, options: options).batchID)
        try store.write { db in
            try db.execute(
                sql: """
                    UPDATE record SET file_seq = CASE description WHEN 'GARDEN' THEN 2 WHEN 'BOOKS' THEN 1 ELSE file_seq END
                    WHERE batch_id = ?
                    """, arguments: [batch])
        }
        try Self.expectKeptEqualsScan(store, "two rows swapped in the file")
        #expect(try store.balanceBreaks().count == 3)
    }

    /// A ledger made before v15 gets its sums from the migration: the same as a scan.
    @Test func theMigrationFillsTheSumsOfAnExistingLedger() throws {
        let path = try TestPaths.tempStore("summary-migration")
        let store = try LedgerStore(path: path)
        for path in try ImportRehearsalTests.files("cmb_quarter") {
            _ = try ImportService(store: store).importFile(path: path, options: FileImportOptions())
        }
        try store.write { db in for table in SummaryTables.names { try db.execute(sql: "DELETE FROM \(table)") } }
        #expect(try store.overview().transactions == 0)
        try store.write { db in try SummaryTables.fill(db) }
        try Self.expectKeptEqualsScan(store, "after a fill")
        #expect(try store.overview().transactions > 0)
    }

    static func expectKeptEqualsScan(_ store: LedgerStore, _ comment: String) throws {
        let kept = try store.overview(months: 240)
        let scanned = try ScannedOverview.compute(store, months: 240)
        #expect(kept.months == scanned.months, "\(comment): months")
        #expect(kept.categories == scanned.categories, "\(comment): categories")
        #expect(kept.balances == scanned.balances, "\(comment): balances")
        #expect(kept.uncategorized == scanned.uncategorized, "\(comment): uncategorised")
        #expect(kept.transactions == scanned.transactions, "\(comment): transactions")
        #expect(kept.lastImport == scanned.lastImport, "\(comment): last imports")
        #expect(try store.balanceBreaks() == scanned.breaks, "\(comment): balance breaks")
        let keptRows = try summaryRows(store)
        try store.write { db in
            for table in SummaryTables.names { try db.execute(sql: "DELETE FROM \(table)") }
            try SummaryTables.fill(db)
        }
        #expect(try summaryRows(store) == keptRows, "\(comment): the kept tables are what a fresh fill computes")
    }

    static func summaryRows(_ store: LedgerStore) throws -> [String] {
        try store.read { db in
            try SummaryTables.names.map { table in
                try Row.fetchAll(db, sql: "SELECT * FROM \(table)").map(\.description).sorted().joined(separator: "\n")
            }
        }
    }
}
