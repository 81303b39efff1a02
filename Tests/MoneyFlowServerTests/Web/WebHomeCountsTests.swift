import Foundation
import Testing

@testable import MoneyFlowServer

/// The home page's whole-ledger counts are kept until the ledger changes: a decision or an
/// import made through the app shows on the next home page, and its balance breaks are the
/// reconciliation report's (`/v1/reconcile`).
@Suite struct WebHomeCountsTests {
    /// The number just before `label` on the home page (`3 uncategorised transaction(s)`).
    static func number(before label: String, in html: String) throws -> Int {
        let head = try #require(html.components(separatedBy: label).first)
        return try #require(Int(String(head.reversed().prefix { $0.isNumber }.reversed())))
    }

    /// A second file of the same account whose third row's printed balance does not chain.
    static let broken = Data(
        """
        Details,Posting Date,Description,Amount,Type,Balance,Check or Slip #
        DEBIT,04/05/2026,"HARDWARE",-10.00,DEBIT_CARD,2898.30,,
        DEBIT,04/06/2026,"BOOKS",-20.00,DEBIT_CARD,2878.30,,
        DEBIT,04/07/2026,"GARDEN",-5.00,DEBIT_CARD,2800.00,,

        """.utf8)

    @Test func homeCountsFollowEveryWrite() async throws {
        try await InProcessServer.run { h in
            let token = try await h.addUser("hana")
            let web = WebClient(h)
            try await web.signIn(token: token)
            _ = try await WebAppTests.importStatement(web)
            let home = try await web.get("/").html
            let waiting = try Self.number(before: " uncategorised transaction(s)", in: home)
            #expect(waiting > 0)
            #expect(try Self.number(before: " balance break(s)", in: home) == 0)
            let card = try await web.get("/sort")
            let id = try #require(
                card.html.components(separatedBy: #"data-testid="sort-card" data-transaction-id=""#).dropFirst().first?.prefix { $0 != "\"" })
            #expect(try await web.post("/sort", [("transaction", String(id)), ("category", "Expenses:Food")]).status == 303)
            #expect(try Self.number(before: " uncategorised transaction(s)", in: try await web.get("/").html) == waiting - 1)
            _ = try await web.get("/import")
            let second = try await web.upload(
                "/import", file: "april.csv", data: Self.broken, fields: [("account", "Chase Checking"), ("password", "")])
            #expect(second.status == 200)
            let after = try await web.get("/").html
            let report = try #require(try await h.get("/v1/reconcile", token: token).json as? [[String: Any]])
            let breaks = report.flatMap { $0["balance_breaks"] as? [[String: Any]] ?? [] }
            #expect(breaks.count == 1)
            #expect(try Self.number(before: " balance break(s)", in: after) == breaks.count)
            #expect(try Self.number(before: " uncategorised transaction(s)", in: after) == waiting - 1 + 3)
        }
    }
}
