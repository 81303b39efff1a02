import Foundation
import MoneyFlowStoreTestSupport
import MoneyFlowTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The real binary on both stores: `--store FILE.sqlite` and `--store postgres://...?ledger=NAME`.
/// Enabled when a test PostgreSQL is configured (MONEYFLOW_TEST_POSTGRES; scripts/test.sh starts
/// one, and under CI the store suite fails loudly when it is missing).
enum PGCLI {
    static let enabled = TestPostgres.isAvailable

    /// `moneyflow args --store store`, run in the repository root so the sample paths (and the
    /// file names a ledger keeps) are the same whichever store is used.
    static func run(_ args: [String], store: String, env: [String: String] = [:], cwd: String = TestPaths.repoRoot.path) throws
        -> BinaryRun
    {
        try MoneyFlowBinary.run(args + ["--store", store], cwd: cwd, env: env)
    }

    /// stdout of a command that must succeed: a read-back, so without the ledger cache (what the
    /// server holds) unless `cached` (what the next command in the user's shell would read).
    static func output(
        _ args: [String], store: String, cwd: String = TestPaths.repoRoot.path, cached: Bool = false,
        sourceLocation: SourceLocation = #_sourceLocation
    )
        throws -> String
    {
        let r = try run(args, store: store, env: cached ? [:] : TestPostgres.uncachedRead, cwd: cwd)
        #expect(r.status == 0 && r.signal == 0, "\(args.joined(separator: " ")) on \(store): \(r.stderr)", sourceLocation: sourceLocation)
        return r.stdout
    }

    static func jsonArray(_ text: String) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]], "not a JSON array: \(text.prefix(200))")
    }

    /// `batches --format json` without the moments of each import and undo (two runs never
    /// share them); whether a batch was undone stays.
    static func batchesWithoutTimes(_ text: String) throws -> String {
        let list = try jsonArray(text).map { b in
            var b = b.filter { $0.key != "imported_at" && $0.key != "last_seen_at" }
            if let undone = b["undone_at"], !(undone is NSNull) { b["undone_at"] = "undone" }
            return b
        }
        return String(decoding: try JSONSerialization.data(withJSONObject: list, options: [.sortedKeys]), as: UTF8.self)
    }

    /// The outputs that must be byte-identical on both stores (batches without their times),
    /// read back from the server (see ``output(_:store:cwd:cached:sourceLocation:)``).
    static func listings(_ store: String, cached: Bool = false) throws -> [(String, String)] {
        var out: [(String, String)] = []
        for args in [
            ["transactions", "--format", "json"], ["transactions", "--all", "--format", "json"], ["accounts", "--format", "json"],
            ["reconcile", "--format", "json"], ["review", "--format", "json"], ["export", "--format", "beancount"],
            ["export", "--format", "csv"],
        ] {
            out.append((args.joined(separator: " "), try output(args, store: store, cached: cached)))
        }
        out.append(
            ("batches --format json", try batchesWithoutTimes(try output(["batches", "--format", "json"], store: store, cached: cached))))
        return out
    }

    static func password(_ sample: String) throws -> String {
        try String(contentsOfFile: "\(TestPaths.samples.path)/cmb/passwords/\(sample).txt", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

@Suite("PostgreSQL through the real binary: same output as SQLite", .enabled(if: PGCLI.enabled), .serialized)
struct PostgresCLITests {
    /// Every kind of sample: the demo (Samples/ with its manifest: CMB ZIPs with password files,
    /// the CMB web-banking CSV, the Plaid feed, the user's own CSV), every bank CSV (with its
    /// profile file when it has one), every OFX/QFX download, more CMB ZIPs with the password in
    /// the environment, and Plaid lifecycle pages (modified, removed, refund).
    static func sampleImports() throws -> [(args: [String], env: [String: String])] {
        let fm = FileManager.default
        let s = TestPaths.samples.path
        var steps: [(args: [String], env: [String: String])] = [(["import", "Samples", "--json"], [:])]
        for f in try fm.contentsOfDirectory(atPath: "\(s)/csv").sorted() where f.hasSuffix(".csv") {
            let stem = String(f.dropLast(4))
            var args = ["import", "Samples/csv/\(f)", "--json"]
            if let profile = [".profile.toml", ".profile.json"].map({ "Samples/csv/\(stem)\($0)" }).first(where: {
                fm.fileExists(atPath: "\(TestPaths.repoRoot.path)/\($0)")
            }) {
                args += ["--csv-profile", profile]
            }
            steps.append((args, [:]))
        }
        for f in try fm.contentsOfDirectory(atPath: "\(s)/ofx").sorted() where f.hasSuffix(".ofx") || f.hasSuffix(".qfx") {
            steps.append((["import", "Samples/ofx/\(f)", "--json"], [:]))
        }
        for zip in ["cmb2024_basic", "cmb2024_multicurrency", "cmb2020_layout"] {
            steps.append(
                (
                    ["import", "Samples/cmb/\(zip).aes256.zip", "--password-env", "MF_PG_TEST_CMB_PW", "--json"],
                    ["MF_PG_TEST_CMB_PW": try PGCLI.password(zip)]
                ))
        }
        steps.append((["import", "Samples/cmb/cmb_pc_gbk.csv", "--json"], [:]))
        // A card bill as PDF, then as e-statements: its statement facts (table statement_fact)
        // show in `accounts` and `batches`, which must be the same on both stores.
        for bill in ["cmbcard_basic.pdf", "cmbcard_january.eml", "cmbcard_multipage.html"] {
            steps.append((["import", "Samples/cmb/card/\(bill)", "--json"], [:]))
        }
        for scenario in ["modified_posted", "removed_posted", "refund"] {
            steps.append((["import", "Samples/plaid/\(scenario)/page1.json", "Samples/plaid/\(scenario)/page2.json", "--json"], [:]))
        }
        return steps
    }

    @Test("every sample imported through the binary gives byte-identical listings on SQLite and PostgreSQL; a re-import adds nothing")
    func samplesByteIdentical() throws {
        let dir = try TestPaths.tempDir("pg-samples")
        let ledger = TestPostgres.ledgerName("cli_samples")
        defer {
            try? FileManager.default.removeItem(atPath: dir)
            TestPostgres.dropLedgers([ledger])
        }
        let sqlite = "\(dir)/samples.sqlite", pg = TestPostgres.storeURL(ledger: ledger)
        let steps = try Self.sampleImports()
        for step in steps {
            let a = try PGCLI.run(step.args, store: sqlite, env: step.env)
            let b = try PGCLI.run(step.args, store: pg, env: step.env)
            let what = step.args.joined(separator: " ")
            #expect(a.status == 0, "SQLite: \(what): \(a.stderr)")
            #expect(b.status == a.status && b.signal == 0, "PostgreSQL: \(what): exit \(b.status) (SQLite \(a.status)): \(b.stderr)")
            // The per-file results (batch ids, counts, warnings) are the same too.
            #expect(b.stdout == a.stdout, "import --json differs: \(what)")
        }
        let onSQLite = try PGCLI.listings(sqlite), onPG = try PGCLI.listings(pg)
        #expect(onSQLite.map(\.0) == onPG.map(\.0))
        for ((what, a), (_, b)) in zip(onSQLite, onPG) {
            #expect(!a.isEmpty)
            #expect(a == b, "\(what) differs between SQLite and PostgreSQL (\(a.utf8.count) vs \(b.utf8.count) bytes)")
        }
        // What the next command reads through the ledger cache the imports kept is what the
        // server holds.
        let throughCache = try PGCLI.listings(pg, cached: true)
        for ((what, a), (_, b)) in zip(onPG, throughCache) {
            #expect(a == b, "\(what) differs between the server and the ledger cache (\(a.utf8.count) vs \(b.utf8.count) bytes)")
        }
        let cards = try PGCLI.jsonArray(try #require(onPG.first { $0.0 == "accounts --format json" }).1).filter {
            ($0["name"] as? String)?.hasPrefix("CMB Card") == true
        }
        #expect(cards.count == 2 && cards.allSatisfy { ($0["statement"] as? [String: String])?["statementDate"] != nil })
        let all = try PGCLI.jsonArray(onPG[1].1)
        #expect(all.count > 500, "the samples give \(all.count) transactions")
        #expect(
            Set(all.flatMap { ($0["sources"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String } }) == [
                "cmb-pdf", "cmb-csv", "csv", "ofx", "plaid", "alipay", "wechat",
            ])

        // Importing everything again adds nothing on PostgreSQL, exactly as on SQLite.
        for step in steps {
            let a = try PGCLI.run(step.args, store: sqlite, env: step.env)
            let b = try PGCLI.run(step.args, store: pg, env: step.env)
            let what = step.args.joined(separator: " ")
            #expect(b.status == 0 && a.status == 0, "re-import \(what): \(b.stderr)")
            let files = try PGCLI.jsonArray(b.stdout.hasPrefix("[") ? b.stdout : "[\(b.stdout)]")
            for f in files { #expect((f["new"] as? Int) == 0, "re-import of \(f["file"] ?? what) added \(f["new"] ?? "?") on PostgreSQL") }
            #expect(b.stdout == a.stdout, "re-import --json differs: \(what)")
        }
        let again = try PGCLI.listings(pg)
        for ((what, before), (_, after)) in zip(onPG, again) where !what.hasPrefix("batches") {
            #expect(before == after, "\(what) changed on PostgreSQL after re-importing everything")
        }
        #expect(try PGCLI.listings(sqlite).map(\.1) == again.map(\.1), "after the re-import the stores still agree")
    }
}

@Suite("PostgreSQL store named by MONEYFLOW_STORE or with a password in the URL", .enabled(if: PGCLI.enabled), .serialized)
struct PostgresStoreURLTests {
    /// The test role's password, from the password file scripts/lib/postgres.sh writes.
    static func rolePassword() throws -> String {
        let file = try #require(ProcessInfo.processInfo.environment["PGPASSFILE"], "PGPASSFILE is not set")
        let line = try #require(try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").first)
        return String(try #require(line.split(separator: ":", maxSplits: 4).last))
    }

    /// `url` with `password` in it.
    static func with(password: String, _ url: String) throws -> String {
        var c = try #require(URLComponents(string: url))
        c.password = password
        return try #require(c.string)
    }

    @Test("MONEYFLOW_STORE=postgres://... is the same ledger as --store, and no file store is made")
    func environmentNamesTheLedger() throws {
        let dir = try TestPaths.tempDir("pg-env")
        let ledger = TestPostgres.ledgerName("cli_env")
        defer {
            try? FileManager.default.removeItem(atPath: dir)
            TestPostgres.dropLedgers([ledger])
        }
        let url = TestPostgres.storeURL(ledger: ledger), env = ["MONEYFLOW_STORE": url]
        let imported = try MoneyFlowBinary.run(["import", TestPaths.samples.path, "--quiet"], cwd: dir, env: env)
        #expect(imported.status == 0, "\(imported.stderr)")
        let viaEnv = try MoneyFlowBinary.run(["transactions", "--format", "json"], cwd: dir, env: env)
        let viaOption = try PGCLI.run(["transactions", "--format", "json"], store: url, env: TestPostgres.uncachedRead, cwd: dir)
        #expect(viaEnv.status == 0 && viaOption.status == 0, "\(viaEnv.stderr) \(viaOption.stderr)")
        #expect(try PGCLI.jsonArray(viaEnv.stdout).count > 50)
        #expect(viaEnv.stdout == viaOption.stdout)
        // --store wins over the environment, as for SQLite.
        let sqlite = "\(dir)/other.sqlite"
        #expect(
            try MoneyFlowBinary.run(["import", "\(TestPaths.samples.path)/csv/amex.csv", "--quiet", "--store", sqlite], cwd: dir, env: env)
                .status == 0)
        #expect(try MoneyFlowBinary.run(["transactions", "--format", "json"], cwd: dir, env: env).stdout == viaOption.stdout)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["other.sqlite"], "a file store appeared")
    }

    @Test("a password in the URL opens the ledger and never appears in stdout or stderr, success or error")
    func passwordNeverPrinted() throws {
        let dir = try TestPaths.tempDir("pg-password")
        let ledger = TestPostgres.ledgerName("cli_pw")
        defer {
            try? FileManager.default.removeItem(atPath: dir)
            TestPostgres.dropLedgers([ledger])
        }
        let password = try Self.rolePassword(), wrong = "Wr0ngPassw0rdNeverShown"
        #expect(password.count >= 16)
        let url = try Self.with(password: password, TestPostgres.storeURL(ledger: ledger))
        let bad = try Self.with(password: wrong, TestPostgres.storeURL(ledger: ledger))
        // Only the URL supplies the password (no password file, no PGPASSWORD).
        let env = ["PGPASSFILE": "/dev/null", "PGPASSWORD": ""]
        let s = TestPaths.samples.path
        var printed = ""
        func run(_ args: [String], env extra: [String: String] = [:]) throws -> BinaryRun {
            let r = try MoneyFlowBinary.run(args, cwd: dir, env: env.merging(extra) { $1 })
            printed += r.stdout + r.stderr
            return r
        }
        #expect(try run(["import", "\(s)/csv/amex.csv", "--store", url]).status == 0)
        #expect(try run(["import", "\(s)/csv/amex.csv", "\(s)/csv/chase_card.csv", "--json", "--verbose", "--store", url]).status == 0)
        #expect(try run(["import", "\(s)/csv/bofa_card.csv"], env: ["MONEYFLOW_STORE": url]).status == 0)
        for list in [
            ["transactions"], ["transactions", "--format", "json"], ["accounts"], ["batches", "--format", "json"], ["reconcile"],
        ] {
            #expect(try run(list + ["--store", url]).status == 0, "\(list)")
        }
        let copied = try run(["migrate", "--from", url, "--to", "\(dir)/copy.sqlite", "--json"])
        #expect(copied.status == 0 && copied.stdout.contains(ledger), "\(copied.stderr)")
        // The server names its database in its first line, without the password.
        let server = try MoneyFlowBinary.spawn(
            ["serve", "--listen", "127.0.0.1:0", "--data", "\(dir)/serve-ok", "--database", TestPostgres.withoutLedger(url)], cwd: dir,
            env: env)
        _ = try server.listeningURL()
        kill(server.pid, SIGTERM)
        let served = try server.wait(timeout: ChildWait.stopTimeout)
        printed += served.stdout + served.stderr
        #expect(
            served.stdout.contains("listening on") && served.stdout.contains("postgres://moneyflow@"), "\(served.stdout) \(served.stderr)")
        // Errors: a bad file, the wrong password, a bad ledger name, an unknown parameter, a
        // missing ledger, the same ledger twice, a non-empty destination, a bad --database.
        var failures = [
            try run(["import", "\(s)/csv/broken/ragged.csv", "--store", url]),
            try run(["transactions", "--store", bad]),
            try run(["import", "\(s)/csv/amex.csv"], env: ["MONEYFLOW_STORE": bad]),
            try run(["transactions", "--store", url.replacingOccurrences(of: "ledger=\(ledger)", with: "ledger=Bad-Name")]),
            try run(["transactions", "--store", url + "&colour=blue"]),
            try run(["transactions", "--store", url.replacingOccurrences(of: "ledger=\(ledger)", with: "ledger=\(ledger)_missing")]),
            try run(["migrate", "--from", url, "--to", url]),
            try run(["migrate", "--from", "\(dir)/copy.sqlite", "--to", url]),
            try run([
                "serve", "--listen", "127.0.0.1:0", "--data", "\(dir)/serve", "--database",
                TestPostgres.withoutLedger(bad) + "&colour=blue",
            ]),
        ]
        // Without the password in the URL the server refuses: the URL's password is what opened it.
        failures.append(try run(["transactions", "--store", TestPostgres.storeURL(ledger: ledger)]))
        for (k, r) in failures.enumerated() {
            #expect(r.status == 1, "failure \(k) exits 1, not \(r.status): \(r.stderr)")
            #expect(r.stderrLines.count == 1, "failure \(k): one line: \(r.stderr)")
        }
        #expect(!printed.contains(password), "the password appears in the output")
        #expect(!printed.contains(wrong), "the wrong password appears in the output")
        #expect(printed.contains("postgres://moneyflow@"), "the ledger is named (without its password) in some message")
    }
}
