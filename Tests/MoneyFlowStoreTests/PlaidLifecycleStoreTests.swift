import Foundation
import MoneyFlowCore
import MoneyFlowImporters
import MoneyFlowPipeline
import MoneyFlowStoreTestSupport
import MoneyFlowTestSupport
import Testing

@testable import MoneyFlowStore

let plaidDir = repoRoot.appendingPathComponent("Samples/plaid")

func plaidPages(_ scenario: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: plaidDir.appendingPathComponent(scenario).path)
        .filter { $0.hasPrefix("page") && $0.hasSuffix(".json") }
        .sorted { Int($0.dropFirst(4).dropLast(5))! < Int($1.dropFirst(4).dropLast(5))! }
        .map { plaidDir.appendingPathComponent(scenario).appendingPathComponent($0).path }
}

/// The store's final ledger in the expected.json shape.
func plaidLedger(_ store: LedgerStore) throws -> [String] {
    let keys = Dictionary(
        uniqueKeysWithValues: try store.accounts().map { a in (a.name, a.keys.first { $0.hasPrefix("plaid:") } ?? a.keys.first ?? a.name) })
    return try store.transactions().map { t in
        PlaidExpectedEntry(
            account_key: keys[t.account]!, date: t.date.iso, amount: t.amount.decimalString, currency: t.amount.currency,
            description: t.description, counterparty: t.counterparty, pending: t.pending,
            external_ids: t.sources.compactMap(\.externalID).sorted())
    }
    .sorted { ($0.account_key, $0.date, $0.external_ids.first ?? "") < ($1.account_key, $1.date, $1.external_ids.first ?? "") }
    .map(\.text)
}

func expectedLedger(_ scenario: String) throws -> [String] {
    try JSONDecoder().decode(
        [PlaidExpectedEntry].self, from: Data(contentsOf: plaidDir.appendingPathComponent(scenario).appendingPathComponent("expected.json"))
    )
    .map {
        var e = $0; e.external_ids.sort(); return e.text
    }
}

@Suite struct PlaidLifecycleStoreTests {
    static let scenarios = [
        "plain_added", "pending_to_posted_split_pages", "pending_removed_before_posted", "posted_without_pending_id",
        "hold_never_posts", "modified_posted", "removed_posted", "identical_coffees", "refund",
        "legacy_schema_2022", "full_period", "saved_with_request",
    ]

    @Test(arguments: StoreKind.testable, scenarios)
    func pagesInOrderGiveTheExpectedLedger(_ kind: StoreKind, scenario: String) throws {
        let (store, _) = try freshStore(kind)
        let service = ImportService(store: store)
        for page in try plaidPages(scenario) { _ = try service.importFile(path: page, options: FileImportOptions()) }
        #expect(try plaidLedger(store) == expectedLedger(scenario))
        // Importing every page again changes nothing.
        let before = try transactionsJSON(store)
        for page in try plaidPages(scenario) {
            let r = try service.importFile(path: page, options: FileImportOptions())
            #expect(r.plan.counts.new == 0 && r.plan.counts.linked == 0, "\(page) re-import")
        }
        #expect(try transactionsJSON(store) == before)
    }

    @Test(arguments: StoreKind.testable) func pagesGivenTogetherAsOneFile(_ kind: StoreKind) throws {
        let (store, _) = try freshStore(kind)
        _ = try ImportService(store: store).importFile(
            path: plaidDir.appendingPathComponent("saved_with_request/all_pages.json").path, options: FileImportOptions())
        #expect(try plaidLedger(store) == expectedLedger("saved_with_request"))
        #expect(try store.syncCursor(scope: "plaid:item:" + "x") == nil)
    }

    @Test(arguments: StoreKind.testable) func skippedCursorIsRejectedAndNothingWritten(_ kind: StoreKind) throws {
        let (store, location) = try freshStore(kind)
        let service = ImportService(store: store)
        let digest = try store.contentDigest()
        #expect(throws: ImportError.self) {
            try service.importFile(
                path: plaidDir.appendingPathComponent("saved_with_request/skipped_cursor.json").path, options: FileImportOptions())
        }
        #expect(try store.contentDigest() == digest)
        #expect(try committedDigest(location) == digest)
    }

    @Test(arguments: StoreKind.testable) func transactionsGetAfterSyncAddsNoDuplicate(_ kind: StoreKind) throws {
        let (store, _) = try freshStore(kind)
        let service = ImportService(store: store)
        for page in try plaidPages("full_period") { _ = try service.importFile(path: page, options: FileImportOptions()) }
        let before = try plaidLedger(store)
        let r = try service.importFile(
            path: plaidDir.appendingPathComponent("full_period/transactions_get.json").path, options: FileImportOptions())
        #expect(r.plan.counts.new == 0)
        #expect(try plaidLedger(store) == before)
    }

    @Test(arguments: StoreKind.testable) func removedAndSupersededRecordsOnlyWithAll(_ kind: StoreKind) throws {
        let (store, _) = try freshStore(kind)
        let service = ImportService(store: store)
        for page in try plaidPages("pending_to_posted_split_pages") { _ = try service.importFile(path: page, options: FileImportOptions()) }
        let all = try store.transactions(includeAll: true)
        let states = all.flatMap { $0.sources.map(\.state) }
        #expect(states.contains("superseded"))
        #expect(try store.transactions().allSatisfy { $0.sources.allSatisfy { $0.state == "active" } })
        for page in try plaidPages("hold_never_posts") { _ = try service.importFile(path: page, options: FileImportOptions()) }
        #expect(try store.transactions(includeAll: true).contains { $0.status == "void" })
    }

    @Test(arguments: StoreKind.testable) func plaidErrorBodiesFailAndWriteNothing(_ kind: StoreKind) throws {
        let (store, location) = try freshStore(kind)
        let digest = try store.contentDigest()
        for f in ["item_login_required.json", "institution_down.json"] {
            #expect {
                try ImportService(store: store).importFile(
                    path: plaidDir.appendingPathComponent("errors/" + f).path, options: FileImportOptions())
            } throws: { e in
                (e as? ImportError)?.kind == .providerError
            }
        }
        #expect(try store.contentDigest() == digest)
        #expect(try committedDigest(location) == digest)
    }

    /// Each of Plaid's own examples imports, with the accounts it names (an item's sync page
    /// without an `accounts` list names its one account after the id's end).
    @Test(
        arguments: StoreKind.testable,
        [
            ("plaid_transactions_sync_response.example.json", ["Plaid Checking 0000"]),
            ("plaid_transactions_get_response.example.json", ["Plaid Checking 0000"]),
            ("plaid_transactions_get_response.legacy_v1.44.0_2021.example.json", ["Plaid Checking 0000"]),
            ("plaid_transactions_sync_response.legacy_v1.197.3_2022.example.json", ["Plaid account 99vp"]),
            ("plaid_accounts_get_response.example.json", ["Plaid 401k 6666", "Plaid Checking 0000", "Plaid Student Loan 7777"]),
        ])
    func specExamplesImportIntoTheStore(_ kind: StoreKind, example: (file: String, accounts: [String])) throws {
        let (store, _) = try freshStore(kind)
        _ = try ImportService(store: store).importFile(
            path: repoRoot.appendingPathComponent("Tests/Fixtures/plaid-spec/" + example.file).path, options: FileImportOptions())
        #expect(try store.accounts().map(\.name) == example.accounts)
    }

    @Test(arguments: StoreKind.testable) func creditBalancesAreOwedAmounts(_ kind: StoreKind) throws {
        let (store, _) = try freshStore(kind)
        _ = try ImportService(store: store).importFile(
            path: plaidDir.appendingPathComponent("full_period/accounts_balance_get.json").path, options: FileImportOptions())
        let card = try store.accounts().first { $0.type == "credit" }
        #expect(card?.currentBalance.map { $0.minorUnits < 0 } == true)
    }
}
