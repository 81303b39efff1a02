import Foundation
import MoneyFlowHTTPTestSupport
import MoneyFlowTestSupport
import Testing

/// `POST /v1/accounts/{name}/merge`: `moneyflow accounts merge` over HTTP, undone by the batch
/// undo route like any import.
@Suite("moneyflow serve: accounts merge over HTTP", .serialized)
struct ServerMergeRouteTests {
    static func accounts(_ h: some ServerUnderTest, _ token: String) async throws -> [String] {
        let list = try #require((try await h.get("/v1/accounts", token: token).json as? [String: Any])?["accounts"] as? [[String: Any]])
        return list.compactMap { $0["name"] as? String }
    }

    @Test("a CSV and an OFX of one account become one account, and the merge's batch undo gives both back")
    func mergeAndUndo() async throws {
        try await InProcessServer.run { h in
            let alice = try await h.addUser("alice")
            let csv = (
                path: TestPaths.samples.appendingPathComponent("us/first_platypus_checking.csv").path, password: String?.none,
                account: String?.none
            )
            #expect(try await ServerEndToEndTests().upload(h, token: alice, csv).status == 200)
            let checking = try #require(try await Self.accounts(h, alice).first)
            let ofx = (
                path: TestPaths.samples.appendingPathComponent("ofx/first_platypus_checking.ofx").path, password: String?.none,
                account: String?.none
            )
            #expect(try await ServerEndToEndTests().upload(h, token: alice, ofx).status == 200)
            let other = try #require(try await Self.accounts(h, alice).first { $0 != checking })
            let route = "/v1/accounts/\(try #require(checking.addingPercentEncoding(withAllowedCharacters: .alphanumerics)))/merge"
            let before = try await h.allTransactions(token: alice).count

            let dry = try await h.send(
                "POST", route, token: alice, body: try JSONSerialization.data(withJSONObject: ["from": other, "dry_run": true]))
            #expect(dry.status == 200, "\(dry.text)")
            let planned = try #require((dry.json as? [String: Any])?["merge"] as? [String: Any])
            #expect(planned["batch"] is NSNull && planned["linked"] as? Int == 12 && planned["dry_run"] as? Bool == true, "\(dry.text)")
            #expect(try await Self.accounts(h, alice).count == 2)

            let r = try await h.send("POST", route, token: alice, body: try JSONSerialization.data(withJSONObject: ["from": other]))
            #expect(r.status == 200, "\(r.text)")
            let merged = try #require((r.json as? [String: Any])?["merge"] as? [String: Any])
            let batch = try #require(merged["batch"] as? Int)
            #expect(merged["linked"] as? Int == 12 && merged["kept"] as? Int == 1, "\(r.text)")
            #expect(try await Self.accounts(h, alice) == [checking])
            #expect(try await h.allTransactions(token: alice).count == before - 12)

            #expect(try await h.send("POST", "/v1/batches/\(batch)/undo", token: alice).status == 200)
            #expect(Set(try await Self.accounts(h, alice)) == [checking, other])
            #expect(try await h.allTransactions(token: alice).count == before)

            #expect(try await h.send("POST", route, token: alice, body: Data(#"{"form": "x"}"#.utf8)).status == 400)
            #expect(try await h.send("POST", route, token: alice, body: Data(#"{"from": "Nobody"}"#.utf8)).status == 404)
        }
    }
}
