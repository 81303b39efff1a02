import Foundation
import MoneyFlowCore
import MoneyFlowPipeline
import MoneyFlowStoreTestSupport
import MoneyFlowTestSupport
import Testing

@testable import MoneyFlowStore

/// A CSV and an OFX download of one checking account, imported without `--account`, would be
/// two accounts with every transaction twice: the import that creates the second says so.
@Suite struct AccountOverlapTests {
    static let csv = sample("us/first_platypus_checking.csv")
    static let ofx = sample("ofx/first_platypus_checking.ofx")

    static func overlapWarnings(_ r: FileImportResult) -> [String] {
        r.plan.statement.warnings.map(\.message).filter { $0.contains("match transactions of the existing account") }
    }

    @Test(arguments: StoreKind.testable) func aSecondFormatOfOneAccountIsSaid(_ kind: StoreKind) throws {
        let (store, _) = try freshStore(kind)
        let service = ImportService(store: store)
        let first = try service.importFile(path: Self.csv, options: FileImportOptions())
        #expect(Self.overlapWarnings(first).isEmpty)
        let csvAccount = try #require(try store.accounts().first?.name)

        let second = try service.importFile(path: Self.ofx, options: FileImportOptions())
        let said = Self.overlapWarnings(second)
        #expect(said.count == 1, "\(second.plan.statement.warnings)")
        #expect(said.first?.hasPrefix("12 of the 13 rows for the new account") == true, "\(said)")
        #expect(said.first?.contains("--account \"\(csvAccount)\"") == true, "\(said)")
        let ofxAccount = try #require(try store.accounts().first { $0.name != csvAccount }?.name)
        #expect(said.first?.contains("moneyflow accounts merge \"\(csvAccount)\" \"\(ofxAccount)\"") == true, "\(said)")
        #expect(second.plan.counts.warnings == second.plan.statement.warnings.count)
        #expect(try store.batches().first { $0.id == second.batchID }?.counts.warnings == second.plan.statement.warnings.count)

        // The fix it names: undo, then import into the existing account: linked, nothing said.
        _ = try store.undo(batchID: try #require(second.batchID))
        var options = FileImportOptions()
        options.accountName = csvAccount
        let fixed = try service.importFile(path: Self.ofx, options: options)
        #expect(Self.overlapWarnings(fixed).isEmpty)
        #expect(fixed.plan.counts.linked == 12 && fixed.plan.counts.new == 1, "\(fixed.plan.counts)")
        #expect(try store.accounts().count == 1)

        // Another account's download overlaps nothing: no warning.
        let card = try service.importFile(path: sample("ofx/card_xml_211.ofx"), options: FileImportOptions())
        #expect(Self.overlapWarnings(card).isEmpty, "\(card.plan.statement.warnings)")
    }
}
