import Foundation
import MoneyFlowHTTPTestSupport
import MoneyFlowTestSupport
import PlaidTestServer
import Testing

/// `serve --plaid-sync-every`: the server syncs every user's items by itself, shows when in
/// `GET /v1/plaid/items`, and leaves alone an item that needs its user (issue #28, item 10).
@Suite("moneyflow serve: scheduled Plaid syncs", .serialized)
struct ServerPlaidScheduleTests {
    static func items(_ h: ServeHarness, _ token: String) async throws -> [[String: Any]] {
        let r = try await h.get("/v1/plaid/items", token: token)
        #expect(r.status == 200, "\(r.text)")
        return (r.json as? [String: Any])?["items"] as? [[String: Any]] ?? []
    }

    /// Waits (bounded) until `condition` holds.
    static func eventually(_ seconds: Int = 30, _ condition: () async throws -> Bool) async throws -> Bool {
        for _ in 0..<(seconds * 4) {
            if try await condition() { return true }
            try await Task.sleep(for: .milliseconds(250))
        }
        return try await condition()
    }

    @Test("every user's item is synced on schedule without a request; the times show in the items; an item needing login is skipped")
    func schedule() async throws {
        let (plaid, keyDir) = try await ServerPlaidTests.plaidServer()
        defer { Task { await plaid.stop() }; try? FileManager.default.removeItem(atPath: keyDir) }
        let h = try await ServeHarness.start(
            env: ServerPlaidTests.plaidEnvironment(plaid, keyDir: keyDir), extraArgs: ["--plaid-sync-every", "2s"])
        let alice = try await h.addUser("alice")
        let bob = try await h.addUser("bob")
        let aliceItem = try await ServerPlaidTests.linkItem(h, plaid, token: alice)
        let bobItem = try await ServerPlaidTests.linkItem(h, plaid, token: bob)
        try plaid.addTransaction(
            institution: DefaultInstitution.id,
            TestTransaction(account: "checking", date: plaid.today.iso, amount: "7.25", name: "SCHEDULED SYNC BRINGS ME"))

        // No POST /v1/plaid/sync: the schedule brings both users' transactions.
        for (token, item) in [(alice, aliceItem), (bob, bobItem)] {
            let want = try plaid.truth(itemID: item).count
            #expect(try await Self.eventually { try await h.allTransactions(token: token, limit: 1000).count == want }, "\(item)")
        }
        let listed = try #require(try await Self.items(h, alice).first)
        #expect(listed["last_auto_sync_at"] is String && listed["next_auto_sync_at"] is String, "\(listed)")

        // Alice's bank wants her to log in again: the next scheduled sync finds out, and then
        // the schedule leaves the item alone while Bob's goes on.
        try plaid.setItemError(itemID: aliceItem, code: "ITEM_LOGIN_REQUIRED")
        #expect(try await Self.eventually { try await Self.items(h, alice).first?["status"] as? String == "needs_user" })
        let token = try #require(plaid.items().first { $0.itemID == aliceItem }?.accessToken)
        func syncs(_ accessToken: String) -> Int {
            plaid.requests().filter { $0.path == "/transactions/sync" && $0.json?["access_token"]?.stringValue == accessToken }.count
        }
        let bobToken = try #require(plaid.items().first { $0.itemID == bobItem }?.accessToken)
        try await Task.sleep(for: .seconds(1))
        let (aliceBefore, bobBefore) = (syncs(token), syncs(bobToken))
        #expect(try await Self.eventually { syncs(bobToken) >= bobBefore + 2 }, "Bob's item stays on the schedule")
        #expect(syncs(token) == aliceBefore, "an item needing login is not synced by the schedule")
        #expect(try await Self.items(h, alice).first?["next_auto_sync_at"] is NSNull)
        await h.stop()
    }
}
