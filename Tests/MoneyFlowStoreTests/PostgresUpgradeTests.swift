import Foundation
import GRDB
import MoneyFlowCore
import MoneyFlowPipeline
import MoneyFlowPostgres
import MoneyFlowStoreTestSupport
import Testing

@testable import MoneyFlowStore

/// A ledger an older MoneyFlow made on PostgreSQL (the schema before ids were AUTOINCREMENT)
/// is upgraded by the first command that writes: every row and id kept, ids deleted before
/// the upgrade never handed out again (the SQLite counterpart is in StoreFileTests).
@Suite(.enabled(if: TestPostgres.url != nil, "needs MONEYFLOW_TEST_POSTGRES"))
struct PostgresUpgradeTests {
    /// A migrator that makes the schema of `identifier` and records the migrations up to it
    /// under their own names, as that older MoneyFlow did: the first one creates the tables
    /// (their SQL read back from a SQLite copy migrated that far), the others do nothing.
    func olderMigrator(upTo identifier: String) throws -> DatabaseMigrator {
        let sample = try DatabaseQueue()
        try Schema.migrator.migrate(sample, upTo: identifier)
        let sql = try sample.read { db in
            try String.fetchAll(
                db,
                sql:
                    "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' AND name <> 'grdb_migrations' ORDER BY rowid"
            )
        }
        let names = Schema.migrator.migrations.prefix { $0 != identifier } + [identifier]
        var m = DatabaseMigrator()
        for (k, name) in names.enumerated() {
            m.registerMigration(name) { db in if k == 0 { for s in sql { try db.execute(sql: s) } } }
        }
        return m
    }

    @Test func anOlderLedgerIsUpgradedKeepingItsRowsAndIds() throws {
        let ledger = TestPostgres.uniqueLedgerName()
        let location = TestPostgres.storeURL(ledger: ledger)
        _ = try PostgresLedger(try PostgresLocation.parse(location))
            .attach(migrator: olderMigrator(upTo: "v2-sync-progress"), access: .readWrite)
        // Its rows as that MoneyFlow wrote them (the server's tables have no defaults: the copy
        // fills them in, so they are spelt out here).
        let s = TestPostgres.schema(ledger: ledger)
        for row in [
            "INSERT INTO \(s).account(id, name, created_at) VALUES (3, 'Old', '2024-01-01')",
            "INSERT INTO \(s).account_key(key, account_id) VALUES ('csv:old', 3)",
            """
            INSERT INTO \(s).batch(id, file_name, file_sha256, importer, imported_at, new_count, present_count, linked_count,
              updated_count, review_count, removed_count, warning_count) VALUES (5, 'old.csv', 'x', 'csv', '2024-01-01', 1, 0, 0, 0, 0, 0, 0)
            """,
            """
            INSERT INTO \(s).txn(id, account_id, date, amount_minor, currency, description, created_batch_id, sort_key, pending, status, needs_review)
              VALUES (7, 3, '2024-01-02', -100, 'USD', 'OLD SHOP', 5, 1, 0, 'active', 0)
            """,
            """
            INSERT INTO \(s).record(id, batch_id, account_id, source_kind, fingerprint, date, amount_minor, currency, description, raw, file_seq,
              pending, state) VALUES (9, 5, 3, 'csv', 'fp', '2024-01-02', -100, 'USD', 'OLD SHOP', '{}', 0, 0, 'active')
            """,
            "INSERT INTO \(s).link(record_id, transaction_id, score, reasons, decided_by) VALUES (9, 7, 1, '[]', 'auto')",
            // The ledger's version moves with every write (the copies of running clients reload).
            "UPDATE \(s).moneyflow_ledger SET version = version + 1",
        ] {
            try TestPostgres.execute(row)
        }
        let old = try TestPostgres.ledgerFingerprint(ledger)
        #expect(old.contains { $0.hasPrefix("grdb_migrations: 2 ") })
        // A reading command does not upgrade it (on PostgreSQL it asks for a writing command
        // first, where SQLite reads the old file as it is).
        let error = #expect(throws: StoreError.self) { try reopenTestStore(location, access: .readOnly) }
        #expect(error?.message.contains("was written by an older MoneyFlow") == true, "\(error?.message ?? "")")
        #expect(try TestPostgres.ledgerFingerprint(ledger) == old)

        let store = try reopenTestStore(location)
        let txs = try store.transactions()
        #expect(txs.map(\.id) == [7])
        #expect(txs.first?.sources.map(\.id) == [9])
        #expect(try store.accounts().map(\.keys) == [["csv:old"]])
        let applied = try TestPostgres.rows("SELECT identifier FROM \(s).grdb_migrations ORDER BY identifier").compactMap {
            $0.first ?? nil
        }
        #expect(applied == Schema.migrator.migrations.sorted())
        let r = try ImportService(store: store).apply(
            GeneratedStatements.statement(account: 0, days: 0..<2), fileName: "n.csv", sha256: "n", options: FileImportOptions())
        #expect(r.batchID == 6)
        #expect(try store.transactions().map(\.id).sorted() == [7, 8, 9])
        try store.undo(batchID: 6)
        // Another client, after the upgrade: ids come from the server, not from one copy.
        let other = try reopenTestStore(location)
        _ = try ImportService(store: other).apply(
            GeneratedStatements.statement(account: 1, days: 0..<1), fileName: "m.csv", sha256: "m", options: FileImportOptions())
        #expect(try store.transactions().map(\.id).sorted() == [7, 10])
        #expect(try store.integrityCheck() == "ok")
        #expect(try store.contentDigest() == other.contentDigest())
    }
}
