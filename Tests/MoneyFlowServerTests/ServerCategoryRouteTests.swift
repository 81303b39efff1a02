import Foundation
import MoneyFlowHTTPTestSupport
import MoneyFlowTestSupport
import Testing

/// `PATCH /v1/transactions/{id}` with a category: the CLI's `categorize` over HTTP (#27).
@Suite struct ServerCategoryRouteTests {
    @Test("PATCH a category or a split: the answer and the CLI's listing carry it; a bad split is 400; undo takes it back")
    func categorize() async throws {
        try await ServerRoutesTests.started { h, alice, _, store in
            let all = try await h.allTransactions(token: alice)
            let out = try #require(all.first { ($0["amount"] as? String)?.hasPrefix("-") == true })
            let id = try #require((out["id"] as? NSNumber)?.int64Value)
            let r = try await h.send(
                "PATCH", "/v1/transactions/\(id)", token: alice, body: Data(#"{"category": "Expenses:Food:Groceries"}"#.utf8))
            #expect(r.status == 200, "\(r.text)")
            let answered = try #require(r.json as? [String: Any])
            #expect(answered["category"] as? String == "Expenses:Food:Groceries")
            #expect(answered["category_source"] as? String == "user")
            let cli = try await waitOffPool(try MoneyFlowBinary.spawn(["transactions", "--format", "json", "--store", store]))
            let listed = try #require(try JSONSerialization.jsonObject(with: Data(cli.stdout.utf8)) as? [[String: Any]])
            #expect(listed.first { ($0["id"] as? NSNumber)?.int64Value == id }?["category"] as? String == "Expenses:Food:Groceries")

            let split = try await h.send(
                "PATCH", "/v1/transactions/\(id)", token: alice,
                body: Data(#"{"category_split": ["Expenses:Food:0.01", "Expenses:Household:rest"]}"#.utf8))
            #expect(split.status == 200, "\(split.text)")
            let parts = try #require((split.json as? [String: Any])?["category_split"] as? [[String: Any]])
            #expect(parts.map { $0["account"] as? String } == ["Expenses:Food", "Expenses:Household"])
            for bad in [
                #"{"category_split": ["Expenses:Food:0.01", "Expenses:Household:0.01"]}"#, #"{"category": "Food"}"#,
                #"{"category": "Expenses:A", "category_split": ["Expenses:A:0.01", "Expenses:B:rest"]}"#,
            ] {
                let b = try await h.send("PATCH", "/v1/transactions/\(id)", token: alice, body: Data(bad.utf8))
                #expect(b.status == 400, "\(bad): \(b.text)")
            }
            let batches = try await waitOffPool(try MoneyFlowBinary.spawn(["batches", "--format", "json", "--store", store]))
            let list = try #require(try JSONSerialization.jsonObject(with: Data(batches.stdout.utf8)) as? [[String: Any]])
            let categorizeBatches = list.filter { $0["importer"] as? String == "categorize" }
            #expect(categorizeBatches.count == 2)
            // Undoing the split's batch over HTTP brings the single category back.
            let batchIDs: [Int64] = categorizeBatches.compactMap { ($0["id"] as? NSNumber)?.int64Value }.sorted()
            let newest = try #require(batchIDs.last)
            let undo = try await h.send("POST", "/v1/batches/\(newest)/undo", token: alice, body: Data())
            #expect(undo.status == 200, "\(undo.text)")
            let back = try #require(try await h.get("/v1/transactions/\(id)", token: alice).json as? [String: Any])
            #expect(back["category"] as? String == "Expenses:Food:Groceries" && back["category_split"] == nil, "\(back)")
        }
    }
}
