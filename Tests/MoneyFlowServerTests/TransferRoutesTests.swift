import Foundation
import MoneyFlowHTTPTestSupport
import MoneyFlowTestSupport
import Testing

/// `/v1/transfers` on the server's router (in process): what the CLI's `transfers`, `link --transfer` and
/// `unlink --transfer` do, over HTTP, within the caller's own ledger only.
@Suite("moneyflow serve: transfers between own accounts", .serialized)
struct TransferRoutesTests {
    @Test("the card payments of the Chase files are transfers; unlink and link decide; another user's ids are 404")
    func transfersOverHTTP() async throws {
        try await InProcessServer.run { h in
            let alice = try await h.addUser("alice")
            let bob = try await h.addUser("bob")
            let e2e = ServerEndToEndTests()
            for name in ["chase_checking.csv", "chase_card.csv"] {
                let f = (path: TestPaths.samples.appendingPathComponent("csv/" + name).path, password: String?.none, account: String?.none)
                let r = try await e2e.upload(h, token: alice, f)
                #expect(r.status == 200, "\(name): \(r.text)")
            }
            func transfers(_ token: String) async throws -> (linked: [[String: Any]], review: [[String: Any]]) {
                let r = try await h.get("/v1/transfers", token: token)
                #expect(r.status == 200, "\(r.text)")
                let o = r.json as? [String: Any] ?? [:]
                return ((o["transfers"] as? [[String: Any]]) ?? [], (o["review"] as? [[String: Any]]) ?? [])
            }
            let first = try await transfers(alice)
            #expect(first.linked.count == 2)
            #expect(first.review.isEmpty)
            let amounts = first.linked.compactMap { ($0["out"] as? [String: Any])?["amount"] as? String }.sorted()
            #expect(amounts == ["-1264.18", "-987.45"])
            #expect(first.linked.allSatisfy { $0["decided_by"] as? String == "auto" })
            let jan = try #require(first.linked.first { ($0["out"] as? [String: Any])?["amount"] as? String == "-1264.18" })
            let out = try #require((jan["out"] as? [String: Any])?["id"] as? Int)
            let into = try #require((jan["in"] as? [String: Any])?["id"] as? Int)

            // Bob sees nothing of Alice's, and cannot touch her transactions.
            #expect(try await transfers(bob).linked.isEmpty)
            #expect(try await h.send("DELETE", "/v1/transfers/\(out)", token: bob).status == 404)

            let unlinked = try await h.send("DELETE", "/v1/transfers/\(out)", token: alice)
            #expect(unlinked.status == 200, "\(unlinked.text)")
            #expect((unlinked.json as? [String: Any])?["other"] as? Int == into)
            #expect(try await transfers(alice).linked.count == 1)
            #expect(try await h.send("DELETE", "/v1/transfers/\(out)", token: alice).status == 409, "no longer a transfer")

            let body = try JSONSerialization.data(withJSONObject: ["out": out, "in": into])
            let linked = try await h.send("POST", "/v1/transfers", token: alice, body: body)
            #expect(linked.status == 200, "\(linked.text)")
            let now = try await transfers(alice)
            #expect(now.linked.count == 2)
            #expect(now.linked.contains { $0["decided_by"] as? String == "user" })
            // A transaction's own `transfer` names the other leg.
            let all = try await h.allTransactions(token: alice)
            let leg = try #require(all.first { $0["id"] as? Int == out })
            #expect((leg["transfer"] as? [String: Any])?["other_transaction"] as? Int == into)
            let bad = try await h.send("POST", "/v1/transfers", token: alice, body: Data(#"{"out": "x"}"#.utf8))
            #expect(bad.status == 400)
        }
    }
}
