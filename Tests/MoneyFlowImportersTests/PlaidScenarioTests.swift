import Foundation
import MoneyFlowCore
import Testing

@testable import MoneyFlowImporters

/// Samples/plaid/<scenario>: pages imported in order must describe the hand-written expected.json.
@Suite("Plaid sample scenarios")
struct PlaidScenarioTests {
    typealias F = PlaidFixtures

    @Test(arguments: PlaidFixtures.scenarios)
    func pagesOneByOneGiveTheExpectedLedger(_ scenario: String) throws {
        let pages = try F.pages(of: scenario)
        #expect(pages.count >= 2, "\(scenario) has \(pages.count) pages")
        var ledger = PlaidTestLedger()
        var previousNext: String?
        for url in pages {
            let st = try F.read(url)
            // Lifecycle facts the reconciler relies on.
            for r in st.records where r.pendingExternalID != nil { #expect(!r.pending) }
            // A page saved with its request names the cursor it was asked with: the previous
            // page's next (none for the first); a bare page names none.
            let asked = scenario == "saved_with_request" ? previousNext : nil
            #expect(st.sync?.startCursor == asked, "\(url.lastPathComponent)")
            previousNext = st.sync?.nextCursor
            ledger.apply(st)
        }
        #expect(ledger.entries == (try F.expected(scenario)))
    }

    @Test(arguments: PlaidFixtures.scenarios)
    func allPagesAsOneArrayGiveTheSameLedger(_ scenario: String) throws {
        let texts = try F.pages(of: scenario).map { try String(contentsOf: $0, encoding: .utf8) }
        let st = try F.read(text: "[" + texts.joined(separator: ",") + "]", name: "\(scenario)-all.json")
        var ledger = PlaidTestLedger()
        ledger.apply(st)
        #expect(ledger.entries == (try F.expected(scenario)))
        let last = try F.read(F.pages(of: scenario).last!)
        #expect(st.sync?.nextCursor == last.sync?.nextCursor)
        #expect(st.sync?.complete == true)
        #expect(Set(st.records.compactMap(\.externalID)).isDisjoint(with: st.removals.map(\.externalID)))
        #expect(st.records.allSatisfy { $0.locator.page != nil && $0.locator.row != nil && $0.locator.line != nil })
    }

    @Test func pendingToPostedOnDifferentPages() throws {
        let pages = try F.pages(of: "pending_to_posted_split_pages").map { try F.read($0) }
        let pending = try #require(pages[0].records.first { $0.pending })
        let posted = try #require(pages[1].records.first)
        #expect(posted.pendingExternalID == pending.externalID)
        #expect(posted.amount.decimalString == "-21.45" && pending.amount.decimalString == "-18.45")
        #expect(pages[1].removals.isEmpty && pages[1].sync?.complete == false)
        #expect(pages[2].removals == [ExternalRemoval(externalID: pending.externalID!, accountKey: pending.accountKey)])
    }

    @Test func removalBeforeThePostedAdd() throws {
        let pages = try F.pages(of: "pending_removed_before_posted").map { try F.read($0) }
        let pending = try #require(pages[0].records.first)
        #expect(pages[1].records.isEmpty && pages[1].removals.map(\.externalID) == [pending.externalID!])
        #expect(pages[2].records.first?.pendingExternalID == pending.externalID)
    }

    /// Two coffees with the same date, amount and merchant are two purchases (Plaid gives each
    /// its own transaction_id): the importer must keep both, and the ledger must equal expected.json.
    /// (Through the store and the binary: BinaryWorkflowTests.identicalCoffeesStayTwoInTheStore.)
    @Test func identicalCoffeesStayTwo() throws {
        var ledger = PlaidTestLedger()
        var coffees: [IncomingRecord] = []
        for url in try F.pages(of: "identical_coffees") {
            let st = try F.read(url)
            coffees += st.records.filter { $0.description.hasPrefix("BLUE BOTTLE") }
            ledger.apply(st)
        }
        #expect(coffees.count == 2)
        #expect(Set(coffees.map(\.date)).count == 1 && Set(coffees.map(\.amount.decimalString)) == ["-5.75"])
        #expect(Set(coffees.compactMap(\.externalID)).count == 2, "each coffee keeps its own transaction_id")
        #expect(ledger.entries.filter { $0.description.hasPrefix("BLUE BOTTLE") }.count == 2)
        #expect(ledger.entries == (try F.expected("identical_coffees")))
    }

    /// Plaid's positive amount is money out, a negative one money in: the importer flips the sign.
    @Test func refundIsMoneyIn() throws {
        var ledger = PlaidTestLedger()
        var raw: [String] = []
        for url in try F.pages(of: "refund") {
            ledger.apply(try F.read(url))
            let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
            for t in object?["added"] as? [[String: Any]] ?? [] { raw.append("\(t["amount"] ?? "")") }
        }
        #expect(raw == ["129.95", "-129.95"], "the fixture gives the purchase positive, the refund negative")
        #expect(ledger.entries.map(\.amount) == ["-129.95", "129.95"])
        #expect(ledger.entries == (try F.expected("refund")))
    }

    @Test func transactionsGetReimportAddsNothing() throws {
        var ledger = PlaidTestLedger()
        for url in try F.pages(of: "full_period") { ledger.apply(try F.read(url)) }
        let before = ledger.entries
        let get = try F.read(F.samples.appendingPathComponent("full_period/transactions_get.json"))
        #expect(get.sync == nil && get.removals.isEmpty)
        #expect(get.records.count == before.count)
        // Every record is already present with identical facts: nothing new.
        for r in get.records {
            let existing = try #require(ledger.active[r.externalID!])
            #expect(
                existing.amount == r.amount && existing.date == r.date && existing.description == r.description
                    && existing.pending == r.pending && existing.accountKey == r.accountKey)
        }
        ledger.apply(get)
        #expect(ledger.entries == before)
        #expect(get.accounts.map(\.institution) == ["First Platypus Bank", "First Platypus Bank"])
        // Newest first, as /transactions/get returns them.
        #expect(get.records.map(\.date) == get.records.map(\.date).sorted(by: >))
    }

    @Test func balanceGetGivesAccountFactsOnly() throws {
        let st = try F.read(F.samples.appendingPathComponent("full_period/accounts_balance_get.json"))
        #expect(st.records.isEmpty && st.sync == nil)
        #expect(st.accounts.map(\.suggestedName) == ["Plaid Checking 0000", "Plaid Credit Card 3333"])
        let checking = st.accounts[0], card = st.accounts[1]
        #expect(checking.currentBalance.map { $0.minorUnits > 0 } == true)
        #expect(card.currentBalance.map { $0.minorUnits < 0 } == true) // owed
        #expect(card.availableBalance.map { $0.minorUnits > 0 } == true)
        #expect(card.type == "credit" && card.subtype == "credit card" && card.number == "3333")
        #expect(st.warnings.isEmpty)
        // Same balances as the last sync page reported.
        let last = try F.read(F.pages(of: "full_period").last!)
        #expect(last.accounts.first { $0.key == card.key }?.currentBalance == card.currentBalance)
    }

    @Test func legacyScenarioHasNoAccountsArray() throws {
        let pages = try F.pages(of: "legacy_schema_2022").map { try F.read($0) }
        #expect(pages[2].removals.allSatisfy { $0.accountKey == nil })
        #expect(pages[0].accounts.allSatisfy { $0.suggestedName.hasPrefix("Plaid account ") })
        #expect(pages[0].records.contains { $0.category == "Transfer > Payroll" })
    }

    @Test func samplesAreSniffedAsPlaid() throws {
        let importer = PlaidImporter()
        for scenario in PlaidFixtures.scenarios {
            for url in try F.pages(of: scenario) {
                #expect(importer.sniff(ImportInput(fileName: "x", data: try Data(contentsOf: url)), options: ImportOptions()) >= 0.9)
            }
        }
    }
}
