import Foundation
import MoneyFlowStoreTestSupport
import MoneyFlowTestSupport
import Testing

/// `moneyflow accounts merge` through the real binary, on a SQLite file and (when a test
/// PostgreSQL is configured) a PostgreSQL ledger: a CSV and an OFX of one checking account,
/// imported as two accounts, merged into one, undone, merged again, and imported again.
@Suite(.serialized) struct AccountMergeCLITests {
    static let csv = "Samples/us/first_platypus_checking.csv"
    static let ofx = "Samples/ofx/first_platypus_checking.ofx"

    static var stores: [String] { PGCLI.enabled ? ["sqlite", "postgres"] : ["sqlite"] }

    static func amounts(_ json: String) throws -> [String] {
        try PGCLI.jsonArray(json).map { "\($0["date"] ?? "") \($0["amount"] ?? "") \($0["currency"] ?? "")" }.sorted()
    }

    static func names(_ store: String) throws -> [String] {
        try PGCLI.jsonArray(try PGCLI.output(["accounts", "--format", "json"], store: store)).compactMap { $0["name"] as? String }
    }

    @Test(arguments: stores) func mergeUndoAndReimport(_ kind: String) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("merge-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let ledger = TestPostgres.ledgerName("merge")
        defer { if kind == "postgres" { TestPostgres.dropLedgers([ledger]) } }
        let store = kind == "postgres" ? TestPostgres.storeURL(ledger: ledger) : dir.appendingPathComponent("two.sqlite").path

        // The reference: the OFX imported with --account in the first place.
        let reference = dir.appendingPathComponent("one.sqlite").path
        _ = try PGCLI.output(["import", Self.csv], store: reference)
        let checking = try #require(try Self.names(reference).first)
        _ = try PGCLI.output(["import", Self.ofx, "--account", checking], store: reference)
        let expected = try Self.amounts(try PGCLI.output(["transactions", "--all", "--format", "json"], store: reference))

        _ = try PGCLI.output(["import", Self.csv], store: store)
        let second = try PGCLI.run(["import", Self.ofx], store: store)
        #expect(second.status == 0, "\(second.stderr)")
        let other = try #require(try Self.names(store).first { $0 != checking })
        #expect((second.stdout + second.stderr).contains("moneyflow accounts merge \"\(checking)\" \"\(other)\""), "\(second.stdout)")
        let before = try PGCLI.output(["transactions", "--all", "--format", "json"], store: store)

        let dry = try PGCLI.output(["accounts", "merge", checking, other, "--dry-run"], store: store)
        #expect(dry.contains("would merge") && dry.contains("12 linked"), "\(dry)")
        let dryJSON = try PGCLI.output(["accounts", "merge", checking, other, "--dry-run", "--format", "json"], store: store)
        let planned = try #require(try JSONSerialization.jsonObject(with: Data(dryJSON.utf8)) as? [String: Any], "\(dryJSON)")
        #expect(planned["batch"] is NSNull && planned["linked"] as? Int == 12 && planned["kept"] as? Int == 1, "\(dryJSON)")
        #expect(try PGCLI.output(["transactions", "--all", "--format", "json"], store: store) == before)

        let merged = try PGCLI.output(["accounts", "merge", checking, other], store: store)
        let batch = try #require(merged.firstMatch(of: /\(batch (\d+)\)/)?.1, "\(merged)")
        #expect(try Self.names(store) == [checking])
        #expect(try Self.amounts(try PGCLI.output(["transactions", "--all", "--format", "json"], store: store)) == expected)

        let undo = try PGCLI.output(["undo", String(batch)], store: store)
        #expect(undo.contains("the merged account is back"), "\(undo)")
        #expect(
            try PGCLI.output(["transactions", "--all", "--format", "json"], store: store) == before, "undo restores both accounts exactly")

        _ = try PGCLI.output(["accounts", "merge", checking, other], store: store)
        let after = try PGCLI.output(["transactions", "--all", "--format", "json"], store: store)
        for file in [Self.csv, Self.ofx] { _ = try PGCLI.output(["import", file], store: store) }
        #expect(try PGCLI.output(["transactions", "--all", "--format", "json"], store: store) == after, "re-importing adds nothing")
        #expect(try Self.names(store) == [checking])
    }
}
