import Foundation
import MoneyFlowHTTPTestSupport
import MoneyFlowServer
import MoneyFlowStoreTestSupport
import MoneyFlowTestSupport
import Testing

/// `moneyflow serve --database postgres://...`: every user's ledger in one PostgreSQL database
/// (schema `moneyflow_user_<id>`), driven over HTTP like an app would.
@Suite("moneyflow serve --database PostgreSQL", .enabled(if: TestPostgres.isAvailable), .serialized)
struct PostgresServeTests {
    func ids(_ list: [[String: Any]]) -> (transactions: Set<Int64>, records: Set<Int64>) {
        (
            Set(list.compactMap { ($0["id"] as? NSNumber)?.int64Value }),
            Set(list.flatMap { (($0["sources"] as? [[String: Any]]) ?? []).compactMap { ($0["id"] as? NSNumber)?.int64Value } })
        )
    }

    @Test(
        "two users import over HTTP into one PostgreSQL database: each sees only their own ledger (equal to the CLI's), the other's ids are 404, and a restarted server shows the same data"
    )
    func twoUsersOneDatabase() async throws {
        let database = try #require(TestPostgres.url)
        let e2e = ServerEndToEndTests()
        var h = try await ServeHarness.start(extraArgs: ["--database", database])
        let data = h.data
        var schemas: [String] = []
        defer {
            try? FileManager.default.removeItem(atPath: data)
            TestPostgres.dropLedgers(schemas.map { String($0.dropFirst("moneyflow_".count)) })
        }
        let alice = try await h.addUser("alice")
        let bob = try await h.addUser("bob")
        let users = try UserDirectory(dataDirectory: data).list()
        schemas = users.map { "moneyflow_user_" + $0.id }
        let aliceBase = try #require(users.first { $0.name == "alice" }).idBase

        for f in ServerEndToEndTests.demoFiles {
            let r = try await e2e.upload(h, token: alice, f)
            #expect(r.status == 200, "\(f.path): \(r.text)")
        }
        let bobFile = (
            path: TestPaths.samples.appendingPathComponent("csv/chase_checking.csv").path, password: String?.none, account: String?.none
        )
        let bobImport = try await e2e.upload(h, token: bob, bobFile)
        #expect(bobImport.status == 200, "\(bobImport.text)")

        // The ledgers are in the database, not in files under the data folder.
        let present = try TestPostgres.rows(
            "SELECT schema_name FROM information_schema.schemata WHERE schema_name IN (\(schemas.map { "'\($0)'" }.joined(separator: ","))) ORDER BY 1"
        ).compactMap { $0.first ?? nil }
        #expect(present == schemas.sorted(), "schemas in the database: \(present)")
        let files = FileManager.default.enumerator(atPath: data)?.allObjects.compactMap { $0 as? String } ?? []
        #expect(!files.contains { $0.hasPrefix("ledgers/") && $0.hasSuffix(".sqlite") }, "a ledger file under the data folder: \(files)")

        // Alice's ledger is what the CLI builds from the same files; Bob's is only his account.
        let dir = try TestPaths.tempDir("pg-serve-cli")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let aliceLedger = try await h.allTransactions(token: alice, limit: 11)
        #expect(
            ServerEndToEndTests.canonical(aliceLedger, idBase: aliceBase) == (try await e2e.cliLedger(dir)),
            "alice's ledger over HTTP equals the CLI's")
        let bobLedger = try await h.allTransactions(token: bob)
        #expect(!bobLedger.isEmpty)
        #expect(
            Set(bobLedger.compactMap { $0["account"] as? String }).count == 1, "\(Set(bobLedger.compactMap { $0["account"] as? String }))")
        let (aliceIDs, aliceRecords) = ids(aliceLedger), (bobIDs, bobRecords) = ids(bobLedger)
        #expect(aliceIDs.isDisjoint(with: bobIDs) && aliceRecords.isDisjoint(with: bobRecords), "the users' ids overlap")

        // Another user's ids answer 404: batches, records, links.
        let aliceBatches = try #require(
            (try await h.get("/v1/batches", token: alice).json as? [String: Any])?["batches"] as? [[String: Any]])
        let newestBatch = aliceBatches.compactMap { ($0["id"] as? NSNumber)?.int64Value }.max()
        let aliceBatch = try #require(newestBatch)
        #expect(try await h.send("POST", "/v1/batches/\(aliceBatch)/undo", token: bob).status == 404)
        let maxRecord = aliceRecords.max(), minTransaction = aliceIDs.min(), bobRecord = bobRecords.min()
        let aliceRecord = try #require(maxRecord), aliceTransaction = try #require(minTransaction)
        #expect(try await h.send("DELETE", "/v1/links/\(aliceRecord)", token: bob).status == 404)
        let foreign = Data(#"{"record": \#(try #require(bobRecord)), "transaction": \#(aliceTransaction)}"#.utf8)
        #expect(try await h.send("POST", "/v1/links", token: bob, body: foreign).status == 404)
        #expect(try await h.allTransactions(token: alice).count == aliceLedger.count, "bob's attempts changed alice's ledger")

        // A restart on the same data folder and database: the same ledgers, and they go on.
        let before = (try await h.get("/v1/batches", token: bob).text, try await h.get("/v1/accounts", token: alice).text)
        let stopped = await h.stop(keepData: true)
        #expect(stopped.status == 0, "graceful shutdown: \(stopped.stderr)")
        h = try await ServeHarness.start(extraArgs: ["--database", database], data: data)
        let aliceAgain = try await h.allTransactions(token: alice, limit: 11)
        #expect(ServerEndToEndTests.canonical(aliceAgain) == ServerEndToEndTests.canonical(aliceLedger), "alice's ledger after the restart")
        #expect(ServerEndToEndTests.canonical(try await h.allTransactions(token: bob)) == ServerEndToEndTests.canonical(bobLedger))
        #expect(try await h.get("/v1/batches", token: bob).text == before.0)
        #expect(try await h.get("/v1/accounts", token: alice).text == before.1)
        // Re-uploading a file adds nothing; a new one gets ids above the old ones.
        let again = try await e2e.upload(h, token: bob, bobFile)
        #expect(again.status == 200 && (again.json as? [String: Any])?["new"] as? Int == 0, "\(again.text)")
        let amex = (path: TestPaths.samples.appendingPathComponent("csv/amex.csv").path, password: String?.none, account: String?.none)
        #expect(try await e2e.upload(h, token: bob, amex).status == 200)
        let bobNow = ids(try await h.allTransactions(token: bob))
        #expect(bobNow.records.subtracting(bobRecords).allSatisfy { $0 > bobRecords.max()! }, "a new record reuses an id")
        let final = await h.stop()
        #expect(final.status == 0, "\(final.stderr)")
        #expect(!(final.stderr + final.stdout).contains(alice) && !(final.stderr + final.stdout).contains(bob), "tokens never logged")
    }
}
