import Foundation
import MoneyFlowHTTPTestSupport
import MoneyFlowPlaid
import MoneyFlowTestSupport
import PlaidTestServer
import Testing

/// `moneyflow serve`'s Plaid side under hostile clients (issue #28): forged and replayed
/// webhooks, counted in calls the Plaid-shaped server receives.
@Suite("moneyflow serve: Plaid under hostile load", .serialized)
struct ServerPlaidHostileTests {
    static func webhook(_ item: String) -> Data {
        Data(
            #"{"webhook_type":"TRANSACTIONS","webhook_code":"SYNC_UPDATES_AVAILABLE","item_id":"\#(item)","initial_update_complete":true,"historical_update_complete":true,"environment":"sandbox"}"#
                .utf8)
    }

    /// A forger's JWT: a genuine one's claims (fresh `iat`, the body's digest) under a header
    /// naming another kid, so only Plaid's key could tell it is false.
    static func forged(_ genuine: String, kid: String) -> String {
        let header = Data(#"{"alg":"ES256","kid":"\#(kid)","typ":"JWT"}"#.utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        let parts = genuine.split(separator: ".")
        return "\(header).\(parts[1]).\(parts[2])"
    }

    /// Sends `count` requests made by `make`, `width` at a time; their statuses.
    static func flood(_ count: Int, width: Int = 16, _ send: @escaping @Sendable (Int) async throws -> Int) async throws -> [Int] {
        try await withThrowingTaskGroup(of: Int.self) { group in
            var statuses: [Int] = []
            for n in 0..<count {
                if n >= width, let s = try await group.next() { statuses.append(s) }
                group.addTask { try await send(n) }
            }
            for try await s in group { statuses.append(s) }
            return statuses
        }
    }

    @Test("300 forged webhooks (every kid new) cause at most 5 calls to Plaid; beyond the key budget: 503 webhook_throttled")
    func forgedWebhooks() async throws {
        let plaid = try await PlaidTestServer.start(withDefaultInstitution: false)
        defer { Task { await plaid.stop() } }
        let configuration = PlaidConfiguration(
            clientID: "test-client-id", secret: "test-secret", baseURL: URL(string: plaid.baseURL)!, environmentName: "custom")
        try await InProcessServer.run(plaid: configuration) { h in
            let body = Self.webhook("item-x")
            let genuine = plaid.signWebhook(body: body)
            let replies = try await withThrowingTaskGroup(of: (Int, String).self) { group in
                for _ in 0..<300 {
                    group.addTask {
                        let r = try await h.send(
                            "POST", "/v1/plaid/webhook", token: nil, body: body,
                            headers: ["Plaid-Verification": Self.forged(genuine, kid: UUID().uuidString.lowercased())])
                        return (r.status, ((r.json as? [String: Any])?["error"] as? [String: Any])?["code"] as? String ?? "")
                    }
                }
                return try await group.reduce(into: [(Int, String)]()) { $0.append($1) }
            }
            #expect(replies.allSatisfy { $0.0 == 401 || $0.0 == 503 }, "\(Set(replies.map(\.0)))")
            #expect(replies.contains { $0.0 == 503 && $0.1 == "webhook_throttled" })
            #expect(plaid.requests().count <= 5, "\(plaid.requests().count) calls to Plaid")
        }
    }

    @Test("a genuine webhook replayed 200 times and 20 new ones while its sync runs: 2 syncs (one running, one queued)")
    func replaysAndBurstsCoalesce() async throws {
        let (plaid, keyDir) = try await ServerPlaidTests.plaidServer()
        defer { Task { await plaid.stop() }; try? FileManager.default.removeItem(atPath: keyDir) }
        let h = try await ServeHarness.start(env: ServerPlaidTests.plaidEnvironment(plaid, keyDir: keyDir))
        let alice = try await h.addUser("alice")
        let item = try await ServerPlaidTests.linkItem(h, plaid, token: alice)
        #expect(try await h.send("POST", "/v1/plaid/sync", token: alice, body: Data("{}".utf8)).status == 200)
        func syncCalls() -> Int { plaid.requests().filter { $0.path == "/transactions/sync" }.count }
        let before = syncCalls()

        let hold = plaid.holdNext(path: "/transactions/sync")
        let body = Self.webhook(item)
        let header = plaid.signWebhook(body: body)
        let first = try await h.send("POST", "/v1/plaid/webhook", token: nil, body: body, headers: ["Plaid-Verification": header])
        #expect(first.status == 200, "\(first.text)")
        await hold.waitUntilHeld()
        let replays = try await Self.flood(200) { _ in
            try await h.send("POST", "/v1/plaid/webhook", token: nil, body: body, headers: ["Plaid-Verification": header]).status
        }
        #expect(replays.allSatisfy { $0 == 401 }, "\(Set(replays))")
        // New deliveries (each its own iat, so its own JWT) while the first sync runs.
        let base = Date().addingTimeInterval(-30)
        let fresh = try await Self.flood(20) { n in
            let h2 = plaid.signWebhook(body: body, issuedAt: base.addingTimeInterval(-Double(n)))
            return try await h.send("POST", "/v1/plaid/webhook", token: nil, body: body, headers: ["Plaid-Verification": h2]).status
        }
        #expect(fresh.allSatisfy { $0 == 200 }, "\(Set(fresh))")
        hold.release()
        // Until the Plaid server has heard nothing new for a while (bounded).
        var last = -1
        for _ in 0..<40 where last != syncCalls() {
            last = syncCalls()
            try await Task.sleep(for: .milliseconds(500))
        }
        #expect(syncCalls() - before == 2, "\(syncCalls() - before) sync pages fetched")
        #expect(try await h.send("POST", "/v1/plaid/sync", token: alice, body: Data("{}".utf8)).status == 200, "the user's slot is free")
        await h.stop()
    }
}
