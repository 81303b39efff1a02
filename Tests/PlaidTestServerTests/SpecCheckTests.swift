import Testing

@testable import PlaidTestServer

/// The pieces under the HTTP layer: exact JSON numbers, days, and the spec-driven validator.
@Suite struct SpecCheckTests {
    let validator = PlaidSchemas.spec

    func problem(_ path: String, _ json: String) throws -> PlaidAPIError? {
        validator.problem(in: try PlaidJSON.parse(json), path: path)
    }

    @Test func numbersKeepTheirText() throws {
        let value = try PlaidJSON.parse(#"{"amount": 1234.12, "small": -0.10, "name": "caf\u00e9 \ud83d\ude00"}"#)
        #expect(value["amount"] == .number("1234.12") && value["small"] == .number("-0.10"))
        #expect(value["name"] == .string("café 😀"))
        #expect(value.serialized() == #"{"amount":1234.12,"name":"café 😀","small":-0.10}"#)
        #expect(throws: PlaidJSONError.self) { try PlaidJSON.parse(#"{"a":1,"a":2}"#) }
        #expect(throws: PlaidJSONError.self) { try PlaidJSON.parse(#"{"a":1} x"#) }
        #expect(throws: PlaidJSONError.self) { try PlaidJSON.parse(#"{"a":01}"#) }
        #expect(throws: PlaidJSONError.self) { try PlaidJSON.parse(#""\ud83d""#) }
    }

    @Test func daysAreCalendarDays() {
        #expect(PlaidDay(iso: "1970-01-01")?.dayNumber == 0)
        #expect(PlaidDay(iso: "2024-02-29")?.adding(days: 1).iso == "2024-03-01")
        #expect(PlaidDay(iso: "2023-02-29") == nil && PlaidDay(iso: "2023-2-01") == nil && PlaidDay(iso: "2023-13-01") == nil)
        #expect(PlaidDay(iso: "2026-11-24")!.adding(days: -730).iso == "2024-11-24")
    }

    @Test func validatorFollowsTheSpec() throws {
        let token = #""client_id":"c","secret":"s","access_token":"access-sandbox-x""#
        #expect(try problem("/transactions/sync", "{\(token),\"count\":500}") == nil)
        #expect(try problem("/transactions/sync", "{\(token),\"count\":\"7\"}")?.message == "count must be of type integer")
        #expect(
            try problem("/transactions/sync", "{\(token),\"options\":{\"days_requested\":0}}")?.message
                == "options.days_requested must be at least 1")
        #expect(try problem("/transactions/sync", "{\(token),\"options\":null}")?.code == "INVALID_FIELD")
        #expect(try problem("/transactions/sync", "{\(token),\"options\":{\"include_original_description\":null}}") == nil)
        // Closed enums from the spec.
        #expect(try problem("/item/remove", "{\(token),\"reason_code\":\"OTHER\"}") == nil)
        #expect(try problem("/item/remove", "{\(token),\"reason_code\":\"BORED\"}")?.code == "INVALID_FIELD")
        // `allOf` members are merged: user.address requires country.
        let link = #""client_name":"n","language":"en","country_codes":["US"],"products":["transactions"]"#
        let missing = try problem("/link/token/create", "{\(link),\"user\":{\"client_user_id\":\"u\",\"address\":{\"city\":\"x\"}}}")
        #expect(missing?.code == "MISSING_FIELDS" && missing?.message.hasSuffix("user.address.country") == true)
        // additionalProperties: true in the spec lets unknown keys through there only.
        #expect(try problem("/link/token/create", "{\(link),\"user\":{\"client_user_id\":\"u\"},\"account_filters\":{\"x\":1}}") == nil)
        #expect(
            try problem("/link/token/create", "{\(link),\"user\":{\"client_user_id\":\"u\"},\"transactions\":{\"x\":1}}")?.code
                == "UNKNOWN_FIELDS")
        // Missing fields outrank unknown ones, which outrank invalid values.
        #expect(try problem("/transactions/sync", #"{"count":0,"extra":1}"#)?.code == "MISSING_FIELDS")
        #expect(try problem("/transactions/sync", "{\(token),\"count\":0,\"extra\":1}")?.code == "UNKNOWN_FIELDS")
        #expect(validator.paths.count == 9)
    }

    @Test func responseCheckCatchesOffSpecAnswers() throws {
        let page =
            #"{"added":[],"modified":[],"removed":[],"accounts":[],"next_cursor":"","request_id":"r","transactions_update_status":"DONE"}"#
        let problems = validator.responseProblems(in: try PlaidJSON.parse(page), path: "/transactions/sync", status: 200)
        #expect(problems.contains("missing has_more"))
        #expect(problems.contains { $0.hasPrefix("transactions_update_status must be one of") })
        let error = #"{"error_type":"ITEM_ERROR","error_message":"m","display_message":null}"#
        #expect(validator.responseProblems(in: try PlaidJSON.parse(error), path: "/accounts/get", status: 400) == ["missing error_code"])
    }

    @Test func defaultHistoryIsSeededAndRelativeToToday() async throws {
        let today = try #require(PlaidDay(iso: "2026-03-10"))
        var contents: [[String]] = []
        for _ in 0..<2 {
            let server = try await PlaidTestServer.start(today: today)
            let (_, itemID) = try await PlaidCalls(server: server).link(days: 730)
            let truth = try server.truth(itemID: itemID)
            await server.stop()
            contents.append(truth.map { "\($0.bankID) \($0.date) \($0.amount) \($0.name) \($0.pending)" })
            #expect(truth.allSatisfy { $0.date >= "2024-03-10" && $0.date <= "2026-03-10" })
            #expect(truth.filter(\.pending).count == DefaultInstitution.pendingCount)
        }
        #expect(contents[0] == contents[1])
        #expect((60...120).contains(contents[0].count))
    }
}
