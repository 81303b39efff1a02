import Foundation
import Testing

@testable import MoneyFlowPlaid

@Suite("Plaid client parts: configuration, error handling, backoff, envelopes")
struct PlaidClientPartsTests {
    @Test("PLAID_ENV: sandbox, production, a base URL; development and junk refused; missing keys named")
    func configuration() throws {
        let keys = ["PLAID_CLIENT_ID": "cid", "PLAID_SECRET": "sec"]
        #expect(
            try PlaidConfiguration.fromEnvironment(keys.merging(["PLAID_ENV": "sandbox"]) { $1 }).baseURL.absoluteString
                == "https://sandbox.plaid.com")
        #expect(
            try PlaidConfiguration.fromEnvironment(keys.merging(["PLAID_ENV": "Production"]) { $1 }).baseURL.absoluteString
                == "https://production.plaid.com")
        let custom = try PlaidConfiguration.fromEnvironment(keys.merging(["PLAID_ENV": "http://127.0.0.1:8080/"]) { $1 })
        #expect(custom.baseURL.absoluteString == "http://127.0.0.1:8080")
        #expect(custom.allowsSandboxEndpoints)
        for bad in ["development", "ftp://x", "sandbox.plaid.com", "http://h?x=1"] {
            #expect(throws: PlaidConfigurationError.self) {
                try PlaidConfiguration.fromEnvironment(keys.merging(["PLAID_ENV": bad]) { $1 })
            }
        }
        let missing = #expect(throws: PlaidConfigurationError.self) { try PlaidConfiguration.fromEnvironment(["PLAID_ENV": "sandbox"]) }
        #expect(missing?.description.contains("PLAID_CLIENT_ID") == true)
    }

    @Test("errors are handled by error_code first, then error_type, then HTTP status")
    func handling() {
        func e(_ type: String, _ code: String, _ status: Int = 400) -> PlaidAPIError {
            PlaidAPIError(httpStatus: status, errorType: type, errorCode: code, errorMessage: "m", path: "/transactions/sync")
        }
        #expect(e("TRANSACTIONS_ERROR", "TRANSACTIONS_SYNC_MUTATION_DURING_PAGINATION").handling == .restartUpdate)
        #expect(e("RATE_LIMIT_EXCEEDED", "TRANSACTIONS_SYNC_LIMIT", 429).handling == .retry)
        #expect(e("INSTITUTION_ERROR", "INSTITUTION_DOWN").handling == .retry)
        #expect(e("INSTITUTION_ERROR", "INSTITUTION_NOT_RESPONDING").handling == .retry)
        #expect(e("API_ERROR", "INTERNAL_SERVER_ERROR", 500).handling == .retry)
        #expect(e("ITEM_ERROR", "ITEM_LOGIN_REQUIRED").handling == .itemNeedsUser)
        #expect(e("ITEM_ERROR", "SOME_CODE_PLAID_ADDS_NEXT_YEAR").handling == .itemNeedsUser)
        #expect(e("INVALID_INPUT", "INVALID_ACCESS_TOKEN").handling == .itemGone)
        #expect(e("INVALID_REQUEST", "UNKNOWN_FIELDS").handling == .fatal)
        #expect(e("NEW_TYPE", "NEW_CODE", 503).handling == .retry)
        #expect(e("ITEM_ERROR", "ITEM_LOGIN_REQUIRED").description.contains("plaid link --update"))
    }

    @Test("a Plaid error body parses (the docs' rate-limit example); other bytes do not")
    func parsesErrorBodies() throws {
        let body = Data(
            #"{"error_type":"RATE_LIMIT_EXCEEDED","error_code":"ACCOUNTS_LIMIT","error_message":"rate limit exceeded","display_message":null,"request_id":"HNTDNrA8F1shFEW"}"#
                .utf8)
        let e = try #require(PlaidAPIError.parse(body, status: 429, path: "/accounts/get"))
        #expect(e.errorCode == "ACCOUNTS_LIMIT" && e.requestID == "HNTDNrA8F1shFEW" && e.displayMessage == nil && e.handling == .retry)
        #expect(PlaidAPIError.parse(Data("<html>502</html>".utf8), status: 502, path: "/x") == nil)
        #expect(PlaidAPIError.parse(Data(#"{"added": []}"#.utf8), status: 200, path: "/x") == nil)
    }

    @Test("backoff doubles from its base, rate limits start higher, no wait passes the cap, jitter stays within 50-100 %")
    func backoff() {
        let p = RetryPolicy(maxAttempts: 6, baseDelay: .seconds(1), rateLimitBaseDelay: .seconds(15), maxDelay: .seconds(60))
        #expect(p.delay(attempt: 1, rateLimited: false, unit: 1) == .seconds(1))
        #expect(p.delay(attempt: 3, rateLimited: false, unit: 1) == .seconds(4))
        #expect(p.delay(attempt: 1, rateLimited: false, unit: 0) == .milliseconds(500))
        #expect(p.delay(attempt: 1, rateLimited: true, unit: 1) == .seconds(15))
        #expect(p.delay(attempt: 3, rateLimited: true, unit: 1) == .seconds(60))
        #expect(p.delay(attempt: 30, rateLimited: true, unit: 1) == .seconds(60))
        let total = (1..<p.maxAttempts).map { p.delay(attempt: $0, rateLimited: true, unit: 1) }.reduce(Duration.zero, +)
        #expect(total <= .seconds(240))
        #expect(RetryPolicy.fromEnvironment(["MONEYFLOW_PLAID_BACKOFF_MS": "10"]).baseDelay == .milliseconds(10))
        #expect(RetryPolicy.fromEnvironment(["MONEYFLOW_PLAID_BACKOFF_MS": "-1"]).baseDelay == .seconds(1))
    }

    @Test("a sync page is archived inside its request envelope with its bytes untouched")
    func envelope() throws {
        let page = Data(
            #"{"added":[{"amount":1234.12,"transaction_id":"t"}],"modified":[],"removed":[],"next_cursor":"c2","has_more":false}"#.utf8)
        let wrapped = PlaidSyncLoop.envelope(page, cursor: "c\"1", itemID: "item-1")
        #expect(wrapped.range(of: page) != nil)
        let o = try #require(try JSONSerialization.jsonObject(with: wrapped) as? [String: Any])
        let request = try #require(o["request"] as? [String: Any])
        #expect(request["cursor"] as? String == "c\"1" && request["item_id"] as? String == "item-1")
        let first = try #require(
            try JSONSerialization.jsonObject(with: PlaidSyncLoop.envelope(page, cursor: nil, itemID: "i")) as? [String: Any])
        #expect((first["request"] as? [String: Any])?["cursor"] is NSNull)
        #expect(throws: PlaidTransportError.self) {
            try PlaidSyncLoop.checkNoToken(Data(#"{"x":"access-sandbox-1"}"#.utf8), token: "access-sandbox-1")
        }
    }

    @Test("the institution name is spliced into /accounts/get's item without touching the balances' number text")
    func institutionSplice() throws {
        let body = Data(
            #"{"accounts":[{"account_id":"a","balances":{"current":1234.12}}],"item": {"item_id":"i","institution_id":"ins_1"},"request_id":"r"}"#
                .utf8)
        let out = PlaidService.withInstitutionName(body, "First Platypus Bank")
        let text = String(decoding: out, as: UTF8.self)
        #expect(text.contains(#""current":1234.12"#))
        let o = try #require(try JSONSerialization.jsonObject(with: out) as? [String: Any])
        #expect((o["item"] as? [String: Any])?["institution_name"] as? String == "First Platypus Bank")
        let empty = PlaidService.withInstitutionName(Data(#"{"accounts":[],"item":{}}"#.utf8), "B")
        #expect((try JSONSerialization.jsonObject(with: empty) as? [String: Any]) != nil)
        let named = Data(#"{"item":{"institution_name":"X"}}"#.utf8)
        #expect(PlaidService.withInstitutionName(named, "B") == named)
    }

    @Test("archive names sort in the order they were written")
    func archiveNames() {
        let a = PlaidArchive.fileName(kind: "accounts", itemID: "item/1", at: Date(timeIntervalSince1970: 1_790_000_000))
        let b = PlaidArchive.fileName(kind: "sync", itemID: "item/1", at: Date(timeIntervalSince1970: 1_790_000_000.001))
        #expect(a < b)
        #expect(!a.contains("/"))
        #expect(PlaidArchive.besideStore("/d/ledger.sqlite").directory == "/d/ledger-plaid-archive")
    }
}
