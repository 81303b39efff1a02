import Foundation
import Testing

@testable import MoneyFlowServer

/// The web app through the router, as a browser uses it: sessions, CSRF, escaping, the pages'
/// rows against the API's, and the decisions the forms record (the same as the CLI's).
@Suite struct WebAppTests {
    /// A Chase checking export with a hostile description, CJK text and three months.
    static let statement = Data(
        """
        Details,Posting Date,Description,Amount,Type,Balance,Check or Slip #
        DEBIT,01/05/2026,"<img src=x onerror=alert(1)>",-12.50,DEBIT_CARD,987.50,,
        DEBIT,01/20/2026,"星巴克咖啡 上海",-30.00,DEBIT_CARD,957.50,,
        CREDIT,02/01/2026,"PAYROLL ACME",2000.00,ACH_CREDIT,2957.50,,
        DEBIT,02/03/2026,"GROCERY STORE",-45.10,DEBIT_CARD,2912.40,,
        DEBIT,03/03/2026,"COFFEE SHOP",-4.10,DEBIT_CARD,2908.30,,

        """.utf8)

    static func importStatement(_ web: WebClient) async throws -> WebClient.Page {
        _ = try await web.get("/import")
        return try await web.upload(
            "/import", file: "chase.csv", data: statement, fields: [("account", "Chase Checking"), ("password", "")])
    }

    @Test func pagesAndFormsNeedASession() async throws {
        try await InProcessServer.run { h in
            let web = WebClient(h)
            for path in ["/", "/transactions", "/review", "/sort", "/import", "/transactions/1"] {
                let page = try await web.get(path)
                #expect(page.status == 303 && page.location == "/signin", "\(path) without a session: \(page.status)")
            }
            let post = try await web.post("/sort", [("transaction", "1"), ("category", "Expenses:Food")], csrf: false)
            #expect(post.status == 403)
            let signin = try await web.get("/signin")
            #expect(signin.status == 200 && signin.html.contains(#"type="password""#))
        }
    }

    @Test func signInSetsAStrictHttpOnlyCookieSecureBehindTLS() async throws {
        try await InProcessServer.run { h in
            let token = try await h.addUser("alice")
            let web = WebClient(h)
            let plain = try await web.post("/signin", [("password", token)], csrf: false)
            let cookie = plain.headers[.setCookie] ?? ""
            #expect(plain.status == 303 && cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict") && !cookie.contains("Secure"))
            let tls = WebClient(h)
            tls.headers["X-Forwarded-Proto"] = "https"
            let secure = try await tls.post("/signin", [("password", token)], csrf: false)
            #expect(secure.headers[.setCookie]?.contains("; Secure") == true)
            // Only the session id's hash is stored: the cookie's value is nowhere in the file.
            let file = try Data(contentsOf: URL(fileURLWithPath: h.data + "/web.sqlite"))
            #expect(file.range(of: Data(web.cookie!.utf8)) == nil)
            // Signing out ends the session on the server: the old cookie no longer opens a page.
            let home = try await web.get("/")
            #expect(home.status == 200)
            let old = web.cookie
            _ = try await web.post("/signout", [])
            web.cookie = old
            #expect(try await web.get("/").status == 303)
        }
    }

    @Test func passwordSignInIsHashedAndRateLimited() async throws {
        try await InProcessServer.run { h in
            _ = try await h.addUser("bob")
            let accounts = try WebAccounts(users: h.users)
            try accounts.setPassword(name: "bob", password: "correct horse battery")
            let file = try Data(contentsOf: URL(fileURLWithPath: h.data + "/web.sqlite"))
            #expect(file.range(of: Data("correct horse battery".utf8)) == nil)
            #expect(throws: UserDirectoryError.self) { try accounts.setPassword(name: "bob", password: "short") }
            let web = WebClient(h)
            let wrong = try await web.post("/signin", [("name", "bob"), ("password", "wrong password!")], csrf: false)
            #expect(wrong.status == 401 && web.cookie == nil)
            let right = try await web.post("/signin", [("name", "bob"), ("password", "correct horse battery")], csrf: false)
            #expect(right.status == 303 && web.cookie != nil)
            // Five failures for a name: even the right password is refused until the window passes.
            let other = WebClient(h)
            for _ in 0..<5 { _ = try await other.post("/signin", [("name", "bob"), ("password", "guess guess")], csrf: false) }
            let limited = try await other.post("/signin", [("name", "bob"), ("password", "correct horse battery")], csrf: false)
            #expect(limited.status == 429 && other.cookie == nil)
        }
    }

    @Test func throttleCountsPerAddressAndPerNameOverItsWindow() async {
        let throttle = SignInThrottle(limits: .init(perAddress: 3, perName: 2, window: 60))
        let t0 = Date(timeIntervalSince1970: 1_000_000)
        await throttle.failed(address: "a", name: "x", now: t0)
        #expect(await throttle.retryAfter(address: "a", name: "x", now: t0) == nil)
        await throttle.failed(address: "a", name: "x", now: t0)
        #expect(await throttle.retryAfter(address: "b", name: "x", now: t0) != nil)
        #expect(await throttle.retryAfter(address: "a", name: "y", now: t0) == nil)
        await throttle.failed(address: "a", name: "z", now: t0)
        #expect(await throttle.retryAfter(address: "a", name: "w", now: t0) != nil)
        #expect(await throttle.retryAfter(address: "a", name: "x", now: t0.addingTimeInterval(61)) == nil)
    }

    @Test func importShowsDescriptionsAsTextAndRowsEqualTheAPI() async throws {
        try await InProcessServer.run { h in
            let token = try await h.addUser("carol")
            let web = WebClient(h)
            try await web.signIn(token: token)
            let result = try await Self.importStatement(web)
            #expect(result.status == 200, "\(result.html)")
            #expect(result.html.contains(#"data-testid="count-new">5<"#))
            let page = try await web.get("/transactions")
            #expect(page.html.contains("&lt;img src=x onerror=alert(1)&gt;"))
            #expect(!page.html.contains("<img src=x"))
            #expect(page.html.contains("星巴克咖啡 上海"))
            #expect(page.headers[.contentSecurityPolicy]?.contains("script-src 'self'") == true)
            let api = try await h.allTransactions(token: token)
            let ids = api.compactMap { $0["id"] as? Int64 ?? ($0["id"] as? Int).map(Int64.init) }
            let rows = page.html.components(separatedBy: #"data-testid="transaction-row" data-transaction-id=""#).dropFirst().map {
                Int64($0.prefix { $0 != "\"" })!
            }
            #expect(rows == ids.sorted())
            #expect(WebClient.count(#"data-testid="month""#, in: try await web.get("/").html) == 3)
            let filtered = try await web.get("/transactions?q=grocery")
            #expect(WebClient.count(#"data-testid="transaction-row""#, in: filtered.html) == 1)
        }
    }

    @Test func formsWithoutTheSessionsCSRFTokenAreRefused() async throws {
        try await InProcessServer.run { h in
            let token = try await h.addUser("dave")
            let web = WebClient(h)
            try await web.signIn(token: token)
            _ = try await Self.importStatement(web)
            let id = try #require(try await h.allTransactions(token: token).first?["id"] as? Int)
            let refused = try await web.post("/sort", [("transaction", "\(id)"), ("category", "Expenses:Food")], csrf: false)
            #expect(refused.status == 403)
            let forged = try await web.post("/sort", [("transaction", "\(id)"), ("category", "Expenses:Food"), ("csrf", String(repeating: "0", count: 64))], csrf: false)
            #expect(forged.status == 403)
            let after = try await h.get("/v1/transactions/\(id)", token: token)
            #expect(!after.text.contains("Expenses:Food"))
        }
    }

    @Test func sortingRecordsTheUsersCategoryAndUndoRestoresIt() async throws {
        try await InProcessServer.run { h in
            let token = try await h.addUser("erin")
            let web = WebClient(h)
            try await web.signIn(token: token)
            _ = try await Self.importStatement(web)
            var sorted: [String] = []
            var undoPage = ""
            for category in ["Expenses:Food", "Expenses:Coffee", "Expenses:Food"] {
                let card = try await web.get("/sort")
                let id = try #require(
                    card.html.components(separatedBy: #"data-testid="sort-card" data-transaction-id=""#).dropFirst().first?.prefix { $0 != "\"" })
                let done = try await web.post("/sort", [("transaction", String(id)), ("category", category)])
                #expect(done.status == 303 && done.location?.hasPrefix("/sort?undo=") == true)
                undoPage = done.location ?? ""
                sorted.append(String(id))
            }
            #expect(Set(sorted).count == 3)
            for id in sorted {
                let t = try await h.get("/v1/transactions/\(id)", token: token)
                #expect((t.json as? [String: Any])?["category_source"] as? String == "user", "\(t.text)")
            }
            // The most used category is the first one-click choice, on key 1.
            let card = try await web.get(undoPage)
            #expect(card.html.contains(#"data-key="1"><kbd>1</kbd> Expenses:Food"#))
            let batch = try #require(card.html.components(separatedBy: #"name="batch" value=""#).dropFirst().first?.prefix { $0 != "\"" })
            #expect(try await web.post("/sort/undo", [("batch", String(batch))]).status == 303)
            let undone = try await h.get("/v1/transactions/\(sorted[2])", token: token)
            #expect((undone.json as? [String: Any])?["category_source"] as? String != "user", "\(undone.text)")
            let kept = try await h.get("/v1/transactions/\(sorted[1])", token: token)
            #expect((kept.json as? [String: Any])?["category_source"] as? String == "user")
        }
    }

    @Test func anotherUsersSessionNeverShowsThisUsersData() async throws {
        try await InProcessServer.run { h in
            let alice = try await h.addUser("alice")
            let mallory = try await h.addUser("mallory")
            let a = WebClient(h)
            try await a.signIn(token: alice)
            _ = try await Self.importStatement(a)
            let id = try #require(try await h.allTransactions(token: alice).first?["id"] as? Int)
            let m = WebClient(h)
            try await m.signIn(token: mallory)
            let list = try await m.get("/transactions")
            #expect(!list.html.contains("GROCERY STORE") && !list.html.contains(#"data-testid="transaction-row""#))
            #expect(try await m.get("/transactions/\(id)").status == 404)
            #expect(!(try await m.get("/").html.contains("Chase Checking")))
            // Mallory's CSRF token does not carry over to Alice's session, nor the other way.
            let aliceToken = a.csrf
            m.csrf = aliceToken
            #expect(try await m.post("/transactions/\(id)/category", [("category", "Expenses:X")]).status == 403)
        }
    }

    @Test func anImportsBatchIsUndoneFromTheImportPage() async throws {
        try await InProcessServer.run { h in
            let token = try await h.addUser("uma")
            let web = WebClient(h)
            try await web.signIn(token: token)
            let result = try await Self.importStatement(web)
            let batch = try #require(result.html.components(separatedBy: #"data-testid="batch-row" data-batch-id=""#).dropFirst().first?.prefix { $0 != "\"" })
            #expect(try await h.allTransactions(token: token).count == 5)
            let undone = try await web.post("/batches/\(batch)/undo", [])
            #expect(undone.status == 200 && undone.html.contains("batch \(batch) undone"), "\(undone.html)")
            #expect(try await h.allTransactions(token: token).isEmpty)
            #expect(WebClient.count(#"data-testid="undo-batch""#, in: undone.html) == 0)
        }
    }
}
