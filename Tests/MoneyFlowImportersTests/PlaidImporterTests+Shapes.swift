import Foundation
import MoneyFlowCore
import Testing
@testable import MoneyFlowImporters

/// Redaction, sniffing and file shapes, pages and cursors.
extension PlaidImporterTests {
    // MARK: redaction

    @Test func secretsAreRedactedEverywhere() throws {
        let token = "access-sandbox-de3ce8ef-33f8-452c-a685-8671031fc0f6"
        let tx = F.transaction([
            "processor_token": "\"processor-sandbox-0asd1-a92nc\"",
            "meta": #"{"client_secret": "s3cr3t-value", "link_token": {"v": "link-sandbox-xyz"}, "public_token": null}"#,
            "name": "\"PAYMENT \(token)\"",
        ])
        let text =
            #"{"request": {"access_token": ""# + token + #"", "secret": "abcdef123456", "cursor": "c0"}, "response": "#
            + F.syncPage(added: [tx], next: "c1") + "}"
        let st = try F.read(text: text)
        let r = try #require(st.records.first)
        for secret in [token, "processor-sandbox-0asd1-a92nc", "s3cr3t-value", "link-sandbox-xyz", "abcdef123456"] {
            #expect(!r.raw.contains(secret))
            #expect(!r.description.contains(secret))
        }
        #expect(r.raw.contains(#""processor_token":"[REDACTED]""#))
        #expect(r.raw.contains(#""client_secret":"[REDACTED]""#))
        #expect(r.raw.contains(#""link_token":"[REDACTED]""#))
        #expect(r.raw.contains(#""public_token":null"#))
        #expect(r.description == "PAYMENT [REDACTED]")
        #expect(st.sync?.startCursor == "c0")

        // Errors never echo a secret either.
        let bad =
            #"{"access_token": ""# + token + #"", "added": ["# + F.transaction(["transaction_id": "\"\(token)\"", "amount": "\"1\""])
            + #"], "next_cursor": "c", "has_more": false}"#
        let e = try #require(F.error(text: bad))
        #expect(!e.description.contains(token))
        #expect(e.problem.contains("[REDACTED]"))
    }

    @Test func savedRequestSecretsStayOut() throws {
        let url = F.samples.appendingPathComponent("saved_with_request/all_pages.json")
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(text.contains("access-sandbox-"))
        let st = try F.read(url)
        for r in st.records { #expect(!r.raw.contains("access-sandbox-")) }
        #expect(!st.warnings.contains { $0.message.contains("access-sandbox-") })
    }

    // MARK: sniffing and shapes

    @Test func sniffing() throws {
        let importer = PlaidImporter()
        func score(_ s: String) -> Double { importer.sniff(ImportInput(fileName: "x", data: Data(s.utf8)), options: ImportOptions()) }
        #expect(score(F.syncPage()) >= 0.9)
        #expect(score("\u{FEFF}  " + F.syncPage()) >= 0.9)
        #expect(score("[" + F.transaction() + "]") >= 0.8)
        #expect(score(#"{"error_type": "ITEM_ERROR", "error_code": "X"}"#) >= 0.8)
        #expect(score("交易日期,金额\n2024-01-01,1.00") == 0)
        #expect(score(#"{"name": "not plaid"}"#) == 0)
        #expect(score("") == 0)
        // Content, not the file name.
        #expect(importer.sniff(ImportInput(fileName: "plaid.json", data: Data("date,amount".utf8)), options: ImportOptions()) == 0)
    }

    @Test func notPlaid() throws {
        #expect(F.error(text: #"{"name": "x"}"#)?.kind == .unrecognized)
        #expect(F.error(text: "42")?.kind == .unrecognized)
        #expect(F.error(text: #"[{"name": "x"}]"#)?.kind == .unrecognized)
        #expect(F.error(text: "{}")?.problem.contains("an empty object") == true)
    }

    @Test func emptyArrayIsEmptyWithAWarning() throws {
        let st = try F.read(text: "[]")
        #expect(st.records.isEmpty && st.sync == nil)
        #expect(st.warnings.count == 1)
    }

    @Test func bareTransactionArray() throws {
        let st = try F.read(
            text: "[" + F.transaction(["transaction_id": "\"a\""]) + ",\n"
                + F.transaction(["transaction_id": "\"b\"", "account_id": "\"acct2XXXXXXXXXXXXXXXXXXXXXXXXXXXXwxyz\"", "amount": "-5"])
                + "]")
        #expect(st.records.map(\.externalID) == ["a", "b"])
        #expect(st.records.map(\.locator) == [Locator(line: 1, row: 1), Locator(line: 2, row: 2)])
        #expect(st.sync == nil)
        #expect(st.accounts.map(\.suggestedName) == ["Plaid account 99vp", "Plaid account wxyz"])
        #expect(st.accounts[1].institution == "Plaid")
        #expect(st.records[1].amount.decimalString == "5.00")
    }

    @Test func exportsKeepTheFirstOfARepeatedID() throws {
        let st = try F.read(
            text: #"{"transactions": ["# + F.transaction() + "," + F.transaction(["amount": "3"]) + #"], "total_transactions": 5}"#)
        #expect(st.records.count == 1)
        #expect(st.records[0].amount.decimalString == "-12.50")
        #expect(st.warnings.count == 2) // the repeat, and 2 of 5 transactions
        #expect(st.warnings.contains { $0.message.contains("2 of 5") })
    }

    @Test func getEnvelopeGivesCoverage() throws {
        let text =
            #"{"request": {"start_date": "2024-03-01", "end_date": "2024-03-31"}, "response": {"transactions": ["# + F.transaction()
            + #"], "total_transactions": 1}}"#
        let st = try F.read(text: text)
        #expect(st.coverage == LocalDate(year: 2024, month: 3, day: 1)!...LocalDate(year: 2024, month: 3, day: 31)!)
    }

    @Test func creditBalancesAreStoredAsOwed() throws {
        let text =
            #"{"accounts": [{"account_id": "cc1", "balances": {"available": 4000.5, "current": 999.5, "limit": 5000, "iso_currency_code": "USD", "unofficial_currency_code": null}, "mask": "3333", "name": "Plaid Credit Card", "official_name": null, "type": "credit", "subtype": "credit card"}, {"account_id": "cc2", "balances": {"available": null, "current": -20, "limit": null, "iso_currency_code": null, "unofficial_currency_code": "CNH"}, "mask": null, "name": "Overpaid card", "official_name": null, "type": "credit", "subtype": "credit card"}], "item": {"item_id": "i", "institution_name": "Bank"}, "request_id": "r"}"#
        let st = try F.read(text: text)
        #expect(st.accounts[0].currentBalance == Money(minorUnits: -99950, currency: "USD"))
        #expect(st.accounts[0].availableBalance == Money(minorUnits: 400050, currency: "USD"))
        #expect(st.accounts[0].details["limit"] == "5000")
        // A negative current balance on a card: the bank owes the holder.
        #expect(st.accounts[1].currentBalance == Money(minorUnits: 2000, currency: "CNH"))
        #expect(st.accounts[1].suggestedName == "Overpaid card")
        #expect(st.accounts[1].number == nil)
        #expect(st.accounts[1].currencies == ["CNH"])
    }

    // MARK: pages, cursors, in-order application

    @Test func laterEventsOfTheSameIDWin() throws {
        let t = F.transaction(["transaction_id": "\"x\""])
        let t2 = F.transaction(["transaction_id": "\"x\"", "amount": "20", "name": "\"NEW NAME\""])
        let removeX = #"{"transaction_id": "x", "account_id": "BxBXxLj1m4HMXBm9WZZmCWVbPjX16EHwv99vp"}"#
        // added, then modified on the next page: one record, the modified one.
        var st = try F.read(
            text: "[" + F.syncPage(added: [t], next: "c1", hasMore: true) + "," + F.syncPage(modified: [t2], next: "c2") + "]")
        #expect(st.records.count == 1)
        #expect(st.records[0].description == "NEW NAME")
        #expect(st.records[0].locator.page == 2)
        #expect(st.modifiedExternalIDs == ["x"])
        // added, then removed: no record, the removal stays.
        st = try F.read(
            text: "[" + F.syncPage(added: [t], next: "c1", hasMore: true) + "," + F.syncPage(removed: [removeX], next: "c2") + "]")
        #expect(st.records.isEmpty)
        #expect(st.removals.map(\.externalID) == ["x"])
        // Removed, then added again: present.
        st = try F.read(
            text: "[" + F.syncPage(removed: [removeX], next: "c1", hasMore: true) + "," + F.syncPage(added: [t], next: "c2") + "]")
        #expect(st.records.map(\.externalID) == ["x"] && st.removals.isEmpty)
    }

    @Test func rowsArePerPageWhenSeveralPages() throws {
        let a = F.transaction(["transaction_id": "\"a\""]), b = F.transaction(["transaction_id": "\"b\""]),
            c = F.transaction(["transaction_id": "\"c\""])
        let st = try F.read(
            text: "[" + F.syncPage(added: [a, b], next: "c1", hasMore: true) + ",\n" + F.syncPage(modified: [c], next: "c2") + "]")
        #expect(
            st.records.map(\.locator) == [
                Locator(line: 1, page: 1, row: 1), Locator(line: 1, page: 1, row: 2), Locator(line: 2, page: 2, row: 1),
            ])
        #expect(
            st.sync
                == SyncUpdate(
                    scope: "plaid:accounts:BxBXxLj1m4HMXBm9WZZmCWVbPjX16EHwv99vp", startCursor: nil, nextCursor: "c2", complete: true))
    }

    @Test func incompleteUpdate() throws {
        let st = try F.read(
            text: F.syncPage(
                added: [F.transaction()], next: "c1", hasMore: true, extra: #""transactions_update_status": "INITIAL_UPDATE_COMPLETE", "#))
        #expect(st.sync?.complete == false)
        #expect(st.warnings.count == 2)
        #expect(st.warnings.contains { $0.message.contains("has_more") })
        #expect(st.warnings.contains { $0.message.contains("INITIAL_UPDATE_COMPLETE") })
    }

    @Test func cursorChainIsChecked() throws {
        func page(_ request: String?, next: String, more: Bool, item: String? = nil) -> String {
            var req: [String] = []
            if let request { req.append("\"cursor\": \"\(request)\"") }
            if let item { req.append("\"item_id\": \"\(item)\"") }
            return #"{"request": {"# + req.joined(separator: ", ") + #"}, "response": "# + F.syncPage(next: next, hasMore: more) + "}"
        }
        // Consecutive: fine; startCursor is the first request cursor.
        var st = try F.read(
            text: "[" + page("c0", next: "c1", more: true, item: "item9") + "," + page("c1", next: "c2", more: false, item: "item9") + "]")
        #expect(st.sync == SyncUpdate(scope: "plaid:item:item9", startCursor: "c0", nextCursor: "c2", complete: true))
        // A gap: page 2 was requested with c5, page 1 returned c1.
        var e = try #require(F.error(text: "[" + page("c0", next: "c1", more: true) + "," + page("c5", next: "c6", more: false) + "]"))
        #expect(e.kind == .rejected)
        #expect(e.locator?.page == 2)
        #expect(
            e.problem
                == "page 2 was requested with cursor 'c5' but page 1 returned next_cursor 'c1': page 2 skipped cursor 'c1'; pages must be consecutive"
        )
        // Restarting from the beginning in the middle is a gap too.
        e = try #require(F.error(text: "[" + page("c0", next: "c1", more: true) + "," + page(nil, next: "c9", more: false) + "]"))
        #expect(e.kind == .rejected && e.problem.contains("from the beginning"))
        // A top-level "cursor" field is the request cursor as well.
        e = try #require(
            F.error(
                text: "[" + F.syncPage(next: "c1", hasMore: true, extra: #""cursor": "c0", "#) + ","
                    + F.syncPage(next: "c3", extra: #""cursor": "c2", "#) + "]"))
        #expect(e.kind == .rejected && e.problem.contains("skipped cursor 'c1'"))
        // Pages of different items cannot be combined.
        e = try #require(
            F.error(text: "[" + page("c0", next: "c1", more: true, item: "A") + "," + page("c1", next: "c2", more: false, item: "B") + "]"))
        #expect(e.kind == .rejected && e.problem.contains("item"))
        // Without request cursors nothing can be checked: accepted.
        st = try F.read(text: "[" + F.syncPage(next: "c1", hasMore: true) + "," + F.syncPage(next: "c2") + "]")
        #expect(st.sync?.startCursor == nil && st.sync?.nextCursor == "c2")
        // An empty request cursor means "from the beginning".
        st = try F.read(text: page("", next: "c1", more: false))
        #expect(st.sync?.startCursor == nil)
        // Long cursors are abbreviated in messages.
        let long = String(repeating: "A", count: 100)
        e = try #require(F.error(text: "[" + page("c0", next: long, more: true) + "," + page("c5", next: "c6", more: false) + "]"))
        #expect(e.problem.contains("'AAAAAAAAAAAAAAAA…' (100 chars)"))
    }

    @Test func savedWithRequestSample() throws {
        let folder = F.samples.appendingPathComponent("saved_with_request")
        let all = try F.read(folder.appendingPathComponent("all_pages.json"))
        let p1 = try F.read(folder.appendingPathComponent("page1.json"))
        let p2 = try F.read(folder.appendingPathComponent("page2.json"))
        let p3 = try F.read(folder.appendingPathComponent("page3.json"))
        #expect(p1.sync?.startCursor == nil) // initial request: no cursor
        #expect(p2.sync?.startCursor == p1.sync?.nextCursor)
        #expect(p3.sync?.startCursor == p2.sync?.nextCursor)
        #expect(all.sync?.startCursor == nil)
        #expect(all.sync?.nextCursor == p3.sync?.nextCursor)
        #expect(all.sync?.complete == true && p1.sync?.complete == false)
        #expect(all.sync?.scope.hasPrefix("plaid:item:") == true)
        let e = try #require(F.error(folder.appendingPathComponent("skipped_cursor.json")))
        #expect(e.kind == .rejected)
        #expect(e.problem.contains("page 2 was requested with cursor"))
        #expect(e.problem.contains("page 2 skipped cursor"))
    }
}
