import PlaidTestServer
import Testing

@Suite struct ErrorTests {
    @Test func unknownFieldIsRejected() async throws {
        try await withServer { _, calls in
            let (token, _) = try await calls.link()
            let reply = try await calls.post("/transactions/sync", ["access_token": .string(token), "since": .string("x")])
            #expect(reply.status == 400 && reply.errorType == "INVALID_REQUEST" && reply.errorCode == "UNKNOWN_FIELDS")
            #expect(reply.json["error_message"]?.stringValue?.hasSuffix(": since") == true)
            #expect(reply.json["display_message"] == .null && reply.json["request_id"]?.stringValue != nil)
        }
    }

    @Test func missingPlaidVersionIsRejected() async throws {
        try await withServer { _, calls in
            let (token, _) = try await calls.link()
            let missing = try await calls.post(
                "/accounts/get", ["access_token": .string(token)], headers: [("Content-Type", "application/json")])
            #expect(missing.status == 400 && missing.errorType == "INVALID_REQUEST" && missing.errorCode == "INVALID_HEADERS")
            let wrong = try await calls.post(
                "/accounts/get", ["access_token": .string(token)],
                headers: [("Content-Type", "application/json"), ("Plaid-Version", "2019-05-29")])
            #expect(wrong.errorCode == "INVALID_HEADERS")
        }
    }

    @Test func credentialsAreChecked() async throws {
        try await withServer { server, calls in
            let (token, _) = try await calls.link()
            var wrong = calls
            wrong.secret = "not-the-secret"
            let reply = try await wrong.post("/accounts/get", ["access_token": .string(token)])
            #expect(reply.status == 400 && reply.errorType == "INVALID_INPUT" && reply.errorCode == "INVALID_API_KEYS")
            #expect(!reply.raw.contains("not-the-secret") && !reply.raw.contains(token))
            let none = try await calls.post("/accounts/get", ["access_token": .string(token)], credentials: false)
            #expect(none.errorCode == "MISSING_FIELDS" && none.json["error_message"]?.stringValue?.hasSuffix("client_id, secret") == true)
            // The header form Plaid also accepts.
            let viaHeaders = try await calls.post(
                "/accounts/get", ["access_token": .string(token)], credentials: false,
                headers: [
                    ("Plaid-Version", "2020-09-14"), ("Content-Type", "application/json"),
                    ("PLAID-CLIENT-ID", "test-client-id"), ("PLAID-SECRET", "test-secret"),
                ])
            #expect(viaHeaders.status == 200)
            // What the client sent is recorded for tests of the client.
            let recorded = server.requests().last
            #expect(recorded?.path == "/accounts/get" && recorded?.headers["plaid-secret"] == "test-secret" && recorded?.status == 200)
        }
    }

    @Test func countAndCursorBoundsAreChecked() async throws {
        try await withServer { _, calls in
            let (token, _) = try await calls.link()
            let tooMany = try await calls.sync(token, cursor: nil, count: 501)
            #expect(tooMany.status == 400 && tooMany.errorCode == "INVALID_FIELD")
            #expect(tooMany.json["error_message"]?.stringValue == "count must be at most 500")
            #expect(try await calls.sync(token, cursor: nil, count: 0).errorCode == "INVALID_FIELD")
            #expect(try await calls.sync(token, cursor: nil, count: 500).status == 200)
            let fractional = try await calls.post("/transactions/sync", ["access_token": .string(token), "count": .number("7.5")])
            #expect(fractional.errorCode == "INVALID_FIELD")
            let longCursor = try await calls.sync(token, cursor: String(repeating: "A", count: 257), count: nil)
            #expect(longCursor.errorCode == "INVALID_FIELD")
            let forged = try await calls.sync(token, cursor: "bm90IGEgY3Vyc29y", count: nil)
            #expect(forged.errorCode == "INVALID_FIELD")
            let missingToken = try await calls.post("/transactions/sync", [:])
            #expect(
                missingToken.errorCode == "MISSING_FIELDS"
                    && missingToken.json["error_message"]?.stringValue?.hasSuffix("access_token") == true)
            let notJSON = try await calls.postRaw("/transactions/sync", "{\"access_token\": ")
            #expect(notJSON.status == 400 && notJSON.errorCode == "INVALID_BODY")
        }
    }

    @Test func removedItemTokenIsRejected() async throws {
        try await withServer { server, calls in
            let (token, itemID) = try await calls.link()
            let removed = try await calls.post("/item/remove", ["access_token": .string(token)])
            #expect(removed.status == 200 && removed.json["request_id"] != nil)
            for path in ["/transactions/sync", "/accounts/get", "/item/get"] {
                let reply = try await calls.post(path, ["access_token": .string(token)])
                #expect(reply.status == 400 && reply.errorType == "ITEM_ERROR" && reply.errorCode == "ITEM_NOT_FOUND")
                // Error bodies never echo the token: a client printing them leaks nothing.
                #expect(!reply.raw.contains(token))
            }
            #expect(server.items().first { $0.itemID == itemID }?.removed == true)
            let unknown = try await calls.post(
                "/accounts/get", ["access_token": .string("access-sandbox-00000000-0000-0000-0000-000000000000")])
            #expect(unknown.errorType == "INVALID_INPUT" && unknown.errorCode == "INVALID_ACCESS_TOKEN")
        }
    }

    @Test func syncRateLimitIsFiftyPerMinutePerItem() async throws {
        try await withServer { _, calls in
            let (token, _) = try await calls.link()
            let (other, _) = try await calls.link()
            for _ in 0..<50 { #expect(try await calls.sync(token, cursor: nil, count: 1).status == 200) }
            let limited = try await calls.sync(token, cursor: nil, count: 1)
            #expect(limited.status == 429 && limited.errorType == "RATE_LIMIT_EXCEEDED" && limited.errorCode == "TRANSACTIONS_SYNC_LIMIT")
            // Per item: another item is not limited.
            #expect(try await calls.sync(other, cursor: nil, count: 1).status == 200)
        }
    }

    @Test func refreshRateLimitIsTwoPerMinute() async throws {
        try await withServer { _, calls in
            let (token, _) = try await calls.link()
            for _ in 0..<2 { #expect(try await calls.post("/transactions/refresh", ["access_token": .string(token)]).status == 200) }
            let limited = try await calls.post("/transactions/refresh", ["access_token": .string(token)])
            #expect(limited.status == 429 && limited.errorCode == "TRANSACTIONS_REFRESH_LIMIT")
        }
    }

    @Test func itemErrorsAndInjectedFailures() async throws {
        try await withServer { server, calls in
            let (token, itemID) = try await calls.link()
            try server.setItemError(itemID: itemID, code: "ITEM_LOGIN_REQUIRED")
            let sync = try await calls.sync(token, cursor: nil, count: nil)
            #expect(sync.status == 400 && sync.errorType == "ITEM_ERROR" && sync.errorCode == "ITEM_LOGIN_REQUIRED")
            let item = try await calls.post("/item/get", ["access_token": .string(token)])
            #expect(item.status == 200 && item.json["item"]?["error"]?["error_code"] == .string("ITEM_LOGIN_REQUIRED"))
            #expect(item.json["item"]?["institution_name"] == .string(DefaultInstitution.name))
            #expect(item.json["status"]?["transactions"]?["last_successful_update"]?.stringValue?.hasSuffix("Z") == true)
            #expect(item.json["status"]?["transactions"]?["last_failed_update"]?.stringValue != nil)
            try server.setItemError(itemID: itemID, code: nil)

            server.failNext(path: "/transactions/sync", itemID: itemID, times: 2, kind: .internalError)
            let first = try await calls.sync(token, cursor: nil, count: nil)
            #expect(first.status == 500 && first.errorType == "API_ERROR" && first.errorCode == "INTERNAL_SERVER_ERROR")
            #expect(try await calls.sync(token, cursor: nil, count: nil).status == 500)
            #expect(try await calls.sync(token, cursor: nil, count: nil).status == 200)
            server.failNext(path: "/transactions/sync", kind: .rateLimit)
            let limited = try await calls.sync(token, cursor: nil, count: nil)
            #expect(limited.status == 429 && limited.errorCode == "TRANSACTIONS_SYNC_LIMIT")
            server.failNext(path: "/transactions/refresh", kind: .institutionDown)
            let down = try await calls.post("/transactions/refresh", ["access_token": .string(token)])
            #expect(down.status == 400 && down.errorType == "INSTITUTION_ERROR" && down.errorCode == "INSTITUTION_DOWN")
            #expect(try await calls.post("/transactions/refresh", ["access_token": .string(token)]).status == 200)
        }
    }
}
