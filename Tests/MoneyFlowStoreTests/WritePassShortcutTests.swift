import Foundation
import GRDB
import MoneyFlowCategories
import MoneyFlowCore
import MoneyFlowPipeline
import MoneyFlowStoreTestSupport
import Testing

@testable import MoneyFlowStore

/// The write passes skip work that is provably empty for a write (``CategoryPass`` reads only
/// the transfer legs and the transactions with a stored row when nothing else can categorise;
/// ``TransferRefresher`` decides nothing while one account holds every transaction). After every
/// step of a history through both shortcuts and out of them, the derived tables equal what a
/// recomputation over the whole store gives.
@Suite("write passes: shortcuts give what the full recomputation gives")
struct WritePassShortcutTests {
    static let checking = sample("csv/chase_checking.csv"), card = sample("csv/chase_card.csv")

    /// Every stored category row, transfer and transfer review, as text.
    static func derived(_ db: Database) throws -> [String] {
        try String.fetchAll(
            db,
            sql: """
                SELECT 'c ' || transaction_id || ' ' || coalesce(account, '-') || ' ' || source || ' ' || reason FROM txn_category
                UNION ALL SELECT 't ' || out_txn || ' ' || in_txn || ' ' || score || ' ' || reasons || ' ' || decided_by FROM transfer
                UNION ALL SELECT 'r ' || out_txn || ' ' || in_txn || ' ' || score || ' ' || reasons FROM transfer_review
                """
        ).sorted()
    }

    /// The derived tables as a write that notes every transaction (transfers) and changes the
    /// category settings (every category) recomputes them; the write is rolled back.
    static func recomputed(_ store: LedgerStore) throws -> [String] {
        struct Rollback: Error { var rows: [String] }
        do {
            try store.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO mf_touched_txn(id) SELECT id FROM txn WHERE true ON CONFLICT DO NOTHING;
                        INSERT INTO mf_category_all(one) VALUES (1) ON CONFLICT DO NOTHING;
                        """)
                try WritePasses.finish(db)
                throw Rollback(rows: try Self.derived(db))
            }
        } catch let r as Rollback {
            return r.rows
        }
        Issue.record("the recomputation was not rolled back")
        return []
    }

    /// A bank CSV into a new store, its card beside it (two transfers: both legs get their
    /// own-transfer category), a re-import, the card undone (the legs' rows go), the card again.
    @Test(arguments: StoreKind.testable)
    func eachStepEqualsTheFullRecomputation(_ kind: StoreKind) throws {
        let (store, _) = try freshStore(kind)
        let service = ImportService(store: store)
        func check(_ step: String, legs: Int) throws {
            let rows = try store.read { try Self.derived($0) }
            #expect(rows == (try Self.recomputed(store)), "\(step)")
            #expect(rows.filter { $0.hasPrefix("c ") && $0.contains("ownTransfer") }.count == legs, "\(step)")
        }
        _ = try service.importFile(path: Self.checking, options: FileImportOptions())
        try check("checking alone", legs: 0)
        let card = try service.importFile(path: Self.card, options: FileImportOptions())
        try check("the card beside it", legs: 4)
        _ = try service.importFile(path: Self.checking, options: FileImportOptions())
        try check("checking again", legs: 4)
        _ = try store.undo(batchID: try #require(card.batchID))
        try check("the card undone", legs: 0)
        _ = try service.importFile(path: Self.card, options: FileImportOptions())
        try check("the card again", legs: 4)
    }

    /// A bank CSV's first import takes the shortcut: nothing but transfers can categorise, so
    /// the wallet-refund lookup (a walk over every noted transaction's records) never runs.
    @Test func aBankCSVIntoANewStoreSkipsTheRefundLookup() throws {
        let (store, _) = try freshStore(.sqlite)
        _ = try ImportService(store: store).importFile(path: Self.checking, options: FileImportOptions())
        let (onlyProvider, hasProvider, refundLookups) = try store.write { db in
            (
                try CategoryPass.categorizer(db).readsOnlyProviderCategories, try CategoryInputs.storeHasProviderCategories(db),
                try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_temp_master WHERE name = 'mf_refund_key'")
            )
        }
        #expect(onlyProvider && !hasProvider)
        #expect(refundLookups == 0)
    }
}
