import Foundation
import MoneyFlowHTTPTestSupport
import MoneyFlowPlaid
import MoneyFlowTestSupport
import Testing

/// The server's promised limits, each probed at the edge: 64 KiB for a JSON (or TOML profile)
/// body, 1 MiB for a Plaid webhook, and nothing of an upload kept on disk.
@Suite("moneyflow serve: limits", .serialized)
struct ServerLimitsTests {
    static let jsonCap = 64 << 10
    static let webhookCap = 1 << 20

    /// A body of exactly `size` bytes that reads as JSON (or as a TOML comment for a profile).
    static func body(_ size: Int, toml: Bool) -> Data {
        let head = toml ? "# " : #"{"padding": ""#
        let tail = toml ? "\n" : #""}"#
        return Data((head + String(repeating: "a", count: size - head.utf8.count - tail.utf8.count) + tail).utf8)
    }

    static func code(_ r: (json: Any?, status: Int, text: String)) -> String? {
        ((r.json as? [String: Any])?["error"] as? [String: Any])?["code"] as? String
    }

    @Test("every operation with a JSON or profile body: 64 KiB is read, one byte more is 413")
    func jsonBodyCap() async throws {
        let doc = try OpenAPIValidator.repositoryDocument().document
        try await InProcessServer.run { h in
            let token = try await h.addUser("alice")
            var probed: [String] = []
            for (template, item) in try #require(doc["paths"]?.object) where template != "/v1/plaid/webhook" {
                for method in OpenAPIDocumentTests.methods {
                    guard let op = item[method], let content = op["requestBody"]?["content"]?.object else { continue }
                    let toml = content["application/toml"] != nil
                    guard toml || content["application/json"] != nil else { continue }
                    let path = AuthEveryOperationTests.concrete(template, op)
                    let name = "\(method.uppercased()) \(template)"
                    let atCap = try await h.send(method.uppercased(), path, token: token, body: Self.body(Self.jsonCap, toml: toml))
                    #expect(
                        atCap.status != 413 && atCap.status < 500 || atCap.status == 503, "\(name) at 64 KiB: \(atCap.status) \(atCap.text)"
                    )
                    let over = try await h.send(method.uppercased(), path, token: token, body: Self.body(Self.jsonCap + 1, toml: toml))
                    #expect(
                        over.status == 413 && Self.code(over) == "payload_too_large", "\(name) at 64 KiB + 1: \(over.status) \(over.text)")
                    probed.append(name)
                }
            }
            #expect(probed.contains("POST /v1/links") && probed.contains("PUT /v1/profiles/{name}"), "\(probed)")
        }
    }

    @Test("a Plaid webhook: 1 MiB is read (and refused unsigned), one byte more is 413")
    func webhookCap() async throws {
        let (plaid, keyDir) = try await ServerPlaidTests.plaidServer()
        defer { Task { await plaid.stop() }; try? FileManager.default.removeItem(atPath: keyDir) }
        let h = try await ServeHarness.start(env: ServerPlaidTests.plaidEnvironment(plaid, keyDir: keyDir))
        let atCap = try await h.send("POST", "/v1/plaid/webhook", token: nil, body: Self.body(Self.webhookCap, toml: false))
        #expect(atCap.status == 401 && Self.code(atCap) == "webhook_rejected", "\(atCap.status) \(atCap.text)")
        let over = try await h.send("POST", "/v1/plaid/webhook", token: nil, body: Self.body(Self.webhookCap + 1, toml: false))
        #expect(over.status == 413 && Self.code(over) == "payload_too_large", "\(over.status) \(over.text)")
        await h.stop()
    }

    @Test("after every import, good or failed, nothing but the ledger is beside the ledger (uploads stay in memory)")
    func uploadsLeaveNothing() async throws {
        try await InProcessServer.run(maxBodyBytes: 1 << 20) { h in
            let token = try await h.addUser("carol")
            let e2e = ServerEndToEndTests()
            let csv = (
                path: TestPaths.samples.appendingPathComponent("csv/chase_checking.csv").path, password: String?.none, account: String?.none
            )
            var zip = ServerEndToEndTests.demoFiles[0]
            var noPassword = zip
            noPassword.password = nil
            zip.password = "wrong-password"
            let readme = (path: TestPaths.repoRoot.appendingPathComponent("README.md").path, password: String?.none, account: String?.none)
            let uploads: [(what: String, status: Int, send: () async throws -> (json: Any?, status: Int, text: String))] = [
                ("a good CSV", 200, { try await e2e.upload(h, token: token, csv) }),
                ("a dry run", 200, { try await e2e.upload(h, token: token, csv, dryRun: true) }),
                ("the same CSV again", 200, { try await e2e.upload(h, token: token, csv) }),
                ("a wrong ZIP password", 422, { try await e2e.upload(h, token: token, zip) }),
                ("no ZIP password", 422, { try await e2e.upload(h, token: token, noPassword) }),
                ("a file no importer reads", 422, { try await e2e.upload(h, token: token, readme) }),
                (
                    "an unknown csv_profile", 400,
                    { try await h.send("POST", "/v1/imports?filename=a.csv&csv_profile=nope", token: token, body: Data("a,b\n".utf8)) }
                ),
                (
                    "a body over the cap", 413,
                    { try await h.send("POST", "/v1/imports?filename=big.csv", token: token, body: Data(repeating: 0x41, count: 2 << 20)) }
                ),
            ]
            for u in uploads {
                let r = try await u.send()
                #expect(r.status == u.status, "\(u.what): \(r.text)")
                // Uploads are read from memory: beside the ledger there is only the ledger.
                let user = try #require(try FileManager.default.contentsOfDirectory(atPath: h.data + "/ledgers").first)
                let beside = try FileManager.default.contentsOfDirectory(atPath: h.data + "/ledgers/" + user)
                #expect(beside.allSatisfy { $0.hasPrefix("ledger.sqlite") }, "\(u.what) left something behind: \(beside.sorted())")
            }
        }
    }
}
