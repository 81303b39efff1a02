import Foundation
import MoneyFlowCore
import MoneyFlowPipeline
import MoneyFlowStoreTestSupport
import MoneyFlowTestSupport
import Testing

@testable import MoneyFlowStore

/// A dry run is the real write rolled back (``LedgerStore/rehearseImport(importedAt:makePlan:)``):
/// on the transfer samples, file after file, the transfers and merged fields a dry run shows
/// are exactly those the real import of the same file then writes, and the dry run itself
/// leaves the ledger (a SQLite file; a PostgreSQL ledger and the working copy the real import
/// then uses) as it was.
@Suite("import --dry-run rehearses the real write: transfers and merged fields, on both stores")
struct ImportRehearsalTests {
    static func files(_ scenario: String) throws -> [String] {
        let dir = sample("transfers/" + scenario)
        let data = try Data(contentsOf: URL(fileURLWithPath: dir + "/expected_transfers.json"))
        let o = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return ((o["imports"] as? [[String: Any]]) ?? []).compactMap { $0["file"] as? String }.map { dir + "/" + $0 }
    }

    /// A transaction as both runs can name it: its fields, and its id unless only the dry run
    /// made it (then the file and line of its records).
    static func name(_ t: LedgerTransaction, new: Bool) -> String {
        let origin =
            new
            ? "new@"
                + t.sources.filter { $0.state == "active" }.map { "\(($0.file as NSString).lastPathComponent):\($0.line ?? 0)" }.joined(
                    separator: ",")
            : "#\(t.id)"
        return
            "\(origin) \(t.account) \(t.date.iso) \(t.amount) \(t.description) | \(t.counterparty ?? "-") | \(t.category ?? "-") | \(t.pending)"
    }

    static func describe(_ t: LedgerTransfer, new: Set<Int64>) -> String {
        "\(name(t.out, new: new.contains(t.out.id))) -> \(name(t.into, new: new.contains(t.into.id))) \(t.decidedBy) "
            + String(format: "%.6f", t.score) + " \(t.reasons.map(\.description))"
    }

    /// The steps of a scenario: each file, and whether it goes into the first file's account.
    static func steps(_ scenario: String) throws -> [(String, Bool)] {
        // A bank's CSV then its OFX of the same account: 12 rows link, so their transactions
        // show merged fields.
        if scenario == "csv+ofx" {
            return [(sample("us/first_platypus_checking.csv"), false), (sample("ofx/first_platypus_checking.ofx"), true)]
        }
        return try files(scenario).map { ($0, false) }
    }

    @Test(arguments: StoreKind.testable, ["us_quarter", "cmb_quarter", "csv+ofx"])
    func dryRunShowsWhatTheImportWrites(_ kind: StoreKind, _ scenario: String) throws {
        let (store, location) = try freshStore(kind)
        let service = ImportService(store: store)
        var sawTransfers = false, sawMerged = false
        for (path, intoFirstAccount) in try Self.steps(scenario) {
            var options = FileImportOptions()
            if intoFirstAccount { options.accountName = try #require(try store.accounts().first?.name) }
            let before = try store.transactions(includeAll: true)
            let lastID = before.map(\.id).max() ?? 0
            let committed = try committedDigest(location)
            var dryOptions = options
            dryOptions.dryRun = true
            let dry = try service.importFile(path: path, options: dryOptions)
            let rehearsal = try #require(dry.rehearsal)
            #expect(try committedDigest(location) == committed, "the dry run of \(path) wrote nothing")
            #expect(try store.transactions(includeAll: true) == before)

            _ = try service.importFile(path: path, options: options)
            let base = (path as NSString).lastPathComponent
            // What the real import wrote, for the transactions it touched (those holding a record of this file).
            let after = try store.transactions(includeAll: true)
            let fromFile = Set(after.filter { $0.sources.contains { $0.file == base && $0.state == "active" } }.map(\.id))
            let created = Set(after.map(\.id).filter { $0 > lastID })
            let all = try store.transfers()
            let written = (all.linked + all.review).filter { fromFile.contains($0.out.id) || fromFile.contains($0.into.id) }
            #expect(
                rehearsal.transfers.map { Self.describe($0, new: rehearsal.newTransactionIDs) }.sorted()
                    == written.map { Self.describe($0, new: created) }.sorted(), "transfers of \(base)")
            let merged = after.filter { t in
                fromFile.contains(t.id) && t.status == "active" && t.sources.filter { $0.state == "active" }.count > 1
            }
            #expect(
                rehearsal.merged.map { Self.name($0, new: rehearsal.newTransactionIDs.contains($0.id)) }.sorted()
                    == merged.map { Self.name($0, new: created.contains($0.id)) }.sorted(), "merged fields of \(base)")
            // Ids the dry run names as existing exist; ids it made are never shown as such.
            for t in rehearsal.transfers.flatMap({ [$0.out, $0.into] }) + rehearsal.merged where !rehearsal.newTransactionIDs.contains(t.id)
            {
                #expect(before.contains { $0.id == t.id })
            }
            sawTransfers = sawTransfers || !written.isEmpty
            sawMerged = sawMerged || !merged.isEmpty
        }
        if scenario == "csv+ofx" {
            #expect(sawMerged, "the OFX rows merge with the CSV's")
        } else {
            #expect(sawTransfers, "the scenario pairs transfers")
        }
    }

    /// A dry run on a ledger that has no rows yet (a new store) leaves no row behind, and its
    /// transfers name only new transactions.
    @Test(arguments: StoreKind.testable)
    func dryRunOnANewStoreLeavesItEmpty(_ kind: StoreKind) throws {
        let (store, location) = try freshStore(kind)
        let empty = try committedDigest(location)
        let service = ImportService(store: store)
        let files = try Self.files("us_quarter")
        // The checking account and the savings OFX in one dry run each: nothing is kept between them.
        for path in files.prefix(2) {
            let dry = try service.importFile(path: path, options: FileImportOptions(dryRun: true))
            #expect(dry.rehearsal?.transfers.isEmpty == true, "nothing to pair in an empty ledger")
        }
        #expect(try committedDigest(location) == empty)
        #expect(try store.transactions(includeAll: true).isEmpty)
        #expect(try store.accounts().isEmpty)
    }
}
