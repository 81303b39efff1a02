import Foundation
import GRDB
import MoneyFlowCore
import MoneyFlowPipeline
import MoneyFlowStoreTestSupport
import MoneyFlowTestSupport
import Testing

@testable import MoneyFlowStore

/// An OFX record's `external_id` is the bank's FITID (the JSON contract: the provider's own
/// id); the account scope banks need (they reuse FITIDs across accounts) stays in the store's
/// identity of the record, never in the id users see.
@Suite struct OFXExternalIDTests {
    static let twoStatements = sample("ofx/two_statements.ofx")

    /// The FITIDs of the file, as the bank wrote them (`<FITID>...` elements).
    static func fitids(_ path: String) throws -> Set<String> {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return Set(text.components(separatedBy: "<FITID>").dropFirst().map { String($0.prefix { !"<\r\n".contains($0) }) })
    }

    static func externalIDs(_ store: LedgerStore) throws -> [String] {
        try store.transactions(includeAll: true).flatMap(\.sources).compactMap(\.externalID).sorted()
    }

    @Test(arguments: StoreKind.testable) func externalIDIsTheFITIDAndScopedPerAccount(_ kind: StoreKind) throws {
        let fitids = try Self.fitids(Self.twoStatements)
        #expect(fitids.contains("20250301001"))
        // Two accounts: the FITID both use is two records, each shown as the bank's id.
        let (store, _) = try freshStore(kind)
        let first = try ImportService(store: store).importFile(path: Self.twoStatements, options: FileImportOptions())
        let ids = try Self.externalIDs(store)
        #expect(ids.count == first.plan.counts.new)
        #expect(Set(ids) == fitids, "\(ids)")
        #expect(ids.filter { $0 == "20250301001" }.count == 2, "\(ids) \(first.plan.counts) \((try? store.accounts().map(\.name)) ?? [])")
        let json = Contracts.transactions(try store.transactions(includeAll: true)).render()
        #expect(json.contains("20250301001") && !json.contains(":20250301001"), "\(json.prefix(400))")
        // Both statements into one account (`--account`): the reused FITID is still two records
        // (uniqueness is per account AND per the file's own account), and again adds nothing.
        let (joint, _) = try freshStore(kind)
        var options = FileImportOptions()
        options.accountName = "Joint"
        let merged = try ImportService(store: joint).importFile(path: Self.twoStatements, options: options)
        #expect(merged.plan.counts.new == first.plan.counts.new)
        #expect(try Self.externalIDs(joint) == ids)
        let again = try ImportService(store: joint).importFile(path: Self.twoStatements, options: options)
        #expect(again.plan.counts.new == 0 && again.plan.counts.alreadyPresent == first.plan.counts.new)
    }

    /// A store written before this change holds `<account tag>:FITID`; the upgrade shows the
    /// FITID, and importing the same download again still adds nothing.
    @Test func upgradedStoreShowsTheFITIDAndReimportAddsNothing() throws {
        let dir = try TestPaths.tempDir("ofx-upgrade")
        let path = dir + "/old.sqlite"
        let (first, digestIDs) = try {
            let store = try LedgerStore(path: path)
            let first = try ImportService(store: store).importFile(path: Self.twoStatements, options: FileImportOptions())
            return (first, try Self.externalIDs(store))
        }()
        // As the older MoneyFlow stored them: the fingerprint's tagged id, before the migration.
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: "UPDATE record SET external_id = substr(fingerprint, 4) WHERE source_kind = 'ofx'")
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v10-ofx-fitid'")
        }
        let oldIDs = try Self.externalIDs(try LedgerStore(path: path, access: .readOnly))
        #expect(oldIDs.count == digestIDs.count && oldIDs.allSatisfy { $0.count > 9 && Array($0)[8] == ":" }, "\(oldIDs)")
        let upgraded = try LedgerStore(path: path)
        #expect(try Self.externalIDs(upgraded) == digestIDs)
        let again = try ImportService(store: upgraded).importFile(path: Self.twoStatements, options: FileImportOptions())
        #expect(again.plan.counts.new == 0 && again.plan.counts.alreadyPresent == first.plan.counts.new, "\(again.plan.counts)")
        #expect(try upgraded.integrityCheck() == "ok")
    }
}
