import Foundation
import MoneyFlowHTTPTestSupport
import MoneyFlowTestSupport
import PlaidTestServer
import Testing

/// The app's Plaid flow through `moneyflow serve`, against the Plaid-shaped server: the app
/// only ever sees a link token and hands back a public token; secrets and access tokens stay
/// on the server.
@Suite("moneyflow serve: the Plaid flow", .serialized)
struct ServerPlaidTests {
    @Test("link token -> Link -> exchange -> sync -> transactions; another user sees none of it; no token in any answer")
    func plaidFlow() async throws {
        let plaid = try await PlaidTestServer.start()
        defer { Task { await plaid.stop() } }
        let keyDir = FileManager.default.temporaryDirectory.appendingPathComponent("serve-key-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: keyDir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: keyDir) }
        let h = try await ServeHarness.start(env: [
            "PLAID_CLIENT_ID": "test-client-id", "PLAID_SECRET": "test-secret", "PLAID_ENV": plaid.baseURL,
            "MONEYFLOW_KEY_FILE": keyDir + "/plaid.key", "MONEYFLOW_PLAID_BACKOFF_MS": "2",
        ])
        let alice = try await h.addUser("alice")
        let bob = try await h.addUser("bob")
        var answers = ""

        let tokenReply = try await h.send("POST", "/v1/plaid/link-token", token: alice, body: Data(#"{"days": 365}"#.utf8))
        #expect(tokenReply.status == 200, "\(tokenReply.text)")
        answers += tokenReply.text
        let linkToken = try #require((tokenReply.json as? [String: Any])?["link_token"] as? String)
        let publicToken = try #require(try plaid.completeLink(linkToken: linkToken))
        let exchange = try await h.send("POST", "/v1/plaid/exchange", token: alice, body: try JSONSerialization.data(withJSONObject: ["public_token": publicToken]))
        #expect(exchange.status == 200, "\(exchange.text)")
        answers += exchange.text
        let item = try #require((exchange.json as? [String: Any])?["item_id"] as? String)
        #expect(plaid.items().first?.daysRequested == 365)

        let sync = try await h.send("POST", "/v1/plaid/sync", token: alice, body: Data("{}".utf8))
        #expect(sync.status == 200, "\(sync.text)")
        answers += sync.text
        let results = (sync.json as? [String: Any])?["items"] as? [[String: Any]] ?? []
        #expect(results.first?["outcome"] as? String == "synced")
        let ledger = try await h.allTransactions(token: alice)
        #expect(ledger.count == (try plaid.truth(itemID: item)).count)
        let items = try await h.get("/v1/plaid/items", token: alice)
        answers += items.text
        #expect(((items.json as? [String: Any])?["items"] as? [[String: Any]])?.first?["item_id"] as? String == item)

        // Bob has no items and no transactions, and cannot sync Alice's item.
        let bobItems = try await h.get("/v1/plaid/items", token: bob)
        #expect(((bobItems.json as? [String: Any])?["items"] as? [[String: Any]])?.isEmpty == true)
        #expect(try await h.allTransactions(token: bob).isEmpty)
        let steal = try await h.send("POST", "/v1/plaid/sync", token: bob, body: try JSONSerialization.data(withJSONObject: ["items": [item]]))
        #expect(steal.status == 400 || steal.status == 404, "\(steal.text)")
        #expect(try await h.allTransactions(token: bob).isEmpty)

        for t in plaid.items().map(\.accessToken) + ["test-secret"] { #expect(!answers.contains(t)) }
        let stopped = await h.stop()
        for t in plaid.items().map(\.accessToken) + ["test-secret", publicToken] {
            #expect(!stopped.stderr.contains(t) && !stopped.stdout.contains(t), "the server log holds a secret")
        }
    }

    @Test("without Plaid keys the Plaid routes answer 503 plaid_not_configured")
    func notConfigured() async throws {
        let h = try await ServeHarness.start(env: ["PLAID_CLIENT_ID": "", "PLAID_SECRET": "", "PLAID_ENV": ""])
        let token = try await h.addUser("erin")
        let r = try await h.send("POST", "/v1/plaid/link-token", token: token, body: Data("{}".utf8))
        #expect(r.status == 503 && ((r.json as? [String: Any])?["error"] as? [String: Any])?["code"] as? String == "plaid_not_configured")
        await h.stop()
    }
}
