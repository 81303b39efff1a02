import Foundation
import MoneyFlowCore
import Testing

@testable import MoneyFlowImporters

@Suite("Plaid importer")
struct PlaidImporterTests {
    typealias F = PlaidFixtures

    func one(_ tx: String, options: ImportOptions = ImportOptions()) throws -> IncomingRecord {
        let st = try F.read(text: F.syncPage(added: [tx]), options: options)
        return try #require(st.records.first)
    }

    // MARK: amounts

    @Test(arguments: [
        ("1234.12", -123412), ("72.1", -7210), ("72.10", -7210), ("0.1", -10), ("0.2", -20), ("0.3", -30),
        ("0.30", -30), ("1800", -180000), ("-129.95", 12995), ("-0", 0), ("0", 0), ("1.5e2", -15000),
        ("12345E-2", -12345), ("2E+3", -200000), ("0.000e5", 0), ("9999999999.99", -999_999_999_999),
        ("1.2300", -123),
    ])
    func amountsAreExactAndSignFlipped(_ text: String, minor: Int64) throws {
        let r = try one(F.transaction(["amount": text]))
        #expect(r.amount == Money(minorUnits: minor, currency: "USD"), "\(text)")
    }

    @Test func tenthsAddUpExactly() throws {
        let st = try F.read(
            text: F.syncPage(added: [
                F.transaction(["amount": "0.1", "transaction_id": "\"a\""]),
                F.transaction(["amount": "0.2", "transaction_id": "\"b\""]),
            ]))
        #expect(st.records.reduce(0) { $0 + $1.amount.minorUnits } == -30)
        #expect(st.records.map(\.amount.decimalString) == ["-0.10", "-0.20"])
    }

    @Test(arguments: [
        ("1e400", "amount too large"), ("123456789012345678901234567890", "amount too large"),
        ("1e-400", "more than 2 decimal places"), ("1e-500", "too many decimal places"),
        ("0.30000000000000004", "more than 2 decimal places"),
        ("1e99999999999999999999", "amount too large"), ("92233720368547758.07", "amount too large"),
        ("10000000000.00", "amount too large"), ("99999999999.99", "amount too large"),
    ])
    func impossibleAmountsAreMalformed(_ text: String, reason: String) throws {
        let e = try #require(F.error(text: F.syncPage(added: [F.transaction(["amount": text])])))
        #expect(e.kind == .malformed)
        #expect(e.column == "amount")
        #expect(e.problem.contains(reason), "\(e.problem)")
        #expect(e.problem.hasPrefix("transaction 1 (added[0], transaction_id \"tx1AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\")"))
    }

    @Test func zeroExponentCurrencies() throws {
        let r = try one(F.transaction(["amount": "1500", "iso_currency_code": "\"JPY\""]))
        #expect(r.amount == Money(minorUnits: -1500, currency: "JPY"))
        let e = try #require(F.error(text: F.syncPage(added: [F.transaction(["amount": "1500.5", "iso_currency_code": "\"JPY\""])])))
        #expect(e.problem.contains("more than 0 decimal places"))
    }

    // MARK: currency

    @Test func currencyFallsBackToUnofficialCode() throws {
        let r = try one(F.transaction(["iso_currency_code": "null", "unofficial_currency_code": "\"CNH\"", "amount": "88.8"]))
        #expect(r.amount == Money(minorUnits: -8880, currency: "CNH"))
        let missing = F.transaction(["iso_currency_code": "null"])
        let e = try #require(F.error(text: F.syncPage(added: [missing])))
        #expect(e.kind == .malformed && e.column == "iso_currency_code")
        #expect(e.problem.contains("no currency"))
        let withDefault = try one(missing, options: ImportOptions(defaultCurrency: "EUR"))
        #expect(withDefault.amount.currency == "EUR")
        #expect(F.error(text: F.syncPage(added: [F.transaction(["iso_currency_code": "\"U$D\""])]))?.column == "iso_currency_code")
    }

    // MARK: field mapping

    @Test func fieldMapping() throws {
        let r = try one(
            F.transaction([
                "pending": "true", "pending_transaction_id": "\"pend1\"",
                "personal_finance_category": #"{"primary": "FOOD_AND_DRINK", "detailed": "FOOD_AND_DRINK_COFFEE"}"#,
                "category": #"["Food and Drink", "Coffee Shop"]"#,
            ]))
        #expect(r.description == "TEST MERCHANT 123")
        #expect(r.counterparty == "Test Merchant")
        #expect(r.pending)
        #expect(r.pendingExternalID == "pend1")
        #expect(r.externalID == "tx1AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")
        #expect(r.date.iso == "2024-03-05")
        #expect(r.authorizedDate?.iso == "2024-03-04")
        #expect(r.category == "FOOD_AND_DRINK")
        #expect(r.sourceKind == .plaid)
        #expect(r.balance == nil && r.note == nil)
    }

    @Test func counterpartyFallbacks() throws {
        let parties =
            #"[{"name": "", "type": "merchant"}, {"name": "DoorDash", "type": "marketplace"}, {"name": "Burger King", "type": "merchant"}]"#
        #expect(try one(F.transaction(["merchant_name": "null", "counterparties": parties])).counterparty == "DoorDash")
        #expect(try one(F.transaction(["merchant_name": "null", "counterparties": "[]"])).counterparty == nil)
        #expect(try one(F.transaction([:], removing: ["merchant_name"])).counterparty == nil)
        #expect(try one(F.transaction(["merchant_name": "\"\""])).counterparty == nil)
    }

    @Test func categoryFallbacks() throws {
        #expect(
            try one(F.transaction(["personal_finance_category": #"{"primary": "", "detailed": "TRAVEL_FLIGHTS"}"#])).category
                == "TRAVEL_FLIGHTS")
        #expect(
            try one(F.transaction(["category": #"["Travel", "Airlines and Aviation Services"]"#])).category
                == "Travel > Airlines and Aviation Services")
        #expect(try one(F.transaction(["category": "null", "personal_finance_category": "null"])).category == nil)
    }

    @Test func nameFallsBackToMerchantName() throws {
        #expect(try one(F.transaction(["name": "null"])).description == "Test Merchant")
        #expect(
            try one(F.transaction(["name": "null", "merchant_name": "null", "original_description": "\"POS 123\""])).description
                == "POS 123")
    }

    @Test func unknownFieldsAreKeptInRaw() throws {
        let r = try one(F.transaction(["future_field": #"{"nested": [1.50, "x", null]}"#, "amount": "72.10"]))
        #expect(r.raw.contains(#""future_field":{"nested":[1.50,"x",null]}"#))
        #expect(r.raw.contains(#""amount":72.10"#))
        let reparsed = try JSONParser.parse(r.raw)
        #expect(reparsed["transaction_id"] == .string("tx1AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"))
    }

    @Test func pendingDefaultsToFalse() throws {
        #expect(try one(F.transaction([:], removing: ["pending"])).pending == false)
    }

    // MARK: wrong types

    @Test(arguments: [
        (["amount": "\"12.00\""] as [String: String], [String](), "amount", "field 'amount' must be a JSON number, found string \"12.00\""),
        (["amount": "null"], [], "amount", "field 'amount' must be a JSON number, found null"),
        ([:], ["amount"], "amount", "missing field 'amount'"),
        (["date": "\"2024/03/05\""], [], "date", "field 'date' must be a date YYYY-MM-DD, found \"2024/03/05\""),
        (["date": "\"2024-02-30\""], [], "date", "field 'date' must be a date YYYY-MM-DD, found \"2024-02-30\""),
        (["date": "\"2024-03-05T10:00:00Z\""], [], "date", "field 'date' must be a date YYYY-MM-DD, found \"2024-03-05T10:00:00Z\""),
        (["date": "20240305"], [], "date", "field 'date' must be a string, found number 20240305"),
        (
            ["authorized_date": "\"yesterday\""], [], "authorized_date",
            "field 'authorized_date' must be a date YYYY-MM-DD, found \"yesterday\""
        ),
        (["pending": "\"false\""], [], "pending", "field 'pending' must be a boolean, found string \"false\""),
        (["account_id": "7"], [], "account_id", "field 'account_id' must be a string, found number 7"),
        (["merchant_name": "false"], [], "merchant_name", "field 'merchant_name' must be a string, found boolean false"),
    ])
    func wrongTypesAreMalformed(_ overrides: [String: String], removing: [String], column: String, message: String) throws {
        let e = try #require(
            F.error(
                text: F.syncPage(added: [
                    F.transaction(), F.transaction(overrides.merging(["transaction_id": "\"tx2\""]) { $1 }, removing: removing),
                ])))
        #expect(e.kind == .malformed)
        #expect(e.column == column)
        #expect(e.problem == "transaction 2 (added[1], transaction_id \"tx2\"): " + message)
        #expect(e.locator?.row == 2)
    }

    @Test func missingTransactionID() throws {
        let e = try #require(F.error(text: F.syncPage(modified: [F.transaction([:], removing: ["transaction_id"])])))
        #expect(e.kind == .malformed && e.column == "transaction_id")
        #expect(e.problem == "transaction 1 (modified[0]): missing field 'transaction_id'")
        let e2 = try #require(F.error(text: F.syncPage(added: [F.transaction(["transaction_id": "\"\""])])))
        #expect(e2.problem.contains("'transaction_id' is empty"))
        // In a bare array too, even for the first element.
        let e4 = try #require(F.error(text: "[" + F.transaction([:], removing: ["transaction_id"]) + "]"))
        #expect(e4.kind == .malformed && e4.problem == "transaction 1: missing field 'transaction_id'")
        let e3 = try #require(F.error(text: "[" + F.transaction(["transaction_id": "12"]) + "]"))
        #expect(e3.problem.contains("'transaction_id' must be a string"))
    }

    @Test func structuralTypeErrors() throws {
        #expect(
            F.error(text: #"{"added": {}, "next_cursor": "c", "has_more": false}"#)?.problem == "'added' must be an array, found object")
        #expect(
            F.error(text: #"{"added": [1], "next_cursor": "c", "has_more": false}"#)?.problem
                == "transaction 1 (added[0]) is a number, not an object")
        #expect(
            F.error(text: #"{"added": [], "removed": [{"account_id": "a"}], "next_cursor": "c", "has_more": false}"#)?.column
                == "transaction_id")
        #expect(F.error(text: #"{"added": [], "next_cursor": 5, "has_more": false}"#)?.column == "next_cursor")
        #expect(F.error(text: #"{"added": [], "next_cursor": "c", "has_more": "no"}"#)?.column == "has_more")
        #expect(
            F.error(text: #"{"added": [], "accounts": [{"name": "x"}], "next_cursor": "c", "has_more": false}"#)?.column == "account_id")
        #expect(F.error(text: "[" + F.transaction() + ", 3]")?.problem.contains("element 2") == true)
    }

    // MARK: malformed JSON

    @Test func malformedJSONReportsTheByteOffset() throws {
        let text = "{\n  \"added\": [\n    {\"amount\": 1.0,}\n  ]\n}"
        let e = try #require(F.error(text: text))
        #expect(e.kind == .malformed)
        #expect(e.problem == "malformed JSON at byte 34: unexpected '}', expected a string key")
        #expect(e.locator?.line == 3)
        #expect(e.column == "20")
        #expect(e.description == "test.json: line 3, column 20: malformed JSON at byte 34: unexpected '}', expected a string key")
    }

    @Test func duplicateKeysInATransactionAreMalformed() throws {
        let tx = F.transaction().dropLast() + #", "amount": 99.99}"#
        let e = try #require(F.error(text: F.syncPage(added: [String(tx)])))
        #expect(e.kind == .malformed)
        #expect(e.problem.contains("duplicate key \"amount\""))
        #expect(e.problem.hasPrefix("malformed JSON at byte "))
    }

    @Test func depthLimitIsMalformedNotACrash() throws {
        let deep = #"{"added": [], "x": "# + String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000) + "}"
        let e = try #require(F.error(text: deep))
        #expect(e.kind == .malformed)
        #expect(e.problem.contains("nesting deeper than 256"))
        // The limit is configurable.
        let shallow = PlaidImporter(maxDepth: 2)
        #expect(throws: ImportError.self) {
            try shallow.read(
                ImportInput(fileName: "x", data: Data(F.syncPage(added: [F.transaction(["deep": "[[1]]"])]).utf8)), options: ImportOptions()
            )
        }
    }

    // MARK: provider errors

    @Test func errorBodies() throws {
        let login = F.samples.appendingPathComponent("errors/item_login_required.json")
        let e = try #require(F.error(login))
        #expect(e.kind == .providerError)
        #expect(
            e.problem
                == "Plaid error ITEM_LOGIN_REQUIRED: the login details of this item have changed (credentials, MFA, or required user action) and a user login is required to update this information. use Link's update mode to restore the item to a good state"
        )
        #expect(
            F.error(F.samples.appendingPathComponent("errors/institution_down.json"))?.problem
                == "Plaid error INSTITUTION_DOWN: This financial institution is not currently responding to requests. We apologize for the inconvenience."
        )
        #expect(
            F.error(F.samples.appendingPathComponent("errors/transactions_sync_mutation_during_pagination.json"))?.kind == .providerError)
        // No message at all.
        #expect(
            F.error(
                text: #"{"error_type": "API_ERROR", "error_code": "INTERNAL_SERVER_ERROR", "error_message": null, "display_message": null}"#
            )?.problem
                == "Plaid error INTERNAL_SERVER_ERROR (API_ERROR)")
        // Wrapped as {"error": {...}} or in a saved request/response envelope.
        #expect(
            F.error(
                text:
                    #"{"error": {"error_type": "ITEM_ERROR", "error_code": "ITEM_LOGIN_REQUIRED", "error_message": "m", "display_message": null}}"#
            )?.problem == "Plaid error ITEM_LOGIN_REQUIRED: m")
        #expect(
            F.error(
                text:
                    #"{"request": {"cursor": "c"}, "response": {"error_type": "RATE_LIMIT_EXCEEDED", "error_code": "TRANSACTIONS_SYNC_LIMIT", "error_message": "slow down", "display_message": null}}"#
            )?.kind == .providerError)
    }

    @Test func anErrorPageInsideAPageSequenceFailsTheWholeFile() throws {
        let text =
            "[" + F.syncPage(added: [F.transaction()], next: "c1", hasMore: true) + ","
            + #"{"error_type": "TRANSACTIONS_ERROR", "error_code": "TRANSACTIONS_SYNC_MUTATION_DURING_PAGINATION", "error_message": "Underlying transaction data changed", "display_message": null}"#
            + "]"
        let e = try #require(F.error(text: text))
        #expect(e.kind == .providerError)
        #expect(e.locator?.page == 2)
        #expect(e.problem == "Plaid error TRANSACTIONS_SYNC_MUTATION_DURING_PAGINATION: Underlying transaction data changed")
    }

    @Test func itemErrorInAGetResponseIsAWarning() throws {
        let text =
            #"{"accounts": [], "transactions": ["# + F.transaction()
            + #"], "total_transactions": 1, "item": {"item_id": "it", "error": {"error_type": "ITEM_ERROR", "error_code": "ITEM_LOGIN_REQUIRED", "error_message": "relink", "display_message": null}}}"#
        let st = try F.read(text: text)
        #expect(st.records.count == 1)
        #expect(
            st.warnings.map(\.message) == [
                "the item reports an error, its data may be out of date: Plaid error ITEM_LOGIN_REQUIRED: relink"
            ])
    }

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
