import Foundation
import MoneyFlowHTTPTestSupport
import MoneyFlowTestSupport
import PlaidTestServer
import Testing

/// The Plaid objects the API serves are the CLI's: `plaid link --json` (the exchange result),
/// `plaid sync --json` and `plaid items --format json`, run by the real binary against the
/// offline Plaid test server, must satisfy the document's schemas.
@Suite("OpenAPI schemas hold the CLI's real Plaid outputs")
struct OpenAPIPlaidOutputTests {
    @Test("link (exchange result), sync (twice: synced, then up to date) and items")
    func plaid() async throws {
        let v = try OpenAPIValidator.repositoryDocument()
        let server = try await PlaidTestServer.start()
        let dir = try TestPaths.tempDir("openapi-plaid")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let env = [
            "PLAID_CLIENT_ID": "test-client-id", "PLAID_SECRET": "test-secret", "PLAID_ENV": server.baseURL,
            "MONEYFLOW_KEY_FILE": dir + "/keys/plaid.key", "MONEYFLOW_PLAID_BACKOFF_MS": "2", "HOME": dir,
            "XDG_CONFIG_HOME": dir + "/config",
        ]
        /// Runs the binary on its own thread: the wait blocks, and the server needs the pool.
        func mf(_ args: [String]) async throws -> JSONValue {
            let child = try MoneyFlowBinary.spawn(args + ["--store", dir + "/ledger.sqlite"], cwd: dir, env: env)
            let r = try await waitOffPool(child)
            try #require(r.status == 0, "moneyflow \(args.joined(separator: " ")): exit \(r.status): \(r.stderr)")
            return try JSONValue.parse(r.stdout)
        }
        do {
            let linked = try await mf(["plaid", "link", "--sandbox", "--institution", "ins_109508", "--json"])
            #expect(v.validate(linked, component: "ExchangeResult") == [])
            let first = try await mf(["plaid", "sync", "--json"])
            #expect(v.validate(first, component: "PlaidSyncList") == [])
            let again = try await mf(["plaid", "sync", "--json"])
            #expect(v.validate(again, component: "PlaidSyncList") == [])
            let outcomes = [first, again].compactMap { $0["items"]?.array?.first?["outcome"]?.string }
            #expect(outcomes.count == 2 && outcomes[1] == "up_to_date", "\(outcomes)")
            let items = try await mf(["plaid", "items", "--format", "json"])
            #expect(v.validate(items, component: "PlaidItemList") == [])
            #expect(items["items"]?.array?.count == 1)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }
}
