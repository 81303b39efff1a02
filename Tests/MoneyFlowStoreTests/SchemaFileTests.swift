import Foundation
import GRDB
@testable import MoneyFlowStore
import MoneyFlowTestSupport
import Testing

/// `Sources/MoneyFlowStore/schema.sql` is the schema a store has after every migration, so a
/// reader sees the tables without replaying the migrations. This test migrates a fresh store,
/// dumps its schema (GRDB's `dumpSchema`) and compares it with the committed file; run it with
/// `MONEYFLOW_WRITE_SCHEMA=1` to rewrite the file after adding a migration.
@Suite struct SchemaFileTests {
    static let file = TestPaths.repoRoot.appendingPathComponent("Sources/MoneyFlowStore/schema.sql")
    static let regenerate =
        "MONEYFLOW_WRITE_SCHEMA=1 swift test --skip-build --disable-xctest --filter SchemaFileTests"

    static let header = """
        -- The schema of a MoneyFlow store after every migration (Schema.swift, SchemaUpgrades.swift,
        -- TransferTables.swift, PlaidItemStore.swift), as GRDB's dumpSchema writes it. Generated:
        -- never edit by hand; after adding a migration run
        -- \(regenerate)
        -- (SchemaFileTests fails until this file matches a freshly migrated store).

        """

    /// Collects GRDB's dump (a reference: the dump writes through an existential stream).
    final class Text: TextOutputStream {
        var value = ""
        func write(_ string: String) { value += string }
    }

    /// The dump of an empty file after every migration, with the header above. GRDB's dump
    /// starts with the name of the table it lists (`sqlite_master`): kept as a comment, so the
    /// file is plain SQL. (A new store is created from the file itself, see ``FreshSchema``, so
    /// the migrations are replayed here on a plain database.)
    static func currentSchema() throws -> String {
        let path = try TestPaths.tempStore("schema")
        try Schema.migrator.migrate(DatabaseQueue(path: path))
        return header + "-- " + (try dump(path))
    }

    static func dump(_ path: String) throws -> String {
        let dump = Text()
        try DatabaseQueue(path: path).read { db in try db.dumpSchema(to: dump) }
        return dump.value
    }

    /// A new store is created at the current schema in one step, not by replaying the
    /// migrations (each `CREATE`, `DROP` and `ALTER` bumps SQLite's schema cookie: replaying them
    /// bumps it 65 times, creating the objects of `schema.sql` 42 times), and ends up exactly as
    /// a migrated one: same schema, every migration recorded as applied, no rows.
    @Test func aNewStoreIsCreatedAtTheCurrentSchemaInOneStep() throws {
        let migrated = try TestPaths.tempStore("schema-migrated")
        try Schema.migrator.migrate(DatabaseQueue(path: migrated))
        let created = try TestPaths.tempStore("schema-created")
        _ = try LedgerStore(path: created)

        #expect(try Self.dump(created) == (try Self.dump(migrated)))
        func facts(_ path: String) throws -> (version: Int, applied: [String], rows: Int) {
            try DatabaseQueue(path: path).read { db in
                let tables = try String.fetchAll(
                    db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT IN ('grdb_migrations', 'sqlite_sequence')")
                let rows = try tables.reduce(0) { $0 + (try Int.fetchOne(db, sql: "SELECT count(*) FROM \"\($1)\"") ?? 0) }
                return (
                    try Int.fetchOne(db, sql: "PRAGMA schema_version") ?? 0,
                    try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier"), rows
                )
            }
        }
        let (new, old) = (try facts(created), try facts(migrated))
        #expect(new.applied == old.applied && new.applied.count == Schema.migrator.migrations.count)
        #expect(new.rows == 0 && old.rows == 0)
        #expect(new.version < old.version, "schema changes creating a new store: \(new.version) (migrated: \(old.version))")
    }

    @Test func theCommittedSchemaIsTheMigratedOne() throws {
        let current = try Self.currentSchema()
        if ProcessInfo.processInfo.environment["MONEYFLOW_WRITE_SCHEMA"] == "1" {
            try current.write(to: Self.file, atomically: true, encoding: .utf8)
        }
        let committed = (try? String(contentsOf: Self.file, encoding: .utf8)) ?? ""
        let (old, new) = (committed.components(separatedBy: "\n"), current.components(separatedBy: "\n"))
        let line = (0..<min(old.count, new.count)).first { old[$0] != new[$0] } ?? min(old.count, new.count)
        #expect(
            committed == current,
            """
            Sources/MoneyFlowStore/schema.sql is not the schema the migrations make (first difference at line \(line + 1):
            committed: \(line < old.count ? old[line] : "(end of file)")
            migrated:  \(line < new.count ? new[line] : "(end of file)"))
            Regenerate it: \(Self.regenerate)
            """)
    }
}
