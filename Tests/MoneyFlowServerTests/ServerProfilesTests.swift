import Foundation
import MoneyFlowHTTPTestSupport
import MoneyFlowTestSupport
import Testing

/// A user's own CSV profiles on the server: stored, listed, checked as the CLI checks a
/// profile file, and named by an upload as `import --csv-profile FILE` names one.
@Suite("moneyflow serve: a user's own CSV profiles", .serialized)
struct ServerProfilesTests {
    static let csv = TestPaths.samples.appendingPathComponent("csv/generic_semicolon_ddmmyyyy.csv").path
    static let profile = TestPaths.samples.appendingPathComponent("csv/generic_semicolon_ddmmyyyy.profile.toml").path
    static let misspelt = TestPaths.repoRoot.appendingPathComponent("Tests/CSVFixtures/uk_misspelt.profile.toml").path

    func upload(_ h: some ServerUnderTest, _ token: String, profile: String?) async throws -> (json: Any?, status: Int, text: String) {
        let q = "filename=giro.csv" + (profile.map { "&csv_profile=\($0)" } ?? "")
        return try await h.send("POST", "/v1/imports?\(q)", token: token, body: try Data(contentsOf: URL(fileURLWithPath: Self.csv)))
    }

    @Test("PUT a TOML profile, name it in an upload: the file imports as with the CLI's --csv-profile; per user; DELETE takes it away")
    func storeAndUse() async throws {
        try await InProcessServer.run { h in
            let alice = try await h.addUser("alice")
            let bob = try await h.addUser("bob")

            // No profile fits this bank's file: the answer says what to do over HTTP.
            let refused = try await upload(h, alice, profile: nil)
            #expect(refused.status == 422, "\(refused.text)")
            let advice = ServerRoutesTests.errorMessage(refused)
            #expect(advice.contains("csv_profile=") && advice.contains("PUT /v1/profiles/{name}"), "\(advice)")
            #expect(!advice.contains("--csv-profile") && !advice.contains("`moneyflow"), "command-line advice: \(advice)")

            let toml = try Data(contentsOf: URL(fileURLWithPath: Self.profile))
            let put = try await h.send("PUT", "/v1/profiles/giro", token: alice, body: toml)
            #expect(put.status == 201, "\(put.text)")
            #expect(
                (put.json as? [String: Any])?["name"] as? String == "giro" && (put.json as? [String: Any])?["origin"] as? String == "user")
            #expect(try await h.send("PUT", "/v1/profiles/giro", token: alice, body: toml).status == 200, "replacing answers 200")

            let listed = try #require(
                (try await h.get("/v1/profiles", token: alice).json as? [String: Any])?["profiles"] as? [[String: Any]])
            #expect(listed.filter { $0["origin"] as? String == "user" }.compactMap { $0["name"] as? String } == ["giro"])
            #expect(listed.contains { $0["name"] as? String == "chase" && $0["origin"] as? String == "built-in" })
            let bobs = try #require((try await h.get("/v1/profiles", token: bob).json as? [String: Any])?["profiles"] as? [[String: Any]])
            #expect(!bobs.contains { $0["origin"] as? String == "user" }, "Alice's profile is hers only")

            let imported = try await upload(h, alice, profile: "giro")
            #expect(imported.status == 200, "\(imported.text)")
            let server = try await h.allTransactions(token: alice)
            // The CLI with the profile file gives the same ledger.
            let store = h.data + "/cli.sqlite"
            let cli = try await waitOffPool(
                try MoneyFlowBinary.spawn(["import", Self.csv, "--csv-profile", Self.profile, "--store", store]))
            #expect(cli.status == 0, "\(cli.stderr)")
            let out = try await waitOffPool(try MoneyFlowBinary.spawn(["transactions", "--format", "json", "--store", store]))
            let cliLedger = try #require(try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [[String: Any]])
            #expect(!server.isEmpty && server.count == cliLedger.count)
            func amounts(_ l: [[String: Any]]) -> [String] {
                l.compactMap { "\($0["date"] ?? "") \($0["amount"] ?? "") \($0["currency"] ?? "")" }.sorted()
            }
            #expect(amounts(server) == amounts(cliLedger))

            let bobUpload = try await upload(h, bob, profile: "giro")
            #expect(
                bobUpload.status == 400 && ServerRoutesTests.errorMessage(bobUpload).contains("unknown csv_profile 'giro'"),
                "\(bobUpload.text)")

            let deleted = try await h.send("DELETE", "/v1/profiles/giro", token: alice)
            #expect(deleted.status == 200, "\(deleted.text)")
            #expect(try await h.send("DELETE", "/v1/profiles/giro", token: alice).status == 404)
            #expect(try await upload(h, alice, profile: "giro").status == 400)
        }
    }

    @Test("a profile the CLI refuses is refused with the CLI's reason; bad names and built-in names are refused; nothing is kept")
    func refused() async throws {
        try await InProcessServer.run { h in
            let alice = try await h.addUser("alice")
            let body = try Data(contentsOf: URL(fileURLWithPath: Self.misspelt))
            let r = try await h.send("PUT", "/v1/profiles/uk", token: alice, body: body)
            #expect(r.status == 400, "\(r.text)")
            #expect((r.json as? [String: Any]).flatMap { ($0["error"] as? [String: Any])?["code"] as? String } == "invalid_profile")
            let cli = try await waitOffPool(
                try MoneyFlowBinary.spawn([
                    "import", Self.csv, "--csv-profile", Self.misspelt, "--store", h.data + "/cli.sqlite", "--dry-run",
                ]))
            #expect(cli.status == 1)
            let reason = try #require(cli.stderr.components(separatedBy: "invalid CSV profile: ").last?.trimmingCharacters(in: .newlines))
            #expect(ServerRoutesTests.errorMessage(r) == "uk.toml: invalid CSV profile: " + reason, "\(r.text) vs \(cli.stderr)")

            #expect(
                try await h.send("PUT", "/v1/profiles/chase", token: alice, body: try Data(contentsOf: URL(fileURLWithPath: Self.profile)))
                    .status == 409)
            for bad in [".hidden", "a%2Fb", String(repeating: "x", count: 65)] {
                let r = try await h.send(
                    "PUT", "/v1/profiles/\(bad)", token: alice, body: try Data(contentsOf: URL(fileURLWithPath: Self.profile)))
                #expect(r.status == 400, "\(bad): \(r.text)")
            }
            #expect(try await h.send("PUT", "/v1/profiles/empty", token: alice, body: Data()).status == 400)
            let listed = try #require(
                (try await h.get("/v1/profiles", token: alice).json as? [String: Any])?["profiles"] as? [[String: Any]])
            #expect(!listed.contains { $0["origin"] as? String == "user" })
        }
    }
}
