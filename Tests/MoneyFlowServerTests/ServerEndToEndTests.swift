import Foundation
import MoneyFlowHTTPTestSupport
import MoneyFlowTestSupport
import Testing

/// The real server, started as `moneyflow serve`, driven over HTTP like an app would.
@Suite("moneyflow serve over HTTP", .serialized)
struct ServerEndToEndTests {
    /// The demo's files in the order Samples/moneyflow.toml applies them, with their options.
    static var demoFiles: [(path: String, password: String?, account: String?)] {
        let s = TestPaths.repoRoot.appendingPathComponent("Samples").path
        func pw(_ f: String) -> String {
            (try? String(contentsOfFile: "\(s)/cmb/passwords/\(f)", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        }
        let pages = ((try? FileManager.default.contentsOfDirectory(atPath: "\(s)/plaid/full_period")) ?? [])
            .filter { $0.hasPrefix("page") && $0.hasSuffix(".json") }.sorted { $0.compare($1, options: .numeric) == .orderedAscending }
        return [
            ("\(s)/cmb/cmb2024_q1.aes256.zip", pw("cmb2024_q1.txt"), nil),
            ("\(s)/cmb/cmb2024_q2overlap.aes256.zip", pw("cmb2024_q2overlap.txt"), nil),
            ("\(s)/cmb/cmb_pc_utf8bom.csv", nil, nil),
        ] + pages.map { ("\(s)/plaid/full_period/\($0)", nil, nil) } + [("\(s)/us/first_platypus_checking.csv", nil, "Plaid Checking 0000")]
    }

    func upload(_ h: some ServerUnderTest, token: String, _ f: (path: String, password: String?, account: String?), dryRun: Bool = false)
        async throws
        -> (json: Any?, status: Int, text: String)
    {
        var q = "filename=\((f.path as NSString).lastPathComponent)"
        // Spaces as `+`, as HTML forms and curl --url-query send them.
        if let a = f.account { q += "&account=" + a.replacingOccurrences(of: " ", with: "+") }
        if dryRun { q += "&dry_run=true" }
        let body = try Data(contentsOf: URL(fileURLWithPath: f.path))
        return try await h.send(
            "POST", "/v1/imports?\(q)", token: token, body: body, headers: f.password.map { ["X-MoneyFlow-Password": $0] } ?? [:])
    }

    /// The same files through the CLI into a store of its own: what the server must equal.
    func cliLedger(_ dir: String) async throws -> [Int64: String] {
        let store = dir + "/cli.sqlite"
        for f in Self.demoFiles {
            var args = ["import", f.path, "--store", store, "--quiet"]
            if let p = f.password {
                let pwFile = dir + "/pw"
                try Data(p.utf8).write(to: URL(fileURLWithPath: pwFile))
                args += ["--password-file", pwFile]
            }
            if let a = f.account { args += ["--account", a] }
            let r = try await waitOffPool(try MoneyFlowBinary.spawn(args))
            #expect(r.status == 0, "\(f.path): \(r.stderr)")
        }
        let out = try await waitOffPool(try MoneyFlowBinary.spawn(["transactions", "--format", "json", "--store", store]))
        let list = try #require(try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [[String: Any]])
        return Self.canonical(list)
    }

    /// Each transaction rendered with sorted keys, by id; `idBase` (the user's block of ids on
    /// the server) is taken off every id so the server's ledger compares with the CLI's.
    static func canonical(_ list: [[String: Any]], idBase: Int64 = 0) -> [Int64: String] {
        func local(_ v: Any?) -> Int64 { ((v as? NSNumber)?.int64Value ?? -1) - idBase }
        var out: [Int64: String] = [:]
        for var t in list {
            let id = local(t["id"])
            t["id"] = id
            t["sources"] = ((t["sources"] as? [[String: Any]]) ?? []).map { s in
                var s = s
                s["id"] = local(s["id"])
                return s
            }
            func localLink(_ l: [String: Any]) -> [String: Any] {
                var l = l
                l["other_transaction"] = local(l["other_transaction"])
                return l
            }
            if let link = t["transfer"] as? [String: Any] { t["transfer"] = localLink(link) }
            if let list = t["transfer_candidates"] as? [[String: Any]] { t["transfer_candidates"] = list.map(localLink) }
            out[id] = String(decoding: try! JSONSerialization.data(withJSONObject: t, options: [.sortedKeys]), as: UTF8.self)
        }
        return out
    }

    @Test(
        "two users import the demo over HTTP: each sees exactly their own ledger, equal to what the CLI builds; tokens and ids never cross")
    func twoUsers() async throws {
        let h = try await ServeHarness.start()
        let alice = try await h.addUser("alice")
        let bob = try await h.addUser("bob")
        #expect(alice != bob)

        #expect(try await h.get("/healthz", token: nil).status == 200)
        #expect(try await h.get("/openapi.json", token: nil).status == 200)
        for token in [nil, "mf_wrong", alice + "x"] {
            let r = try await h.get("/v1/accounts", token: token)
            #expect(r.status == 401, "\(String(describing: token))")
            #expect(((r.json as? [String: Any])?["error"] as? [String: Any])?["code"] as? String == "unauthorized")
        }

        // Alice imports the whole demo; a dry run first writes nothing.
        let dry = try await upload(h, token: alice, Self.demoFiles[0], dryRun: true)
        #expect(dry.status == 200 && (dry.json as? [String: Any])?["dry_run"] as? Bool == true, "\(dry.text)")
        #expect(try await h.allTransactions(token: alice).isEmpty)
        for f in Self.demoFiles {
            let r = try await upload(h, token: alice, f)
            #expect(r.status == 200, "\(f.path): \(r.text)")
        }
        // Bob imports only the CSV of his own account.
        let bobFile = Self.demoFiles.first { $0.path.hasSuffix("cmb_pc_utf8bom.csv") }!
        #expect(try await upload(h, token: bob, bobFile).status == 200)

        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("serve-cli-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let cli = try await cliLedger(dir)
        let aliceLedger = try await h.allTransactions(token: alice, limit: 7)
        #expect(aliceLedger.count == cli.count)
        #expect(Self.canonical(aliceLedger, idBase: 1 << 36) == cli, "alice's ledger over HTTP equals the CLI's")
        let ids = aliceLedger.compactMap { ($0["id"] as? NSNumber)?.int64Value }
        #expect(ids == ids.sorted() && Set(ids).count == ids.count, "pages never repeat or skip")

        let bobLedger = try await h.allTransactions(token: bob)
        #expect(!bobLedger.isEmpty && bobLedger.count < aliceLedger.count)
        #expect(Set(bobLedger.compactMap { $0["account"] as? String }) == ["CMB 2468"])

        // Bob cannot reach Alice's records, batches or cursors.
        let aliceBatches = try #require(
            (try await h.get("/v1/batches", token: alice).json as? [String: Any])?["batches"] as? [[String: Any]])
        let bobBatches = try #require((try await h.get("/v1/batches", token: bob).json as? [String: Any])?["batches"] as? [[String: Any]])
        #expect(aliceBatches.count == Self.demoFiles.count && bobBatches.count == 1)
        let aliceIDs = aliceBatches.compactMap { ($0["id"] as? NSNumber)?.int64Value }
        let aliceOnly = try #require(aliceIDs.max())
        let undo = try await h.send("POST", "/v1/batches/\(aliceOnly)/undo", token: bob)
        #expect(undo.status == 404, "\(undo.text)")
        let aliceRecord = try #require(
            ((aliceLedger.last?["sources"] as? [[String: Any]])?.first?["id"] as? NSNumber).map { $0.int64Value })
        // Users' ids never overlap (each ledger has its own block): Alice's ids are 404 for Bob.
        #expect(try await h.send("DELETE", "/v1/links/\(aliceRecord)", token: bob).status == 404)
        let foreignLink = Data(#"{"record": \#(aliceRecord), "transaction": 1}"#.utf8)
        #expect(try await h.send("POST", "/v1/links", token: bob, body: foreignLink).status == 404)
        let firstPage = try #require(try await h.get("/v1/transactions?limit=2", token: alice).json as? [String: Any])
        let aliceCursor = try #require(firstPage["next_cursor"] as? String)
        #expect(try await h.get("/v1/transactions?cursor=\(aliceCursor)", token: bob).status == 400)

        // Alice's other views answer with the CLI's objects.
        let accounts = try #require((try await h.get("/v1/accounts", token: alice).json as? [String: Any])?["accounts"] as? [[String: Any]])
        #expect(Set(accounts.compactMap { $0["name"] as? String }) == ["CMB 2468", "Plaid Checking 0000", "Plaid Credit Card 3333"])
        #expect(try await h.get("/v1/reconcile", token: alice).status == 200)
        #expect(try await h.get("/v1/review", token: alice).status == 200)
        #expect(try await h.get("/v1/transactions?from=2024-13-01", token: alice).status == 400)
        #expect(try await h.get("/v1/transactions?limit=0", token: alice).status == 400)

        // Undo over HTTP: Bob's import goes away in Bob's ledger only.
        let bobBatch = try #require((bobBatches.first?["id"] as? NSNumber)?.int64Value)
        let undone = try await h.send("POST", "/v1/batches/\(bobBatch)/undo", token: bob)
        #expect(undone.status == 200, "\(undone.text)")
        #expect(try await h.allTransactions(token: bob).isEmpty)
        #expect(try await h.allTransactions(token: alice).count == aliceLedger.count)

        let stopped = await h.stop()
        #expect(stopped.status == 0, "graceful shutdown: \(stopped.stderr)")
        #expect(!stopped.stderr.contains(alice) && !stopped.stdout.contains(alice), "tokens never logged")
    }

    @Test("bad uploads: a wrong password is 422 naming the file, a body over the cap is 413, no filename is 400; the ledger is unchanged")
    func badUploads() async throws {
        let h = try await ServeHarness.start(extraArgs: ["--max-body-mib", "1"])
        let token = try await h.addUser("carol")
        var zip = Self.demoFiles[0]
        zip.password = "wrong-password"
        let wrong = try await upload(h, token: token, zip)
        #expect(wrong.status == 422, "\(wrong.text)")
        let message = ((wrong.json as? [String: Any])?["error"] as? [String: Any])?["message"] as? String ?? ""
        #expect(message.contains("cmb2024_q1.aes256.zip") && !message.contains("wrong-password"), "\(message)")
        let big = try await h.send("POST", "/v1/imports?filename=big.csv", token: token, body: Data(repeating: 0x41, count: 2 << 20))
        #expect(big.status == 413, "\(big.text)")
        let noName = try await h.send("POST", "/v1/imports", token: token, body: Data("a,b\n".utf8))
        #expect(noName.status == 400)
        #expect(try await h.allTransactions(token: token).isEmpty)
        let unknown = try await h.get("/v1/no-such-route", token: token)
        #expect(unknown.status == 404 && ((unknown.json as? [String: Any])?["error"] as? [String: Any])?["code"] as? String == "not_found")
        await h.stop()
    }
}
