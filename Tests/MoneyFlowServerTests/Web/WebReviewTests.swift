import Foundation
import MoneyFlowCore
import MoneyFlowPipeline
import MoneyFlowStore
import MoneyFlowTestSupport
import Testing

@testable import MoneyFlowServer

/// The review page's two buttons record the CLI's decisions: "link to this" is `link`,
/// "keep separate" is `unlink`; either way the item leaves the page.
@Suite struct WebReviewTests {
    typealias F = LearnedAliasFixture

    /// A textless feed record two days from a statement row: the engine leaves it for review.
    static func ledgerWithAReviewItem(_ h: InProcessServer, _ name: String) throws -> ServerUser {
        _ = try h.users.add(name: name)
        let user = try #require(try h.users.list().first { $0.name == name })
        try addReviewItem(h.users, user)
        return user
    }

    /// Imports the pair into `user`'s ledger (before a server opens it).
    static func addReviewItem(_ users: UserDirectory, _ user: ServerUser) throws {
        #expect(try users.prepareLedgerFolder(for: user))
        let store = try LedgerStore(path: users.ledgerPath(for: user))
        try store.startIDs(after: user.idBase)
        let service = ImportService(store: store)
        for (k, st) in [
            ImportedStatement(importerID: "plaid", accounts: [F.facts], records: [F.feed("e1", -62, -3012, row: 1)]),
            ImportedStatement(importerID: "cmb-pdf", accounts: [F.facts], records: [F.bank(-60, -3012, row: 1)]),
        ].enumerated() {
            _ = try service.apply(st, fileName: "file-\(k)", sha256: "sha-\(k)", options: FileImportOptions())
        }
        #expect(try store.pendingReviews().count == 1)
    }

    static func field(_ name: String, in html: String) -> String? {
        html.components(separatedBy: #"name="\#(name)" value=""#).dropFirst().first.map { String($0.prefix { $0 != "\"" }) }
    }

    @Test(arguments: [true, false]) func aClickDecidesAndTheItemLeaves(link: Bool) async throws {
        try await InProcessServer.run { h in
            let user = try Self.ledgerWithAReviewItem(h, "rita")
            let token = try h.users.rotateToken(name: user.name)
            let web = WebClient(h)
            try await web.signIn(token: token)
            let page = try await web.get("/review")
            #expect(WebClient.count(#"data-testid="review-item""#, in: page.html) == 1)
            #expect(WebClient.count(#"data-testid="candidate""#, in: page.html) == 1)
            #expect(page.html.contains("饿了么") || page.html.contains("快捷支付"))
            let record = try #require(Self.field("record", in: page.html))
            let done =
                link
                ? try await web.post("/review/link", [("record", record), ("transaction", try #require(Self.field("transaction", in: page.html)))])
                : try await web.post("/review/separate", [("record", record)])
            #expect(done.status == 303 && done.location == "/review")
            let after = try await web.get("/review")
            #expect(WebClient.count(#"data-testid="review-item""#, in: after.html) == 0)
            let rows = try await h.allTransactions(token: token)
            #expect(rows.count == (link ? 1 : 2), "\(rows)")
        }
    }
}
