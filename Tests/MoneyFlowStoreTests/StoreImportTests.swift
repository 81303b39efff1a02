import Foundation
import MoneyFlowCore
import MoneyFlowImporters
import MoneyFlowPipeline
import MoneyFlowPostgres
import MoneyFlowStoreTestSupport
import MoneyFlowTestSupport
import Testing

@testable import MoneyFlowStore

let repoRoot = TestPaths.repoRoot

func sample(_ path: String) -> String { TestPaths.sample(path) }

/// A new store of `kind` (a SQLite file in a fresh temporary folder, or a new PostgreSQL
/// ledger) and its location: the file's path or the ledger's postgres:// URL.
func freshStore(_ kind: StoreKind) throws -> (LedgerStore, String) {
    let location = try testStoreLocation(kind, name: "test")
    return (try StoreOpener.open(location), location)
}

/// The digest of the store at `location` as a new open sees it: what was committed (for a
/// PostgreSQL ledger, what the server holds, not one instance's working copy).
func committedDigest(_ location: String) throws -> String {
    try reopenTestStore(location, access: .readOnly).contentDigest()
}

func transactionsJSON(_ store: LedgerStore) throws -> String {
    Contracts.transactions(try store.transactions()).render()
}

@Suite struct StoreImportTests {
    @Test(arguments: StoreKind.testable) func reimportingEachSampleAddsNothing(_ kind: StoreKind) throws {
        let (store, _) = try freshStore(kind)
        let service = ImportService(store: store)
        let files = [
            "csv/chase_checking.csv", "csv/chase_card.csv", "csv/bofa_checking.csv", "csv/bofa_card.csv",
            "csv/wells_fargo_checking.csv", "csv/capital_one_card.csv", "csv/capital_one_360.csv", "csv/amex.csv",
            "csv/amex_extended.csv",
        ]
        var firstCounts: [Int] = []
        for f in files {
            let r = try service.importFile(path: sample(f), options: FileImportOptions())
            #expect(r.plan.counts.alreadyPresent == 0)
            firstCounts.append(r.plan.counts.new)
        }
        let once = try transactionsJSON(store)
        let total = try store.transactions().count
        #expect(total == firstCounts.reduce(0, +))
        for f in files {
            let r = try service.importFile(path: sample(f), options: FileImportOptions())
            #expect(r.plan.counts.new == 0, "\(f) re-import adds nothing")
            #expect(r.plan.counts.alreadyPresent == r.plan.statement.records.count)
        }
        #expect(try transactionsJSON(store) == once)
    }

    @Test(arguments: StoreKind.testable) func identicalSameDayRowsStayTwo(_ kind: StoreKind) throws {
        let (store, _) = try freshStore(kind)
        _ = try ImportService(store: store).importFile(path: sample("csv/chase_checking.csv"), options: FileImportOptions())
        let txs = try store.transactions()
        var groups: [String: Int] = [:]
        for t in txs { groups["\(t.date)|\(t.amount.decimalString)|\(t.description)", default: 0] += 1 }
        #expect(groups.values.contains { $0 >= 2 })
        let expected = try JSONDecoder().decode(
            [ExpectedRowLite].self, from: Data(contentsOf: URL(fileURLWithPath: sample("csv/chase_checking.expected.json"))))
        #expect(txs.count == expected.count)
    }

    @Test(arguments: StoreKind.testable) func undoRestoresThePreviousStateExactly(_ kind: StoreKind) throws {
        let (store, _) = try freshStore(kind)
        let service = ImportService(store: store)
        _ = try service.importFile(path: sample("csv/chase_card.csv"), options: FileImportOptions())
        let before = try transactionsJSON(store)
        let accountsBefore = try store.accounts()
        let r = try service.importFile(path: sample("csv/bofa_checking.csv"), options: FileImportOptions())
        #expect(r.plan.counts.new == 36)
        #expect(try store.transactions().count == 77, "chase_card.csv's 41 and bofa_checking.csv's 36")
        _ = try store.undo(batchID: r.batchID!)
        #expect(try transactionsJSON(store) == before)
        #expect(try store.accounts() == accountsBefore)
        #expect(throws: StoreError.self) { try store.undo(batchID: r.batchID!) }
        // The undone file can be imported again.
        let again = try service.importFile(path: sample("csv/bofa_checking.csv"), options: FileImportOptions())
        #expect(again.plan.counts.new == r.plan.counts.new)
    }

    @Test(arguments: StoreKind.testable, ["bad_date.csv", "unterminated_quote.csv", "wrong_encoding.csv", "ragged.csv"])
    func malformedCSVLeavesTheStoreByteForByteUnchanged(_ kind: StoreKind, file: String) throws {
        let (store, location) = try freshStore(kind)
        _ = try ImportService(store: store).importFile(path: sample("csv/chase_checking.csv"), options: FileImportOptions())
        let digest = try store.contentDigest()
        let bytes = store.filePath.map { try? Data(contentsOf: URL(fileURLWithPath: $0)) }
        #expect(throws: ImportError.self) {
            try ImportService(store: store).importFile(path: sample("csv/broken/" + file), options: FileImportOptions())
        }
        #expect(try store.contentDigest() == digest)
        #expect(try committedDigest(location) == digest)
        if let path = store.filePath { #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes) }
    }

    @Test(arguments: StoreKind.testable) func dryRunWritesNothingAndPlansWhatARealRunDoes(_ kind: StoreKind) throws {
        let (store, location) = try freshStore(kind)
        let service = ImportService(store: store)
        let digest = try store.contentDigest()
        let dry = try service.importFile(path: sample("csv/amex.csv"), options: FileImportOptions(dryRun: true))
        #expect(dry.batchID == nil)
        #expect(try store.contentDigest() == digest)
        #expect(try committedDigest(location) == digest)
        let real = try service.importFile(path: sample("csv/amex.csv"), options: FileImportOptions())
        #expect(real.plan.entries == dry.plan.entries)
    }

    /// SQLite only: a PostgreSQL ledger has no file (its server's roles guard it).
    @Test func storeFileIsPrivate() throws {
        let (_, path) = try freshStore(.sqlite)
        let attrs = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attrs[.posixPermissions] as? Int) == 0o600)
    }

    @Test(arguments: StoreKind.testable) func accountOverrideAndDefaultNames(_ kind: StoreKind) throws {
        let (store, _) = try freshStore(kind)
        let service = ImportService(store: store)
        _ = try service.importFile(path: sample("csv/chase_checking.csv"), options: FileImportOptions(accountName: "Household"))
        _ = try service.importFile(path: sample("csv/capital_one_360.csv"), options: FileImportOptions())
        let names = try store.accounts().map(\.name)
        #expect(names.contains("Household"))
        #expect(names.contains { $0.hasPrefix("Capital One ") })
    }
}

struct ExpectedRowLite: Decodable { var line: Int }
