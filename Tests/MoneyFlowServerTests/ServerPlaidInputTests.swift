import Foundation
import MoneyFlowHTTPTestSupport
import MoneyFlowTestSupport
import PlaidTestServer
import Testing

/// What the Plaid routes take and give (issue #28, item 9): `days` is a whole number 1-730 or a
/// 400, and no Plaid answer names a folder of the server.
@Suite("moneyflow serve: Plaid input and output", .serialized)
struct ServerPlaidInputTests {
    @Test("days: 7.9, \"30\", 0, 731, true and 1e3 are refused with 400 before Plaid is asked; 7 and 730 go through")
    func daysValidated() async throws {
        let (plaid, keyDir) = try await ServerPlaidTests.plaidServer()
        defer { Task { await plaid.stop() }; try? FileManager.default.removeItem(atPath: keyDir) }
        let h = try await ServeHarness.start(env: ServerPlaidTests.plaidEnvironment(plaid, keyDir: keyDir))
        let alice = try await h.addUser("alice")
        for bad in ["7.9", #""30""#, "0", "731", "-5", "true", "1e3", "7.5e0"] {
            let r = try await h.send("POST", "/v1/plaid/link-token", token: alice, body: Data(#"{"days": \#(bad)}"#.utf8))
            #expect(r.status == 400, "days \(bad): \(r.status) \(r.text)")
            #expect(r.text.contains("days"), "the message names the key: \(r.text)")
        }
        #expect(plaid.requests().filter { $0.path == "/link/token/create" }.isEmpty, "Plaid was never asked")
        for good in ["7", "730"] {
            let r = try await h.send("POST", "/v1/plaid/link-token", token: alice, body: Data(#"{"days": \#(good)}"#.utf8))
            #expect(r.status == 200, "days \(good): \(r.text)")
        }
        let days = plaid.requests().filter { $0.path == "/link/token/create" }.map { $0.json?["transactions"]?["days_requested"]?.intValue }
        #expect(days == [7, 730], "\(days)")
        await h.stop()
    }

    @Test("no Plaid answer (link, items, sync, their errors) carries the server's data folder")
    func noServerPaths() async throws {
        let (plaid, keyDir) = try await ServerPlaidTests.plaidServer()
        defer { Task { await plaid.stop() }; try? FileManager.default.removeItem(atPath: keyDir) }
        let h = try await ServeHarness.start(env: ServerPlaidTests.plaidEnvironment(plaid, keyDir: keyDir))
        let alice = try await h.addUser("alice")
        var answers: [String] = []
        let reply = try await h.send("POST", "/v1/plaid/link-token", token: alice, body: Data("{}".utf8))
        answers.append(reply.text)
        let linkToken = try #require((reply.json as? [String: Any])?["link_token"] as? String)
        let publicToken = try #require(try plaid.completeLink(linkToken: linkToken))
        let exchange = try await h.send(
            "POST", "/v1/plaid/exchange", token: alice, body: try JSONSerialization.data(withJSONObject: ["public_token": publicToken]))
        #expect(exchange.status == 200)
        answers.append(exchange.text)
        let item = try #require((exchange.json as? [String: Any])?["item_id"] as? String)
        answers.append(try await h.send("POST", "/v1/plaid/sync", token: alice, body: Data("{}".utf8)).text)
        try plaid.setItemError(itemID: item, code: "ITEM_LOGIN_REQUIRED")
        answers.append(try await h.send("POST", "/v1/plaid/sync", token: alice, body: Data("{}".utf8)).text)
        answers.append(try await h.get("/v1/plaid/items", token: alice).text)
        answers.append(try await h.send("POST", "/v1/plaid/sync", token: alice, body: Data(#"{"items": ["nope"]}"#.utf8)).text)
        for a in answers {
            #expect(!a.contains(h.data) && !a.contains(keyDir), "\(a)")
            #expect(!a.contains("/tmp/") && !a.contains("ledger.sqlite"), "\(a)")
        }
        await h.stop()
    }
}
