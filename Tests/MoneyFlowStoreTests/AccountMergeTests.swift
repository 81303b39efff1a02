import Foundation
import MoneyFlowCore
import MoneyFlowPipeline
import MoneyFlowStoreTestSupport
import MoneyFlowTestSupport
import Testing

@testable import MoneyFlowStore

/// `accounts merge A B`: a CSV and an OFX download of one checking account, imported as two
/// accounts, become the ledger that importing the OFX with `--account A` would have made, and
/// `undo` of the merge gives the two accounts back exactly.
@Suite struct AccountMergeTests {
    static let csv = AccountOverlapTests.csv
    static let ofx = AccountOverlapTests.ofx

    /// `transactions --all --format json` of the committed store.
    static func allJSON(_ location: String) throws -> String {
        Contracts.transactions(try reopenTestStore(location).transactions(includeAll: true)).render()
    }

    /// A transaction as the ledger shows it, without the ids a store hands out.
    static func shape(_ t: LedgerTransaction) -> String {
        let sources = t.sources.map { "\($0.kind.rawValue)|\($0.file)|\($0.line ?? -1)|\($0.externalID ?? "")|\($0.state)" }.sorted()
        return [
            t.account, t.date.iso, t.amount.decimalString, t.amount.currency, t.description, t.counterparty ?? "", t.note ?? "",
            t.balance?.decimalString ?? "", t.status, String(t.needsReview), sources.joined(separator: ";"),
        ].joined(separator: " ~ ")
    }

    /// A store holding the CSV as one account and the OFX as a second one, with their names.
    static func twoAccounts(_ kind: StoreKind) throws -> (LedgerStore, String, ImportService, csvAccount: String, ofxAccount: String) {
        let (store, location) = try freshStore(kind)
        let service = ImportService(store: store)
        _ = try service.importFile(path: csv, options: FileImportOptions())
        let csvAccount = try #require(try store.accounts().first?.name)
        _ = try service.importFile(path: ofx, options: FileImportOptions())
        let ofxAccount = try #require(try store.accounts().first { $0.name != csvAccount }?.name)
        return (store, location, service, csvAccount, ofxAccount)
    }

    @Test(arguments: StoreKind.testable) func mergingEqualsImportingIntoOneAccount(_ kind: StoreKind) throws {
        // What `--account` in the first place gives.
        let (reference, _) = try freshStore(kind)
        let refService = ImportService(store: reference)
        _ = try refService.importFile(path: Self.csv, options: FileImportOptions())
        var into = FileImportOptions()
        into.accountName = try #require(try reference.accounts().first?.name)
        _ = try refService.importFile(path: Self.ofx, options: into)
        let expected = try reference.transactions(includeAll: true).map(Self.shape)

        let (store, location, service, csvAccount, ofxAccount) = try Self.twoAccounts(kind)
        let twoAccountTransactions = try store.transactions(includeAll: true).count
        #expect(twoAccountTransactions == expected.count + 12, "the overlap twice before the merge")
        let before = try Self.allJSON(location)

        let dry = try service.mergeAccount(ofxAccount, into: csvAccount, dryRun: true)
        #expect(dry.batchID == nil)
        #expect(dry.records == 13 && dry.linked == 12 && dry.kept == 1 && dry.alreadyPresent == 0, "\(dry)")
        #expect(try Self.allJSON(location) == before, "a dry run writes nothing")

        let merged = try service.mergeAccount(ofxAccount, into: csvAccount, dryRun: false)
        #expect(merged.linked == 12 && merged.kept == 1 && merged.transactionsJoined == 12 && merged.transactionsMoved == 1, "\(merged)")
        let after = try reopenTestStore(location)
        #expect(try after.accounts().map(\.name) == [csvAccount])
        let ledger = try after.transactions(includeAll: true)
        #expect(ledger.count == expected.count)
        #expect(ledger.map(Self.shape).sorted() == expected.sorted())
        #expect(Set(ledger.map(\.id)).count == ledger.count)

        // Re-importing either file adds nothing: the OFX's identity now points at the merged account.
        for file in [Self.csv, Self.ofx] {
            let again = try service.importFile(path: file, options: FileImportOptions())
            #expect(
                again.plan.counts.new == 0 && again.plan.counts.linked == 0 && again.plan.counts.needsReview == 0, "\(again.plan.counts)")
        }
        #expect(try reopenTestStore(location).transactions(includeAll: true).map(Self.shape).sorted() == expected.sorted())
        #expect(try reopenTestStore(location).accounts().count == 1)
    }

    @Test(arguments: StoreKind.testable) func undoingAMergeGivesBothAccountsBack(_ kind: StoreKind) throws {
        let (store, location, service, csvAccount, ofxAccount) = try Self.twoAccounts(kind)
        // A user edit on a transaction the merge joins into the CSV account's: it goes with its
        // record and comes back with it.
        let csvAmounts = Set(try store.transactions(account: csvAccount).map(\.amount))
        let edited = try #require(try store.transactions(account: ofxAccount).first { csvAmounts.contains($0.amount) })
        try store.editTransaction(edited.id, note: "checked with the bank")
        let before = try Self.allJSON(location)
        let accountsBefore = try store.accounts()

        let merged = try service.mergeAccount(ofxAccount, into: csvAccount, dryRun: false)
        let batch = try #require(merged.batchID)
        let notes = try reopenTestStore(location).transactions().filter { $0.note == "checked with the bank" }
        #expect(notes.count == 1 && notes.first?.account == csvAccount, "the edit survives the merge")
        #expect(notes.first?.sources.count == 2, "on the transaction its record joined")

        let undo = try store.undo(batchID: batch)
        #expect(undo.accountsRestored == 1)
        #expect(try Self.allJSON(location) == before, "undo restores the two-account ledger exactly")
        #expect(try reopenTestStore(location).accounts() == accountsBefore)

        // Merging again after the undo works, with new ids only.
        let again = try service.mergeAccount(ofxAccount, into: csvAccount, dryRun: false)
        #expect(try #require(again.batchID) > batch)
        #expect(again.linked == 12 && again.kept == 1)
    }

    @Test(arguments: StoreKind.testable) func aMergeLaterImportsBuildOnIsNotUndone(_ kind: StoreKind) throws {
        let (store, _, service, csvAccount, ofxAccount) = try Self.twoAccounts(kind)
        let merged = try #require(try service.mergeAccount(ofxAccount, into: csvAccount, dryRun: false).batchID)
        // A later file in the merged account: undoing the merge first would strand it.
        let later = try #require(
            try service.importFile(
                path: sample("ofx/card_xml_211.ofx"),
                options: {
                    var o = FileImportOptions()
                    o.accountName = csvAccount
                    return o
                }()
            ).batchID)
        #expect(throws: StoreError.self) { try store.undo(batchID: merged) }
        _ = try store.undo(batchID: later)
        #expect(try store.undo(batchID: merged).accountsRestored == 1)
        #expect(try store.accounts().count == 2)

        // Undoing the OFX's own import after a merge takes its rows out of the merged account;
        // the merge can then no longer give them back, and says so.
        let again = try #require(try service.mergeAccount(ofxAccount, into: csvAccount, dryRun: false).batchID)
        let ofxBatch = try #require(try store.batches().first { $0.fileName.hasSuffix(".ofx") && $0.undoneAt == nil }?.id)
        _ = try store.undo(batchID: ofxBatch)
        let csvOnly = try store.transactions(includeAll: true)
        #expect(csvOnly.allSatisfy { $0.account == csvAccount && $0.sources.allSatisfy { $0.kind == .csv } })
        #expect(throws: StoreError.self) { try store.undo(batchID: again) }
        #expect(try store.transactions(includeAll: true) == csvOnly, "a refused undo changes nothing")
    }

    @Test(arguments: StoreKind.testable) func theSameFileInBothAccountsStaysOnce(_ kind: StoreKind) throws {
        let (store, location) = try freshStore(kind)
        let service = ImportService(store: store)
        var options = FileImportOptions()
        options.accountName = "Checking"
        _ = try service.importFile(path: Self.csv, options: options)
        let once = try store.transactions(includeAll: true).map(Self.shape).sorted()
        options.accountName = "Checking copy"
        options.newAccount = true
        _ = try service.importFile(path: Self.csv, options: options)
        let before = try Self.allJSON(location)

        let merged = try service.mergeAccount("Checking copy", into: "Checking", dryRun: false)
        #expect(merged.alreadyPresent == once.count && merged.linked == 0 && merged.kept == 0, "\(merged)")
        #expect(merged.transactionsJoined == once.count && merged.transactionsMoved == 0)
        #expect(try reopenTestStore(location).transactions(includeAll: true).map(Self.shape).sorted() == once)
        _ = try store.undo(batchID: try #require(merged.batchID))
        #expect(try Self.allJSON(location) == before)
    }

    @Test(arguments: StoreKind.testable) func aRecordTheUserUnlinkedStaysAlone(_ kind: StoreKind) throws {
        let (store, location, service, csvAccount, ofxAccount) = try Self.twoAccounts(kind)
        let csvAmounts = Set(try store.transactions(account: csvAccount).map(\.amount))
        let alone = try #require(try store.transactions(account: ofxAccount).first { csvAmounts.contains($0.amount) })
        let record = try #require(alone.sources.first?.id)
        #expect(try store.unlink(recordID: record).alreadyAlone)
        let before = try Self.allJSON(location)

        let merged = try service.mergeAccount(ofxAccount, into: csvAccount, dryRun: false)
        #expect(merged.linked == 11 && merged.kept == 2, "\(merged)")
        let after = try reopenTestStore(location).transactions()
        #expect(after.first { $0.sources.contains { $0.id == record } }?.sources.count == 1, "the user's unlink holds")
        // And keeps holding: the OFX again changes nothing.
        let again = try service.importFile(path: Self.ofx, options: FileImportOptions())
        #expect(again.plan.counts.new == 0 && again.plan.counts.linked == 0, "\(again.plan.counts)")
        #expect(try reopenTestStore(location).transactions().first { $0.sources.contains { $0.id == record } }?.sources.count == 1)
        if let batch = again.batchID, batch > merged.batchID! { _ = try store.undo(batchID: batch) }
        _ = try store.undo(batchID: try #require(merged.batchID))
        #expect(try Self.allJSON(location) == before)
    }
}
