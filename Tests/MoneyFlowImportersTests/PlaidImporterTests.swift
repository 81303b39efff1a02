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
}
