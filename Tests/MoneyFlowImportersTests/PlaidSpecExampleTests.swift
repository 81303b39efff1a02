import Foundation
import MoneyFlowCore
import Testing

@testable import MoneyFlowImporters

/// Plaid's own examples (copied into Tests/Fixtures/plaid-spec so the tests never depend on `shared/`).
@Suite("Plaid spec examples")
struct PlaidSpecExampleTests {
    typealias F = PlaidFixtures

    @Test(arguments: PlaidFixtures.specExampleFiles)
    func everySpecExampleImports(_ name: String) throws {
        let url = F.spec.appendingPathComponent(name)
        let importer = PlaidImporter()
        let input = ImportInput(fileName: name, data: try Data(contentsOf: url))
        #expect(importer.sniff(input, options: ImportOptions()) >= 0.8)
        let st = try importer.read(input, options: ImportOptions())
        #expect(st.importerID == "plaid")
        #expect(!st.accounts.isEmpty)
        for r in st.records {
            #expect(r.sourceKind == .plaid)
            #expect(r.accountKey.hasPrefix("plaid:"))
            #expect(st.accounts.contains { $0.key == r.accountKey })
            #expect(r.raw.hasPrefix("{") && r.raw.contains(r.externalID!))
        }
    }

    @Test(arguments: PlaidFixtures.specExampleFiles + ["plaid_errors.examples.json", "plaid_docs_pending_to_posted_sync_fragment.json"])
    func copiesMatchTheSharedReference(_ name: String) throws {
        let original = F.sharedReference.appendingPathComponent(name)
        let copy = F.spec.appendingPathComponent(name)
        #expect(FileManager.default.fileExists(atPath: copy.path), "missing copy \(copy.path)")
        // The reference folder is beside the checkout only in the development tree.
        if FileManager.default.fileExists(atPath: original.path) {
            #expect(try Data(contentsOf: original) == Data(contentsOf: copy))
        }
    }

    @Test func currentSyncExample() throws {
        let st = try F.read(F.spec.appendingPathComponent("plaid_transactions_sync_response.example.json"))
        #expect(st.records.count == 2)
        let added = st.records[0], modified = st.records[1]
        #expect(added.externalID == "lPNjeW1nR6CDn5okmGQ6hEpMo4lLNoSrzqDje")
        #expect(added.amount == Money(minorUnits: -7210, currency: "USD"))
        #expect(added.description == "PURCHASE WM SUPERCENTER #1700")
        #expect(added.counterparty == "Walmart")
        #expect(added.date.iso == "2023-09-24")
        #expect(added.authorizedDate?.iso == "2023-09-22")
        #expect(added.pending == false)
        #expect(added.pendingExternalID == "no86Eox18VHMvaOVL7gPUM9ap3aR1LsAVZ5nc")
        #expect(added.category == "GENERAL_MERCHANDISE")
        #expect(added.accountKey == "plaid:BxBXxLj1m4HMXBm9WZZmCWVbPjX16EHwv99vp")
        // Plaid's `location`, for telling two stores' equal charges apart; all-null says nothing.
        #expect(added.place == PaymentPlace(storeNumber: "1700", city: "Poway", region: "CA"))
        #expect(modified.place == nil)
        #expect(added.locator == Locator(line: 20, row: 1))
        #expect(modified.locator == Locator(line: 81, row: 2))
        #expect(modified.pending == true)
        #expect(modified.amount.decimalString == "-28.34")
        #expect(modified.counterparty == "Burger King")
        #expect(st.modifiedExternalIDs == ["yhnUVvtcGGcCKU0bcz8PDQr5ZUxUXebUvbKC0"])
        #expect(
            st.removals == [
                ExternalRemoval(
                    externalID: "CmdQTNgems8BT1B7ibkoUXVPyAeehT3Tmzk0l",
                    accountKey: "plaid:BxBXxLj1m4HMXBm9WZZmCWVbPjX16EHwv99vp")
            ])
        let sync = try #require(st.sync)
        #expect(sync.scope == "plaid:accounts:BxBXxLj1m4HMXBm9WZZmCWVbPjX16EHwv99vp")
        #expect(sync.startCursor == nil)
        #expect(sync.nextCursor.hasPrefix("tVUUL15lYQN5rBnfDIc1I8xudpGdIlw9nsgeXWvhOfkECvUeR663i3Dt1uf/94S8"))
        #expect(sync.complete)
        #expect(st.accounts.count == 1)
        let a = st.accounts[0]
        #expect(a.key == "plaid:BxBXxLj1m4HMXBm9WZZmCWVbPjX16EHwv99vp")
        #expect(a.suggestedName == "Plaid Checking 0000")
        #expect(a.institution == "Plaid")
        #expect(a.number == "0000")
        #expect(a.type == "depository" && a.subtype == "checking")
        #expect(a.provider == "plaid" && a.providerAccountID == "BxBXxLj1m4HMXBm9WZZmCWVbPjX16EHwv99vp")
        #expect(a.currentBalance == Money(minorUnits: 11094, currency: "USD"))
        #expect(a.availableBalance == Money(minorUnits: 11094, currency: "USD"))
        #expect(a.currencies == ["USD"])
        #expect(a.details["official_name"] == "Plaid Gold Standard 0% Interest Checking")
        #expect(st.warnings.isEmpty, "\(st.warnings)")
        // Raw keeps every field, numbers as written.
        #expect(added.raw.contains(#""lat":32.959068"#))
        #expect(added.raw.contains(#""amount":72.1,"#))
        #expect(added.raw.contains(#""transaction_type":"place""#))
    }

    @Test func legacySyncExample2022() throws {
        let st = try F.read(F.spec.appendingPathComponent("plaid_transactions_sync_response.legacy_v1.197.3_2022.example.json"))
        #expect(st.records.map(\.amount.decimalString) == ["-2307.21", "-98.05"])
        #expect(st.records[0].category == "Shops > Computers and Electronics")
        #expect(st.records[1].category == "Service > Utilities > Electric")
        #expect(st.records[0].counterparty == "Apple")
        #expect(st.removals == [ExternalRemoval(externalID: "CmdQTNgems8BT1B7ibkoUXVPyAeehT3Tmzk0l", accountKey: nil)])
        #expect(st.modifiedExternalIDs == ["yhnUVvtcGGcCKU0bcz8PDQr5ZUxUXebUvbKC0"])
        // No `accounts` before 2024: minimal facts for the referenced account.
        #expect(st.accounts.count == 1)
        #expect(st.accounts[0].suggestedName == "Plaid account 99vp")
        #expect(st.accounts[0].key == "plaid:BxBXxLj1m4HMXBm9WZZmCWVbPjX16EHwv99vp")
        #expect(st.accounts[0].currencies == ["USD"])
        #expect(st.accounts[0].provider == "plaid")
        #expect(st.sync?.complete == true)
    }

    @Test func currentGetExample() throws {
        let st = try F.read(F.spec.appendingPathComponent("plaid_transactions_get_response.example.json"))
        #expect(st.sync == nil)
        #expect(st.removals.isEmpty && st.modifiedExternalIDs.isEmpty)
        #expect(st.records.map(\.externalID) == ["yhnUVvtcGGcCKU0bcz8PDQr5ZUxUXebUvbKC0", "lPNjeW1nR6CDn5okmGQ6hEpMo4lLNoSrzqDje"])
        #expect(st.records[0].pending && !st.records[1].pending)
        #expect(st.records.map(\.locator.row) == [1, 2])
        #expect(st.accounts[0].institution == "Chase")
        #expect(st.accounts[0].details["item_id"] == "eVBnVMp7zdTJLkRNr33Rs6zr7KNJqBFL9DrE6")
        #expect(st.accounts[0].details["institution_id"] == "ins_3")
        // total_transactions (1) is smaller than the list here: no "paginated" warning.
        #expect(st.warnings.isEmpty)
    }

    @Test func legacyGetExample2021() throws {
        let st = try F.read(F.spec.appendingPathComponent("plaid_transactions_get_response.legacy_v1.44.0_2021.example.json"))
        let r = try #require(st.records.first)
        #expect(r.amount.decimalString == "-2307.21")
        #expect(r.date.iso == "2017-01-29")
        #expect(r.authorizedDate?.iso == "2017-01-27")
        #expect(r.category == "Shops > Computers and Electronics")
        #expect(st.accounts[0].institution == "ins_3") // no institution_name in this item
        #expect(st.accounts[0].currentBalance?.decimalString == "110.00")
    }

    @Test func accountsGetExample() throws {
        let st = try F.read(F.spec.appendingPathComponent("plaid_accounts_get_response.example.json"))
        #expect(st.records.isEmpty)
        #expect(st.sync == nil)
        #expect(st.accounts.map(\.suggestedName) == ["Plaid Checking 0000", "Plaid 401k 6666", "Plaid Student Loan 7777"])
        #expect(st.accounts.allSatisfy { $0.institution == "Royal Bank of Plaid" })
        let checking = st.accounts[0], k401 = st.accounts[1], loan = st.accounts[2]
        #expect(checking.currentBalance?.decimalString == "110.00")
        #expect(checking.availableBalance?.decimalString == "100.00")
        #expect(checking.details["holder_category"] == "personal")
        // A loan's positive current balance is money owed: store sign negative.
        #expect(loan.currentBalance == Money(minorUnits: -6_526_200, currency: "USD"))
        #expect(loan.type == "loan" && loan.subtype == "student")
        // 23631.9805 USD cannot be stored in cents: not rounded, reported.
        #expect(k401.currentBalance == nil)
        #expect(k401.details["balances.current"] == "23631.9805")
        #expect(st.warnings.count == 1)
        #expect(st.warnings[0].message.contains("23631.9805"))
    }

    @Test func docsPendingToPostedFragmentLacksRequiredFields() throws {
        // The docs fragment elides `date` and the currency codes ("/* ... */" in the docs); it
        // cannot make a record and must say why rather than invent a date.
        let e = try #require(F.error(F.spec.appendingPathComponent("plaid_docs_pending_to_posted_sync_fragment.json")))
        #expect(e.kind == .malformed)
        #expect(e.problem.contains("lPNjeW1nR6CDn5okmGQ6hEpMo4lLNoSrzqDje"))
        // With a default currency the next missing field is the date.
        let data = try Data(contentsOf: F.spec.appendingPathComponent("plaid_docs_pending_to_posted_sync_fragment.json"))
        do {
            _ = try PlaidImporter().read(ImportInput(fileName: "f.json", data: data), options: ImportOptions(defaultCurrency: "USD"))
            Issue.record("expected an error")
        } catch let e as ImportError {
            #expect(e.column == "date")
            #expect(e.problem == "transaction 1 (added[0], transaction_id \"lPNjeW1nR6CDn5okmGQ6hEpMo4lLNoSrzqDje\"): missing field 'date'")
        }
    }

    @Test func errorExamples() throws {
        let url = F.spec.appendingPathComponent("plaid_errors.examples.json")
        // The collection itself is not an export.
        #expect(F.error(url)?.kind == .unrecognized)
        let root = try JSONParser.parse(Data(contentsOf: url))
        let expected: [String: String] = [
            "ITEM_LOGIN_REQUIRED__spec_user_transactions_refresh_example":
                "Plaid error ITEM_LOGIN_REQUIRED: Please update your login credentials.",
            "ITEM_LOGIN_REQUIRED__spec_item_error_webhook_example":
                "Plaid error ITEM_LOGIN_REQUIRED: The user's OAuth connection to this institution has been invalidated.",
            "TRANSACTIONS_SYNC_MUTATION_DURING_PAGINATION__docs":
                "Plaid error TRANSACTIONS_SYNC_MUTATION_DURING_PAGINATION: Underlying transaction data changed since last page was fetched. Please restart pagination from last update.",
            "INSTITUTION_DOWN__docs":
                "Plaid error INSTITUTION_DOWN: This financial institution is not currently responding to requests. We apologize for the inconvenience.",
            "ACCOUNTS_LIMIT__docs (error_type RATE_LIMIT_EXCEEDED)":
                "Plaid error ACCOUNTS_LIMIT: rate limit exceeded for attempts to access this item. please try again later",
        ]
        var seen = 0
        for member in try #require(root.objectValue).members where member.key != "_notes" {
            let body = try #require(member.value["body"])
            let text = body.serialized()
            let importer = PlaidImporter()
            let input = ImportInput(fileName: "error.json", data: Data(text.utf8))
            #expect(importer.sniff(input, options: ImportOptions()) >= 0.8)
            do {
                _ = try importer.read(input, options: ImportOptions())
                Issue.record("\(member.key) imported")
            } catch let e as ImportError {
                #expect(e.kind == .providerError)
                #expect(e.problem == expected[member.key], "\(member.key)")
            }
            seen += 1
        }
        #expect(seen == 5)
    }
}
