import PlaidTestServer
import Testing

@Suite struct LinkTests {
    @Test func sandboxLinkThenAccountsGet() async throws {
        try await withServer { server, calls in
            let (token, itemID) = try await calls.link()
            #expect(token.hasPrefix("access-sandbox-"))
            #expect(itemID.count == 37 && itemID.allSatisfy { $0.isLetter || $0.isNumber })
            let reply = try await calls.post("/accounts/get", ["access_token": .string(token)])
            #expect(reply.status == 200)
            let accounts = try #require(reply.json["accounts"]?.arrayValue)
            #expect(accounts.compactMap { $0["mask"]?.stringValue } == ["0000", "1111", "3333"])
            #expect(
                accounts.map { $0["account_id"]?.stringValue }
                    == ["checking", "savings", "credit"].map { server.items()[0].accountIDs[$0] })
            // Balances leave the server exactly as written, as JSON numbers.
            #expect(accounts[2]["balances"]?["current"] == .number("410.27"))
            #expect(reply.raw.contains("\"limit\":5000.00"))
            #expect(reply.json["item"]?["item_id"]?.stringValue == itemID)
            #expect(reply.json["item"]?["institution_id"]?.stringValue == DefaultInstitution.id)
            #expect(reply.json["request_id"]?.stringValue?.count == 15)
            #expect(server.items().map(\.itemID) == [itemID])
        }
    }

    @Test func publicTokenIsSingleUse() async throws {
        try await withServer { _, calls in
            let created = try await calls.post(
                "/sandbox/public_token/create",
                [
                    "institution_id": .string(DefaultInstitution.id), "initial_products": .array([.string("transactions")]),
                ])
            let publicToken = try #require(created.json["public_token"]?.stringValue)
            #expect(publicToken.hasPrefix("public-sandbox-"))
            let first = try await calls.post("/item/public_token/exchange", ["public_token": .string(publicToken)])
            #expect(first.status == 200)
            let second = try await calls.post("/item/public_token/exchange", ["public_token": .string(publicToken)])
            #expect(second.status == 400)
            #expect(second.errorCode == "INVALID_PUBLIC_TOKEN")
        }
    }

    @Test func unknownInstitutionIsRefused() async throws {
        try await withServer { _, calls in
            let reply = try await calls.post(
                "/sandbox/public_token/create",
                [
                    "institution_id": .string("ins_nope"), "initial_products": .array([.string("transactions")]),
                ])
            #expect(reply.status == 400 && reply.errorCode == "INVALID_INSTITUTION")
        }
    }

    @Test func linkTokenThenLinkCompletesWithDaysRequested() async throws {
        try await withServer { server, calls in
            let reply = try await calls.post(
                "/link/token/create",
                [
                    "client_name": .string("MoneyFlow"), "language": .string("en"), "country_codes": .array([.string("US")]),
                    "user": .object(["client_user_id": .string("local-user")]), "products": .array([.string("transactions")]),
                    "transactions": .object(["days_requested": .number("730")]),
                ])
            #expect(reply.status == 200)
            let linkToken = try #require(reply.json["link_token"]?.stringValue)
            #expect(linkToken.hasPrefix("link-sandbox-"))
            #expect(reply.json["expiration"]?.stringValue?.hasSuffix("Z") == true)
            let publicToken = try #require(try server.completeLink(linkToken: linkToken))
            let exchanged = try await calls.post("/item/public_token/exchange", ["public_token": .string(publicToken)])
            #expect(exchanged.status == 200)
            #expect(server.items().first?.daysRequested == 730)
        }
    }

    @Test func linkTokenRequestsAreCheckedAgainstTheSpec() async throws {
        try await withServer { _, calls in
            let base: [String: PlaidJSON] = [
                "client_name": .string("MoneyFlow"), "language": .string("en"), "country_codes": .array([.string("US")]),
                "user": .object(["client_user_id": .string("u")]), "products": .array([.string("transactions")]),
            ]
            var noName = base
            noName["client_name"] = nil
            let missing = try await calls.post("/link/token/create", noName)
            #expect(missing.errorCode == "MISSING_FIELDS" && missing.json["error_message"]?.stringValue?.contains("client_name") == true)
            var badCountry = base
            badCountry["country_codes"] = .array([.string("XX")])
            #expect(try await calls.post("/link/token/create", badCountry).errorCode == "INVALID_FIELD")
            var tooManyDays = base
            tooManyDays["transactions"] = .object(["days_requested": .number("731")])
            #expect(try await calls.post("/link/token/create", tooManyDays).errorCode == "INVALID_FIELD")
            var nestedUnknown = base
            nestedUnknown["user"] = .object(["client_user_id": .string("u"), "nickname": .string("x")])
            let unknown = try await calls.post("/link/token/create", nestedUnknown)
            #expect(unknown.errorCode == "UNKNOWN_FIELDS" && unknown.json["error_message"]?.stringValue?.hasSuffix("user.nickname") == true)
            #expect(try await calls.post("/link/token/create", base).status == 200)
        }
    }

    @Test func updateModeRepairsTheItemAndAddsNewAccounts() async throws {
        try await withServer { server, calls in
            let (token, itemID) = try await calls.link()
            try server.setItemError(itemID: itemID, code: "ITEM_LOGIN_REQUIRED")
            let failing = try await calls.post("/accounts/get", ["access_token": .string(token)])
            #expect(failing.status == 400 && failing.errorType == "ITEM_ERROR" && failing.errorCode == "ITEM_LOGIN_REQUIRED")
            try server.addAccount(
                institution: DefaultInstitution.id,
                TestAccount(
                    key: "cd", name: "Plaid CD", mask: "2222", type: "depository", subtype: "cd", current: "1000.00"))
            var request: [String: PlaidJSON] = [
                "client_name": .string("MoneyFlow"), "language": .string("en"), "country_codes": .array([.string("US")]),
                "user": .object(["client_user_id": .string("u")]), "access_token": .string(token),
                "update": .object(["account_selection_enabled": .bool(true)]),
            ]
            request["products"] = .array([.string("transactions")])
            #expect(try await calls.post("/link/token/create", request).errorCode == "INVALID_FIELD")
            request["products"] = nil
            let reply = try await calls.post("/link/token/create", request)
            let linkToken = try #require(reply.json["link_token"]?.stringValue)
            #expect(try server.completeLink(linkToken: linkToken) == nil)
            let repaired = try await calls.post("/accounts/get", ["access_token": .string(token)])
            #expect(repaired.status == 200)
            #expect(repaired.json["accounts"]?.arrayValue?.compactMap { $0["mask"]?.stringValue } == ["0000", "1111", "3333", "2222"])
        }
    }
}
