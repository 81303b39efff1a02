import Foundation
import MoneyFlowStoreTestSupport
import MoneyFlowTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The `plaid-test-server` executable (built beside `moneyflow`) on a free loopback port, so
/// the CLI tests can make a real Plaid item and cursor with `moneyflow plaid link --sandbox`.
final class PlaidTestServerProcess {
    let process = Process()
    let baseURL: String

    init(logDir: String) throws {
        process.executableURL = MoneyFlowBinary.path.deletingLastPathComponent().appendingPathComponent("plaid-test-server")
        process.arguments = ["0"]
        // Its output goes to a file, read while the bounded wait polls: a server that never
        // says it listens fails the test instead of blocking a read forever.
        let outPath = logDir + "/plaid-test-server.out"
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        defer { try? out.close() }
        process.standardOutput = out
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        // It writes its URL on the first line as soon as it listens.
        var text = ""
        let process = self.process
        try ChildWait.until(pid: process.processIdentifier, what: "plaid-test-server's first line", timeout: .seconds(60)) {
            text = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
            return text.contains("\n") || !process.isRunning
        }
        guard let line = text.split(separator: "\n").first, line.hasPrefix("http") else {
            process.terminate()
            throw TestPostgresError("plaid-test-server did not start: \(text)")
        }
        baseURL = String(line)
    }

    /// SIGTERM, then its exit; one that has not ended a minute later is killed and fails the test.
    func stop() {
        process.terminate()
        do { try ChildWait.process(process, what: "plaid-test-server", timeout: ChildWait.stopTimeout) } catch { Issue.record("\(error)") }
    }
}

@Suite("moneyflow migrate: SQLite -> PostgreSQL -> SQLite", .enabled(if: PGCLI.enabled), .serialized)
struct PostgresMigrateTests {
    /// What a ledger holds, as the CLI prints it: everything must survive a migration unchanged
    /// (batches with their times and undo marks: they are copied, not re-made). Read without the
    /// ledger cache: a PostgreSQL ledger as the server holds it.
    static func everything(_ store: String, env: [String: String]) throws -> [(String, String)] {
        let env = env.merging(TestPostgres.uncachedRead) { $1 }
        return try [
            ["transactions", "--all", "--format", "json"], ["transactions", "--format", "json"], ["batches", "--format", "json"],
            ["accounts", "--format", "json"], ["review", "--format", "json"], ["reconcile", "--format", "json"],
            ["plaid", "items", "--format", "json", "--offline"],
        ].map { args in
            let r = try PGCLI.run(args, store: store, env: env)
            #expect(r.status == 0, "\(args.joined(separator: " ")) on \(store): \(r.stderr)")
            return (args.joined(separator: " "), r.stdout)
        }
    }

    /// `plaid items --format json` without when each item was last synced.
    static func itemsWithoutSyncTimes(_ text: String) throws -> String {
        let o = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let items = ((o["items"] as? [[String: Any]]) ?? []).map { $0.filter { $0.key != "last_sync_at" && $0.key != "last_success_at" } }
        #expect(!items.isEmpty)
        return String(decoding: try JSONSerialization.data(withJSONObject: items, options: [.sortedKeys]), as: UTF8.self)
    }

    static func ids(_ listing: String) throws -> (transactions: [Int], records: [Int]) {
        let list = try PGCLI.jsonArray(listing)
        return (
            list.compactMap { $0["id"] as? Int },
            list.flatMap { (($0["sources"] as? [[String: Any]]) ?? []).compactMap { $0["id"] as? Int } }
        )
    }

    @Test(
        "a ledger with undo history, edits, review decisions and a Plaid item survives SQLite -> PostgreSQL -> SQLite byte for byte; migrate refuses a non-empty destination; later imports agree and never reuse ids"
    )
    func roundTrip() throws {
        let dir = try TestPaths.tempDir("pg-migrate")
        let ledger = TestPostgres.ledgerName("cli_migrate")
        let plaid = try PlaidTestServerProcess(logDir: dir)
        defer {
            plaid.stop()
            try? FileManager.default.removeItem(atPath: dir)
            TestPostgres.dropLedgers([ledger])
        }
        let env = [
            "PLAID_CLIENT_ID": "test-client-id", "PLAID_SECRET": "test-secret", "PLAID_ENV": plaid.baseURL,
            "MONEYFLOW_KEY_FILE": dir + "/keys/plaid.key", "MONEYFLOW_PLAID_BACKOFF_MS": "2", "HOME": dir,
            "XDG_CONFIG_HOME": dir + "/config",
        ]
        func must(_ args: [String], _ store: String) throws -> String {
            let r = try PGCLI.run(args, store: store, env: env)
            try #require(r.status == 0, "\(args.joined(separator: " ")) on \(store): \(r.stderr)")
            return r.stdout
        }

        // The original: the demo, an import that was undone, a Plaid item synced (its cursor),
        // a user's edit, a user's unlink and link (review decisions the engine must keep).
        let a = "\(dir)/original.sqlite"
        _ = try must(["import", "Samples", "--quiet"], a)
        _ = try must(["import", "Samples/csv/chase_checking.csv", "--quiet"], a)
        let lastBatch = try PGCLI.jsonArray(try must(["batches", "--format", "json"], a)).compactMap { $0["id"] as? Int }.max()
        let undone = try #require(lastBatch)
        _ = try must(["undo", String(undone)], a)
        _ = try must(["plaid", "link", "--sandbox", "--json"], a)
        _ = try must(["plaid", "sync", "--json"], a)
        let listed = try PGCLI.jsonArray(try must(["transactions", "--format", "json"], a))
        let linked = try #require(listed.first { (($0["sources"] as? [Any])?.count ?? 0) >= 2 }, "the demo links a CSV row to Plaid's")
        let linkedID = try #require(linked["id"] as? Int)
        let record = try #require(((linked["sources"] as? [[String: Any]])?.last?["id"] as? Int))
        _ = try must(["edit", String(linkedID), "--note", "checked with the receipt", "--description", "Groceries (mine)"], a)
        let alone = try must(["unlink", String(record)], a)
        #expect(alone.contains("is now transaction"), "\(alone)")
        let other = try #require(
            listed.first { ($0["id"] as? Int) != linkedID && ($0["account"] as? String) == (linked["account"] as? String) }?["id"] as? Int)
        _ = try must(["edit", String(other), "--counterparty", "Corner Shop"], a)
        let original = try Self.everything(a, env: env)
        #expect(original[6].1.contains("item_id"), "the original has a Plaid item: \(original[6].1)")

        // SQLite -> PostgreSQL -> SQLite: every listing byte-identical at each step.
        let p = TestPostgres.storeURL(ledger: ledger), b = "\(dir)/back.sqlite"
        let toPG = try MoneyFlowBinary.run(["migrate", "--from", a, "--to", p, "--json"])
        try #require(toPG.status == 0, "migrate to PostgreSQL: \(toPG.stderr)")
        #expect((try JSONSerialization.jsonObject(with: Data(toPG.stdout.utf8)) as? [String: Any])?["verified"] as? Bool == true)
        let onPG = try Self.everything(p, env: env)
        // The copy back reads the server's rows, not the cache file the first migrate left.
        let toBack = try MoneyFlowBinary.run(["migrate", "--from", p, "--to", b, "--json"], env: TestPostgres.uncachedRead)
        try #require(toBack.status == 0, "migrate back to SQLite: \(toBack.stderr)")
        let back = try Self.everything(b, env: env)
        for ((what, x), ((_, y), (_, z))) in zip(original, zip(onPG, back)) {
            #expect(x == y, "\(what): PostgreSQL copy differs from the original")
            #expect(x == z, "\(what): SQLite copy of the PostgreSQL copy differs from the original")
        }

        // A non-empty destination is refused, and left as it was.
        for (from, to) in [(a, p), (b, a)] {
            let again = try MoneyFlowBinary.run(["migrate", "--from", from, "--to", to])
            #expect(again.status == 1 && again.stdout.isEmpty, "migrate into a non-empty \(to): exit \(again.status)")
            #expect(again.stderrLines.count == 1, "one line: \(again.stderr)")
        }
        #expect(try Self.everything(p, env: env).map(\.1) == onPG.map(\.1), "the refused migrate changed the PostgreSQL ledger")
        #expect(try Self.everything(a, env: env).map(\.1) == original.map(\.1), "the refused migrate changed the SQLite ledger")

        // Life goes on on both: more files (one re-imports the undone file), an undo, a sync.
        let old = try Self.ids(original[0].1)
        for step in [
            ["import", "Samples/csv/chase_checking.csv", "--json"], ["import", "Samples/ofx/first_platypus_checking.ofx", "--json"],
            ["import", "Samples/csv/amex.csv", "Samples/csv/bofa_card.csv", "--json"], ["undo", String(undone - 1)],
            ["plaid", "sync", "--json"],
        ] {
            let x = try PGCLI.run(step, store: a, env: env), y = try PGCLI.run(step, store: p, env: env)
            #expect(x.status == 0 && y.status == 0, "\(step.joined(separator: " ")): \(x.stderr) \(y.stderr)")
            #expect(x.stdout == y.stdout, "\(step.joined(separator: " ")) answers differently on the PostgreSQL copy")
        }
        let after = try Self.everything(a, env: env), afterPG = try Self.everything(p, env: env)
        for ((what, x), (_, y)) in zip(after, afterPG) where !what.hasPrefix("batches") && !what.hasPrefix("plaid") {
            #expect(x == y, "\(what) differs after the same imports into the original and the PostgreSQL copy")
        }
        // The items without the moments of the sync each store ran.
        #expect(try Self.itemsWithoutSyncTimes(after[6].1) == Self.itemsWithoutSyncTimes(afterPG[6].1))
        let batchesA = try PGCLI.batchesWithoutTimes(after[2].1), batchesP = try PGCLI.batchesWithoutTimes(afterPG[2].1)
        #expect(batchesA == batchesP, "batches differ:\n\(batchesA)\n\(batchesP)")
        let new = try Self.ids(afterPG[0].1)
        let addedTransactions = Set(new.transactions).subtracting(old.transactions),
            addedRecords = Set(new.records).subtracting(old.records)
        #expect(!addedRecords.isEmpty)
        #expect(addedTransactions.allSatisfy { $0 > old.transactions.max() ?? 0 }, "a new transaction reuses an old id")
        #expect(addedRecords.allSatisfy { $0 > old.records.max() ?? 0 }, "a new record reuses an old id")
    }
}
