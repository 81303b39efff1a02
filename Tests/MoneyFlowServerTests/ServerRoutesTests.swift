import Foundation
import MoneyFlowHTTPTestSupport
import MoneyFlowTestSupport
import Testing

/// The routes that do over HTTP what a CLI command does on the same ledger: one transaction,
/// `edit`, `accounts rename`, `export`, and the CLI's refusal of an unknown account.
@Suite("moneyflow serve: the CLI's commands over HTTP", .serialized)
struct ServerRoutesTests {
    static let chase = ["chase_checking.csv", "chase_card.csv"].map {
        (path: TestPaths.samples.appendingPathComponent("csv/" + $0).path, password: String?.none, account: String?.none)
    }

    /// `body` on a router with Alice's ledger (its file: `store`) holding the two Chase files, and Bob with nothing.
    static func started<T: Sendable>(_ body: @Sendable (InProcessServer, _ alice: String, _ bob: String, _ store: String) async throws -> T)
        async throws -> T
    {
        try await InProcessServer.run { h in
            let alice = try await h.addUser("alice")
            let bob = try await h.addUser("bob")
            for f in chase {
                let r = try await ServerEndToEndTests().upload(h, token: alice, f)
                #expect(r.status == 200, "\(f.path): \(r.text)")
            }
            return try await body(h, alice, bob, try ledgerFile(h))
        }
    }

    /// The ledger file of the only user with one (Alice, before Bob's first request).
    static func ledgerFile(_ h: some ServerUnderTest) throws -> String {
        let root = h.data + "/ledgers"
        let withLedger = try FileManager.default.contentsOfDirectory(atPath: root).filter {
            FileManager.default.fileExists(atPath: "\(root)/\($0)/ledger.sqlite")
        }
        return "\(root)/\(try #require(withLedger.count == 1 ? withLedger.first : nil))/ledger.sqlite"
    }

    static func errorMessage(_ r: (json: Any?, status: Int, text: String)) -> String {
        ((r.json as? [String: Any])?["error"] as? [String: Any])?["message"] as? String ?? ""
    }

    @Test("an unknown account is 404 naming the known accounts, as the CLI's error, on every route that takes one")
    func unknownAccount() async throws {
        try await Self.started { h, alice, _, store in
            let cli = try await waitOffPool(
                try MoneyFlowBinary.spawn(["transactions", "--account", "Chase Checkng", "--store", store]))
            #expect(cli.status == 1)
            let cliMessage = cli.stderr.replacingOccurrences(of: "moneyflow: error: ", with: "").trimmingCharacters(in: .newlines)
            #expect(cliMessage.contains("no account named 'Chase Checkng'"), "\(cli.stderr)")
            for route in ["/v1/transactions", "/v1/reconcile", "/v1/transfers", "/v1/export?format=csv&"] {
                let path = route + (route.hasSuffix("&") ? "" : "?") + "account=Chase+Checkng"
                let r = try await h.get(path, token: alice)
                #expect(r.status == 404, "\(path): \(r.text)")
                #expect(Self.errorMessage(r) == cliMessage, "\(path)")
            }
            let rename = try await h.send("PATCH", "/v1/accounts/Chase%20Checkng", token: alice, body: Data(#"{"name": "X"}"#.utf8))
            #expect(rename.status == 404 && Self.errorMessage(rename) == cliMessage, "\(rename.text)")
            // A known account still lists its own rows only.
            let accounts = try #require(
                (try await h.get("/v1/accounts", token: alice).json as? [String: Any])?["accounts"] as? [[String: Any]])
            let name = try #require(accounts.first?["name"] as? String)
            let page = try await h.get("/v1/transactions?account=" + name.replacingOccurrences(of: " ", with: "+"), token: alice)
            let rows = try #require((page.json as? [String: Any])?["transactions"] as? [[String: Any]])
            #expect(!rows.isEmpty && rows.allSatisfy { $0["account"] as? String == name })
        }
    }

    @Test("GET and PATCH /v1/transactions/{id}: the list's object; edit sets, clears and refuses as the CLI's edit; other users get 404")
    func oneTransaction() async throws {
        try await Self.started { h, alice, bob, store in
            let all = try await h.allTransactions(token: alice)
            let first = try #require(all.first)
            let id = try #require((first["id"] as? NSNumber)?.int64Value)
            let one = try await h.get("/v1/transactions/\(id)", token: alice)
            #expect(one.status == 200, "\(one.text)")
            #expect(ServerEndToEndTests.canonical([try #require(one.json as? [String: Any])]) == ServerEndToEndTests.canonical([first]))
            #expect(try await h.get("/v1/transactions/\(id)", token: bob).status == 404)
            #expect(try await h.get("/v1/transactions/\(id + 100_000)", token: alice).status == 404)

            let edit = try await h.send(
                "PATCH", "/v1/transactions/\(id)", token: alice,
                body: Data(#"{"note": "dinner with Ana", "description": "Groceries"}"#.utf8))
            #expect(edit.status == 200, "\(edit.text)")
            let edited = try #require(edit.json as? [String: Any])
            #expect(edited["note"] as? String == "dinner with Ana" && edited["description"] as? String == "Groceries", "\(edit.text)")
            // What the CLI lists for that transaction is what the API answered.
            let cli = try await waitOffPool(try MoneyFlowBinary.spawn(["transactions", "--format", "json", "--store", store]))
            let listed = try #require(try JSONSerialization.jsonObject(with: Data(cli.stdout.utf8)) as? [[String: Any]])
            let cliRow = try #require(listed.first { ($0["id"] as? NSNumber)?.int64Value == id })
            #expect(ServerEndToEndTests.canonical([cliRow]) == ServerEndToEndTests.canonical([edited]))
            // An empty string removes the edit (the bank's description is back).
            let cleared = try await h.send("PATCH", "/v1/transactions/\(id)", token: alice, body: Data(#"{"description": ""}"#.utf8))
            #expect((cleared.json as? [String: Any])?["description"] as? String == first["description"] as? String, "\(cleared.text)")
            #expect((cleared.json as? [String: Any])?["note"] as? String == "dinner with Ana")
            for bad in [#"{}"#, #"{"notes": "x"}"#, #"{"note": 3}"#, "[]"] {
                let r = try await h.send("PATCH", "/v1/transactions/\(id)", token: alice, body: Data(bad.utf8))
                #expect(r.status == 400, "\(bad): \(r.text)")
            }
            #expect(try await h.send("PATCH", "/v1/transactions/\(id)", token: bob, body: Data(#"{"note": "x"}"#.utf8)).status == 404)
        }
    }

    @Test("PATCH /v1/accounts/{name} renames as `accounts rename`: new name everywhere, ledger name in exports, a taken name is 409")
    func renameAccount() async throws {
        try await Self.started { h, alice, _, _ in
            let accounts = try #require(
                (try await h.get("/v1/accounts", token: alice).json as? [String: Any])?["accounts"] as? [[String: Any]])
            let names = accounts.compactMap { $0["name"] as? String }.sorted()
            #expect(names.count == 2)
            let old = names[0]
            let encoded = try #require(old.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed))
            let r = try await h.send(
                "PATCH", "/v1/accounts/\(encoded)", token: alice,
                body: Data(#"{"name": "Household", "ledger_name": "Assets:Household"}"#.utf8))
            #expect(r.status == 200, "\(r.text)")
            let account = try #require((r.json as? [String: Any])?["account"] as? [String: Any])
            #expect(account["name"] as? String == "Household" && account["ledger_name"] as? String == "Assets:Household")
            let now = try #require((try await h.get("/v1/accounts", token: alice).json as? [String: Any])?["accounts"] as? [[String: Any]])
            #expect(Set(now.compactMap { $0["name"] as? String }) == ["Household", names[1]])
            #expect(try await h.allTransactions(token: alice).contains { $0["account"] as? String == "Household" })
            let journal = try await h.get("/v1/export?format=beancount", token: alice)
            #expect(journal.text.contains("Assets:Household"))
            let taken = try await h.send(
                "PATCH", "/v1/accounts/Household", token: alice,
                body: try JSONSerialization.data(withJSONObject: ["name": names[1]]))
            #expect(taken.status == 409, "\(taken.text)")
            #expect(try await h.send("PATCH", "/v1/accounts/Household", token: alice, body: Data("{}".utf8)).status == 400)
        }
    }

    @Test("GET /v1/export: for every format the bytes `moneyflow export` writes from the same ledger, streamed in many chunks")
    func export() async throws {
        try await Self.started { h, alice, _, store in
            // The demo's statements too, so the JSON export spans several of the stream's 64 KiB chunks.
            for f in ServerEndToEndTests.demoFiles {
                let r = try await ServerEndToEndTests().upload(h, token: alice, f)
                #expect(r.status == 200, "\(f.path): \(r.text)")
            }
            let cases: [(query: String, args: [String])] = [
                ("format=beancount", ["--format", "beancount"]),
                ("format=beancount&operating_currency=USD", ["--format", "beancount", "--operating-currency", "USD"]),
                ("format=ledger", ["--format", "ledger"]),
                ("format=csv", ["--format", "csv"]),
                ("format=json&from=2026-01-15", ["--format", "json", "--from", "2026-01-15"]),
            ]
            for c in cases {
                let r = try await h.get("/v1/export?" + c.query, token: alice)
                #expect(r.status == 200, "\(c.query): \(r.text)")
                let cli = try await waitOffPool(try MoneyFlowBinary.spawn(["export"] + c.args + ["--store", store]))
                #expect(cli.status == 0, "\(cli.stderr)")
                #expect(!r.text.isEmpty && r.text == cli.stdout, "\(c.query): the server's export differs from the CLI's")
            }
            let whole = try await h.get("/v1/export?format=json", token: alice)
            #expect(whole.text.utf8.count > 2 << 16, "\(whole.text.utf8.count) bytes")
            #expect((whole.json as? [[String: Any]])?.count == (try await h.allTransactions(token: alice)).count)
            for bad in ["", "?format=xml", "?format=ledger&operating_currency=USD", "?format=csv&from=2026-02-01&to=2026-01-01"] {
                #expect(try await h.get("/v1/export" + bad, token: alice).status == 400, "\(bad)")
            }
        }
    }

    @Test("a ZIP without its password: the answer names the X-MoneyFlow-Password header, never the CLI's --password-env")
    func passwordAdvice() async throws {
        try await InProcessServer.run { h in
            let token = try await h.addUser("carol")
            var zip = ServerEndToEndTests.demoFiles[0]
            zip.password = nil
            let r = try await ServerEndToEndTests().upload(h, token: token, zip)
            #expect(r.status == 422, "\(r.text)")
            let message = Self.errorMessage(r)
            #expect(message.contains("X-MoneyFlow-Password") && message.contains("cmb2024_q1.aes256.zip"), "\(message)")
            #expect(!message.contains("--"), "command-line advice in an HTTP answer: \(message)")
            // The CLI keeps its own advice.
            let cli = try await waitOffPool(try MoneyFlowBinary.spawn(["import", zip.path, "--store", h.data + "/cli.sqlite"]))
            #expect(cli.stderr.contains("--password-env"), "\(cli.stderr)")
        }
    }

    @Test("the log has one line per request: method, path without the query, status and time; refused logins; never a token")
    func requestLog() async throws {
        let h = try await ServeHarness.start()
        let token = try await h.addUser("dave")
        _ = try await h.get("/v1/accounts", token: token)
        _ = try await h.get("/v1/transactions?account=SecretAccountName", token: token)
        _ = try await h.get("/v1/accounts", token: "mf_nope")
        _ = try await h.get("/v1/review", token: nil)
        _ = try await h.get("/v1/no-such-route", token: token)
        let run = await h.stop()
        let lines = run.stderrLines.map(String.init)
        func logged(_ method: String, _ path: String, _ status: Int) -> Bool {
            lines.contains { line in
                guard let r = line.range(of: "\(method) \(path) \(status) ") else { return false }
                let rest = line[r.upperBound...]
                return rest.hasSuffix(" ms") && Double(rest.dropLast(3)) != nil
            }
        }
        #expect(logged("GET", "/v1/accounts", 200), "\(lines)")
        #expect(logged("GET", "/v1/transactions", 404), "\(lines)")
        #expect(logged("GET", "/v1/accounts", 401), "\(lines)")
        #expect(logged("GET", "/v1/no-such-route", 404), "\(lines)")
        // Refused logins leave a trace: why, the route and the peer (never the token).
        #expect(lines.contains { $0.contains("login refused: unknown token for GET /v1/accounts from 127.0.0.1") }, "\(lines)")
        #expect(lines.contains { $0.contains("login refused: no bearer token for GET /v1/review from 127.0.0.1") }, "\(lines)")
        #expect(!run.stderr.contains("SecretAccountName") && !run.stderr.contains(token) && !run.stderr.contains("mf_nope"))
    }
}
