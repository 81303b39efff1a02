import Foundation
import MoneyFlowHTTPTestSupport
import MoneyFlowTestSupport
import Testing

/// What the server says to an app: the API's way of doing what the CLI's advice says
/// (`new_account=true`, `account=NAME`), and never a file of the server.
@Suite("moneyflow serve: advice for HTTP clients, no server paths", .serialized)
struct ServerAdviceTests {
    static func sample(_ path: String) -> (path: String, password: String?, account: String?) {
        (TestPaths.samples.appendingPathComponent(path).path, nil, nil)
    }

    static func accountNames(_ h: some ServerUnderTest, token: String) async throws -> [String] {
        let reply = try await h.get("/v1/accounts", token: token)
        let accounts = try #require((reply.json as? [String: Any])?["accounts"] as? [[String: Any]])
        return accounts.compactMap { $0["name"] as? String }
    }

    @Test("an account= one edit from an existing account is refused naming new_account=true; with new_account=true it is created")
    func nearMissAccountNeedsNewAccount() async throws {
        try await InProcessServer.run { h in
            let alice = try await h.addUser("alice")
            let first = try await ServerEndToEndTests().upload(h, token: alice, Self.sample("csv/chase_checking.csv"))
            #expect(first.status == 200, "\(first.text)")
            let existing = try #require(try await Self.accountNames(h, token: alice).first)
            let typo = String(existing.dropLast()) // one edit away
            var file = Self.sample("csv/wells_fargo_checking.csv")
            file.account = typo

            let refused = try await ServerEndToEndTests().upload(h, token: alice, file)
            #expect(refused.status == 422, "\(refused.text)")
            let message = ServerRoutesTests.errorMessage(refused)
            #expect(message.contains("did you mean '\(existing)'"), "\(message)")
            #expect(message.contains("new_account=true") && !message.contains("--new-account"), "\(message)")
            #expect(try await Self.accountNames(h, token: alice) == [existing])

            let q = "filename=wells_fargo_checking.csv&account=" + typo.replacingOccurrences(of: " ", with: "+") + "&new_account=true"
            let created = try await h.send(
                "POST", "/v1/imports?" + q, token: alice, body: try Data(contentsOf: URL(fileURLWithPath: file.path)))
            #expect(created.status == 200, "\(created.text)")
            #expect((created.json as? [String: Any])?["accounts"] as? [String] == [typo], "\(created.text)")
            #expect(Set(try await Self.accountNames(h, token: alice)) == [existing, typo])

            let alone = try await h.send("POST", "/v1/imports?filename=x.csv&new_account=true", token: alice, body: Data("a".utf8))
            #expect(
                alone.status == 400 && ServerRoutesTests.errorMessage(alone) == "new_account=true goes with account=NAME", "\(alone.text)")
        }
    }

    @Test("the warning that a new account duplicates an existing one names account=NAME, not --account")
    func overlapWarningNamesTheQueryParameter() async throws {
        try await InProcessServer.run { h in
            let alice = try await h.addUser("alice")
            let csv = try await ServerEndToEndTests().upload(h, token: alice, Self.sample("us/first_platypus_checking.csv"))
            #expect(csv.status == 200, "\(csv.text)")
            let existing = try #require(try await Self.accountNames(h, token: alice).first)
            let ofx = try await ServerEndToEndTests().upload(h, token: alice, Self.sample("ofx/first_platypus_checking.ofx"))
            #expect(ofx.status == 200, "\(ofx.text)")
            let warnings = ((ofx.json as? [String: Any])?["warning_messages"] as? [String] ?? []).filter {
                $0.contains("match transactions of the existing account")
            }
            #expect(warnings.count == 1, "\(ofx.text)")
            let encoded = try #require(
                existing.addingPercentEncoding(withAllowedCharacters: CharacterSet(charactersIn: "-._~").union(.alphanumerics)))
            let warning = warnings.first ?? ""
            let created = try #require(try await Self.accountNames(h, token: alice).first { $0 != existing })
            #expect(
                warning.hasSuffix(
                    "import the file again with account=\(encoded), or merge the accounts: POST /v1/accounts/\(encoded)/merge with {\"from\": \"\(created)\"}"
                ),
                "\(warning)")
            #expect(!warning.contains("--account") && !warning.contains("moneyflow"), "\(warning)")
            #expect(warning.contains("POST /v1/batches/{id}/undo"), "\(warning)")
        }
    }

    @Test("a ledger the server cannot open is an error reply that names no file of the server")
    func storeErrorsNameNoServerPath() async throws {
        var h = try await ServeHarness.start()
        let carol = try await h.addUser("carol")
        let first = try await ServerEndToEndTests().upload(h, token: carol, Self.sample("csv/chase_checking.csv"))
        #expect(first.status == 200, "\(first.text)")
        await h.stop(keepData: true)
        // The ledger file is damaged while the server is down.
        let ledger = try ServerRoutesTests.ledgerFile(h)
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: ledger + suffix) }
        try Data("this is not a database\n".utf8).write(to: URL(fileURLWithPath: ledger))

        h = try await ServeHarness.start(data: h.data)
        let reply = try await ServerEndToEndTests().upload(h, token: carol, Self.sample("csv/wells_fargo_checking.csv"))
        #expect(reply.status == 409, "\(reply.text)")
        #expect(!reply.text.contains(h.data) && !reply.text.contains("ledger.sqlite"), "\(reply.text)")
        #expect(
            ServerRoutesTests.errorMessage(reply) == "cannot open store (a file on the server): file is not a database", "\(reply.text)")
        await h.stop()
    }
}

extension ServerAdviceTests {
    @Test("a lost Plaid key file is a 503 that names neither the key file nor a command; the log has both")
    func lostKeyFileNamesNoPath() async throws {
        let (plaid, keyDir) = try await ServerPlaidTests.plaidServer()
        defer { Task { await plaid.stop() }; try? FileManager.default.removeItem(atPath: keyDir) }
        let h = try await ServeHarness.start(env: ServerPlaidTests.plaidEnvironment(plaid, keyDir: keyDir))
        let dana = try await h.addUser("dana")
        _ = try await ServerPlaidTests.linkItem(h, plaid, token: dana)
        try FileManager.default.removeItem(atPath: keyDir + "/plaid.key")

        let sync = try await h.send("POST", "/v1/plaid/sync", token: dana, body: Data("{}".utf8))
        #expect(sync.status == 503, "\(sync.text)")
        #expect(!sync.text.contains(keyDir) && !sync.text.contains("moneyflow"), "\(sync.text)")
        #expect((sync.json as? [String: Any]).flatMap { $0["error"] as? [String: Any] }?["code"] as? String == "plaid_key_unavailable")
        let log = await h.stop()
        #expect(log.stderr.contains(keyDir + "/plaid.key"), "the operator learns which file: \(log.stderr)")
    }
}
