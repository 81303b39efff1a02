import Foundation
import MoneyFlowHTTPTestSupport
import MoneyFlowTestSupport
import PlaidTestServer
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The app's Plaid flow through `moneyflow serve`, against the Plaid-shaped server: the app
/// only ever sees a link token and hands back a public token; secrets and access tokens stay
/// on the server.
@Suite("moneyflow serve: the Plaid flow", .serialized)
struct ServerPlaidTests {
    /// The Plaid-shaped server and a folder for the server's key file.
    static func plaidServer() async throws -> (PlaidTestServer, String) {
        let plaid = try await PlaidTestServer.start()
        let keyDir = FileManager.default.temporaryDirectory.appendingPathComponent("serve-key-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: keyDir, withIntermediateDirectories: true)
        return (plaid, keyDir)
    }

    static func plaidEnvironment(_ plaid: PlaidTestServer, keyDir: String) -> [String: String] {
        [
            "PLAID_CLIENT_ID": "test-client-id", "PLAID_SECRET": "test-secret", "PLAID_ENV": plaid.baseURL,
            "MONEYFLOW_KEY_FILE": keyDir + "/plaid.key", "MONEYFLOW_PLAID_BACKOFF_MS": "2",
        ]
    }

    /// What an app does: a link token from the server, Link (the test server stands in for the
    /// user's browser), the public token back to the server. Returns the item id.
    static func linkItem(_ h: ServeHarness, _ plaid: PlaidTestServer, token: String) async throws -> String {
        let reply = try await h.send("POST", "/v1/plaid/link-token", token: token, body: Data("{}".utf8))
        let linkToken = try #require((reply.json as? [String: Any])?["link_token"] as? String, "\(reply.status) \(reply.text)")
        let publicToken = try #require(try plaid.completeLink(linkToken: linkToken))
        let exchange = try await h.send(
            "POST", "/v1/plaid/exchange", token: token, body: try JSONSerialization.data(withJSONObject: ["public_token": publicToken]))
        #expect(exchange.status == 200, "\(exchange.text)")
        return try #require((exchange.json as? [String: Any])?["item_id"] as? String)
    }

    @Test("link token -> Link -> exchange -> sync -> transactions; another user sees none of it; no token in any answer")
    func plaidFlow() async throws {
        let (plaid, keyDir) = try await Self.plaidServer()
        defer { Task { await plaid.stop() }; try? FileManager.default.removeItem(atPath: keyDir) }
        let h = try await ServeHarness.start(env: Self.plaidEnvironment(plaid, keyDir: keyDir))
        let alice = try await h.addUser("alice")
        let bob = try await h.addUser("bob")
        var answers = ""

        let tokenReply = try await h.send("POST", "/v1/plaid/link-token", token: alice, body: Data(#"{"days": 365}"#.utf8))
        #expect(tokenReply.status == 200, "\(tokenReply.text)")
        answers += tokenReply.text
        let linkToken = try #require((tokenReply.json as? [String: Any])?["link_token"] as? String)
        let publicToken = try #require(try plaid.completeLink(linkToken: linkToken))
        let bogus = try await h.send(
            "POST", "/v1/plaid/exchange", token: alice, body: Data(#"{"public_token": "public-sandbox-nope"}"#.utf8))
        #expect(bogus.status == 400, "a public token Plaid refuses is the app's error: \(bogus.text)")
        let exchange = try await h.send(
            "POST", "/v1/plaid/exchange", token: alice, body: try JSONSerialization.data(withJSONObject: ["public_token": publicToken]))
        #expect(exchange.status == 200, "\(exchange.text)")
        answers += exchange.text
        let item = try #require((exchange.json as? [String: Any])?["item_id"] as? String)
        #expect(plaid.items().first?.daysRequested == 365)

        let sync = try await h.send("POST", "/v1/plaid/sync", token: alice, body: Data("{}".utf8))
        #expect(sync.status == 200, "\(sync.text)")
        answers += sync.text
        let results = (sync.json as? [String: Any])?["items"] as? [[String: Any]] ?? []
        #expect(results.first?["outcome"] as? String == "synced")
        // The archive file by its name: the server's folders are not the app's business.
        #expect(!sync.text.contains(h.data), "\(sync.text)")
        #expect((results.first?["archive_file"] as? String)?.hasSuffix(".json") == true, "\(sync.text)")
        let ledger = try await h.allTransactions(token: alice)
        #expect(ledger.count == (try plaid.truth(itemID: item)).count)
        let items = try await h.get("/v1/plaid/items", token: alice)
        answers += items.text
        #expect(((items.json as? [String: Any])?["items"] as? [[String: Any]])?.first?["item_id"] as? String == item)

        // Bob has no items and no transactions, and cannot sync Alice's item.
        let bobItems = try await h.get("/v1/plaid/items", token: bob)
        #expect(((bobItems.json as? [String: Any])?["items"] as? [[String: Any]])?.isEmpty == true)
        #expect(try await h.allTransactions(token: bob).isEmpty)
        let steal = try await h.send(
            "POST", "/v1/plaid/sync", token: bob, body: try JSONSerialization.data(withJSONObject: ["items": [item]]))
        #expect(steal.status == 404, "\(steal.status) \(steal.text)")
        // The 404 names neither the server's ledger file nor a command line.
        #expect(
            ServerRoutesTests.errorMessage(steal) == "no Plaid item \(item) in your ledger (GET /v1/plaid/items lists yours)",
            "\(steal.text)")
        #expect(!steal.text.contains(h.data), "\(steal.text)")
        let nothingLinked = try await h.send("POST", "/v1/plaid/sync", token: bob, body: Data("{}".utf8))
        #expect(nothingLinked.status == 400, "\(nothingLinked.text)")
        #expect(!nothingLinked.text.contains(h.data) && !nothingLinked.text.contains("moneyflow"), "\(nothingLinked.text)")
        #expect(try await h.allTransactions(token: bob).isEmpty)

        for t in plaid.items().map(\.accessToken) + ["test-secret"] { #expect(!answers.contains(t)) }
        let stopped = await h.stop()
        for t in plaid.items().map(\.accessToken) + ["test-secret", publicToken] {
            #expect(!stopped.stderr.contains(t) && !stopped.stdout.contains(t), "the server log holds a secret")
        }
    }

    @Test(
        "one writing job per user: a second import while a sync runs gets 409, another user is not held up; SIGTERM lets the running sync finish"
    )
    func oneWriterPerUserAndGracefulStop() async throws {
        let (plaid, keyDir) = try await Self.plaidServer()
        defer { Task { await plaid.stop() }; try? FileManager.default.removeItem(atPath: keyDir) }
        let h = try await ServeHarness.start(env: Self.plaidEnvironment(plaid, keyDir: keyDir))
        let alice = try await h.addUser("alice")
        let bob = try await h.addUser("bob")
        _ = try await Self.linkItem(h, plaid, token: alice)

        // Alice's sync waits on Plaid (the page is held): her writing slot is taken.
        let hold = plaid.holdNext(path: "/transactions/sync")
        let syncing = Task { () async throws -> (status: Int, text: String) in
            let r = try await h.send("POST", "/v1/plaid/sync", token: alice, body: Data("{}".utf8))
            return (r.status, r.text)
        }
        await hold.waitUntilHeld()
        let csv = TestPaths.repoRoot.appendingPathComponent("Samples/cmb/cmb_pc_utf8bom.csv")
        let second = try await h.send("POST", "/v1/imports?filename=cmb_pc_utf8bom.csv", token: alice, body: try Data(contentsOf: csv))
        #expect(second.status == 409, "\(second.text)")
        #expect(((second.json as? [String: Any])?["error"] as? [String: Any])?["code"] as? String == "import_in_progress")
        let bobs = try await h.send("POST", "/v1/imports?filename=cmb_pc_utf8bom.csv", token: bob, body: try Data(contentsOf: csv))
        #expect(bobs.status == 200, "another user's import is not held up: \(bobs.text)")
        #expect(try await h.get("/v1/accounts", token: alice).status == 200, "reads go on")

        // SIGTERM while the sync is in flight: the server stops accepting, the sync completes.
        kill(h.child.pid, SIGTERM)
        try await Task.sleep(for: .milliseconds(300))
        hold.release()
        let finished = try await syncing.value
        #expect(finished.status == 200, "\(finished.text)")
        #expect(finished.text.contains(#""outcome":"synced""#), "\(finished.text)")
        let stopped = await h.stop()
        #expect(stopped.status == 0, "graceful exit: \(stopped.stderr)")
    }

    @Test("webhooks: a verified SYNC_UPDATES_AVAILABLE syncs that item in its owner's ledger; an ITEM error marks it; a forged one is 401")
    func webhooks() async throws {
        let (plaid, keyDir) = try await Self.plaidServer()
        defer { Task { await plaid.stop() }; try? FileManager.default.removeItem(atPath: keyDir) }
        let h = try await ServeHarness.start(env: Self.plaidEnvironment(plaid, keyDir: keyDir))
        let alice = try await h.addUser("alice")
        let item = try await Self.linkItem(h, plaid, token: alice)
        #expect(try await h.send("POST", "/v1/plaid/sync", token: alice, body: Data("{}".utf8)).status == 200)
        try plaid.addTransaction(
            institution: DefaultInstitution.id,
            TestTransaction(account: "checking", date: plaid.today.iso, amount: "12.34", name: "AFTER WEBHOOK"))

        func hook(_ json: String) -> Data { Data(json.utf8) }
        let update = hook(
            #"{"webhook_type":"TRANSACTIONS","webhook_code":"SYNC_UPDATES_AVAILABLE","item_id":"\#(item)","initial_update_complete":true,"historical_update_complete":true,"environment":"sandbox"}"#
        )
        // Forged: signed for another body.
        let forged = try await h.send(
            "POST", "/v1/plaid/webhook", token: nil, body: update, headers: ["Plaid-Verification": plaid.signWebhook(body: hook("{}"))])
        #expect(
            forged.status == 401 && ((forged.json as? [String: Any])?["error"] as? [String: Any])?["code"] as? String == "webhook_rejected")
        let unsigned = try await h.send("POST", "/v1/plaid/webhook", token: nil, body: update)
        #expect(unsigned.status == 401)
        let accepted = try await h.send(
            "POST", "/v1/plaid/webhook", token: nil, body: update, headers: ["Plaid-Verification": plaid.signWebhook(body: update)])
        #expect(accepted.status == 200, "\(accepted.text)")
        let want = try plaid.truth(itemID: item).count
        var got = 0
        for _ in 0..<100 where got != want {
            try await Task.sleep(for: .milliseconds(100))
            got = try await h.allTransactions(token: alice, limit: 1000).count
        }
        #expect(got == want, "the webhook's sync brought the new transaction")

        let error = hook(
            #"{"webhook_type":"ITEM","webhook_code":"ERROR","item_id":"\#(item)","error":{"error_type":"ITEM_ERROR","error_code":"ITEM_LOGIN_REQUIRED","error_message":"login required","display_message":null},"environment":"sandbox"}"#
        )
        let marked = try await h.send(
            "POST", "/v1/plaid/webhook", token: nil, body: error, headers: ["Plaid-Verification": plaid.signWebhook(body: error)])
        #expect(marked.status == 200)
        // What the webhook recorded (offline: /item/get would ask Plaid, which is fine again).
        let folders = try FileManager.default.contentsOfDirectory(atPath: h.data + "/ledgers")
        let ledger = h.data + "/ledgers/" + (try #require(folders.first)) + "/ledger.sqlite"
        let offline = try await waitOffPool(
            try MoneyFlowBinary.spawn(
                ["plaid", "items", "--offline", "--format", "json", "--store", ledger], env: ["MONEYFLOW_KEY_FILE": keyDir + "/plaid.key"]))
        #expect(offline.stdout.contains(#""status": "needs_user""#), "\(offline.stdout) \(offline.stderr)")
        await h.stop()
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
