import Foundation
import GRDB
import MoneyFlowStore
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

    /// The dump of a freshly created and migrated store, with the header above. GRDB's dump
    /// starts with the name of the table it lists (`sqlite_master`): kept as a comment, so the
    /// file is plain SQL.
    static func currentSchema() throws -> String {
        let path = try TestPaths.tempStore("schema")
        _ = try LedgerStore(path: path)
        let dump = Text()
        try DatabaseQueue(path: path).read { db in try db.dumpSchema(to: dump) }
        return header + "-- " + dump.value
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
