import Foundation
import GRDB
import MoneyFlowCore
import MoneyFlowPipeline
import MoneyFlowStore
import MoneyFlowTestSupport
import Testing

/// Issue 13, CLI part: hostile text on terminals and in exports, `--strict`, manifests,
/// unknown names, renames in summaries, streamed listings, export arithmetic. Every check
/// runs the real binary on files built from the real samples.
@Suite struct CLIBehaviourTests {
    /// Characters that must never reach a terminal raw (written out independently of the product).
    static func rawControls(_ s: String) -> [String] {
        s.unicodeScalars.filter { u in
            let v = u.value
            if v == 0x0A { return false } // the table's own line breaks
            return v < 0x20 || (0x7F...0x9F).contains(v) || v == 0x2028 || v == 0x2029
                || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
        }.map { String(format: "U+%04X", $0.value) }
    }

    static func tempDir() throws -> String { try TestPaths.tempDir("cli-b") }

    static func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    static func copySample(_ sample: String, to path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: CLI.repoRoot.appendingPathComponent(sample).path, toPath: path)
    }

    static func json(_ text: String) -> [[String: Any]] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [[String: Any]] ?? []
    }

    // MARK: 1. Terminal escapes

    static let hostile = [
        "CLEAR\u{1B}[2JSCREEN", "TITLE\u{1B}]0;pwned\u{07} BEL\u{07} CR\rX",
        "C1\u{9B}31m RLO\u{202E}evil\u{202C} ISO\u{2066}x\u{2069} LS\u{2028}PS\u{2029}end", "MULTI\nLINE",
    ]

    /// A Chase checking export whose descriptions carry escape sequences, saved under a file
    /// name that carries one too.
    static func hostileCSV(in dir: String) throws -> String {
        var lines = ["Details,Posting Date,Description,Amount,Type,Balance,Check or Slip #"]
        for (i, d) in hostile.enumerated() {
            lines.append("DEBIT,02/2\(i)/2026,\"\(d)\",-10.00,DEBIT_CARD,\(990 - 10 * i).00,,")
        }
        let path = (dir as NSString).appendingPathComponent("st\u{1B}[2Jmt.csv")
        try write(lines.joined(separator: "\r\n") + "\r\n", to: path)
        return path
    }

    /// A cut cell never ends inside an escape (`\u{20…` would hide what was there).
    @Test func truncationKeepsEscapesWhole() {
        for width in 1...24 {
            let cut = TextTable.truncate("EVIL \u{1B}[2J \u{202E} gnp.exe and more text", to: width)
            #expect(TextTable.displayWidth(cut) <= width, "\(width): \(cut)")
            let body = cut.hasSuffix("…") ? String(cut.dropLast()) : cut
            #expect(body.components(separatedBy: "\\u{").count == body.components(separatedBy: "}").count, "\(width): \(cut)")
            #expect(!body.hasSuffix("\\"), "\(width): \(cut)")
        }
        #expect(TextTable.truncate("a\u{202E}bcdefgh", to: 10) == "a\\u{202E}…")
        #expect(TextTable.truncate("a\u{202E}bcdefgh", to: 9) == "a…")
    }

    @Test func hostileTextIsEscapedOnTerminalsExactInJSONAndBlankedInExports() throws {
        let dir = try Self.tempDir()
        let store = (dir as NSString).appendingPathComponent("s.sqlite")
        let file = try Self.hostileCSV(in: dir)
        let account = "Acc\u{1B}[31mRed\u{202E}"
        let imp = try CLI.run(["import", file, "--csv-profile", "chase", "--account", account], store: store)
        #expect(imp.status == 0, "\(imp.stderr)")
        #expect(Self.rawControls(imp.stdout).isEmpty, "import summary: \(Self.rawControls(imp.stdout))")
        #expect(imp.stdout.contains("st\\e[2Jmt.csv") && imp.stdout.contains("Acc\\e[31mRed\\u{202E}"))
        let verbose = try CLI.run(["import", file, "--csv-profile", "chase", "--account", account, "--dry-run"], store: store)
        #expect(Self.rawControls(verbose.stdout).isEmpty, "dry-run plan: \(Self.rawControls(verbose.stdout))")

        for args in [
            ["transactions"], ["transactions", "--all"], ["batches"], ["accounts"], ["reconcile"], ["review"],
            ["import", dir, "--csv-profile", "chase", "--account", account],
        ] {
            let r = try CLI.run(args, store: store)
            #expect(Self.rawControls(r.stdout + r.stderr).isEmpty, "\(args[0]): \(Self.rawControls(r.stdout + r.stderr))")
        }
        let table = try CLI.run(["transactions"], store: store).stdout
        for shown in ["CLEAR\\e[2JSCREEN", "TITLE\\e]0;pwned\\a", "C1\\u{9B}31m", "MULTI\\nLINE"] {
            #expect(table.contains(shown), "\(shown) not shown in\n\(table)")
        }
        // Errors on stderr: a hostile account name and a hostile missing file.
        let err1 = try CLI.run(["transactions", "--account", "x\u{1B}[2J\u{07}"], store: store)
        let err2 = try CLI.run(["import", (dir as NSString).appendingPathComponent("no\u{1B}]0;t\u{07}such.csv")], store: store)
        for e in [err1, err2] {
            #expect(e.status == 1)
            #expect(Self.rawControls(e.stderr).isEmpty && e.stderr.contains("\\e"), "stderr: \(e.stderr)")
        }

        // JSON is exact: the stored text comes back unchanged, U+2028/2029 as \u escapes.
        let j = try CLI.run(["transactions", "--format", "json"], store: store)
        #expect(Set(Self.json(j.stdout).compactMap { $0["description"] as? String }) == Set(Self.hostile))
        #expect(!j.stdout.unicodeScalars.contains { $0.value == 0x2028 || $0.value == 0x2029 || $0.value == 0x1B })

        // Exports: every such character blanked, and the journals still check.
        for format in ["beancount", "ledger", "csv"] {
            let e = try CLI.run(["export", "--format", format], store: store)
            #expect(e.status == 0, "\(e.stderr)")
            let body = format == "csv" ? e.stdout.replacingOccurrences(of: "\r\n", with: "\n") : e.stdout
            #expect(Self.rawControls(body).isEmpty, "\(format): \(Self.rawControls(body))")
            #expect(body.contains("CLEAR [2JSCREEN"), "\(format)")
            if format == "beancount", let r = try ExportTests.check("bean-check", ["FILE"], text: e.stdout, ext: "beancount") {
                #expect(r.status == 0, "\(r.output)")
            }
            if format == "ledger", let r = try ExportTests.check("hledger", ["-f", "FILE", "check"], text: e.stdout, ext: "journal") {
                #expect(r.status == 0, "\(r.output)")
            }
        }
    }

    // MARK: 2. --strict

    static func count(_ command: String, _ store: String) throws -> Int {
        json(try CLI.run([command, "--format", "json"], store: store).stdout).count
    }

    /// A Plaid sync page with `has_more: true` imports with a warning today.
    @Test func strictTurnsWarningsIntoErrorsAndWritesNothing() throws {
        let page = "Samples/plaid/full_period/page1.json"
        let lax = try CLI.tempStore()
        let ok = try CLI.run(["import", page], store: lax)
        #expect(ok.status == 0 && ok.stdout.contains("1 warning"), "\(ok.stdout)")

        let store = try CLI.tempStore()
        let strict = try CLI.run(["import", page, "--strict"], store: store)
        #expect(strict.status == 1)
        #expect(strict.stderr.contains("has_more") && strict.stderr.contains("strict"), "\(strict.stderr)")
        #expect(try Self.count("transactions", store) == 0 && Self.count("batches", store) == 0)
        let dry = try CLI.run(["import", page, "--strict", "--dry-run"], store: store)
        #expect(dry.status == 1)

        // Manifest: top level, per [[files]] entry, and `run --strict` over a lax manifest.
        for (manifest, extra) in [
            ("strict = true\n", [String]()),
            ("[[files]]\npath = \"p/page1.json\"\nstrict = true\n", []),
            ("exclude = []\n", ["--strict"]),
        ] {
            let dir = try Self.tempDir()
            try Self.copySample(page, to: dir + "/p/page1.json")
            try Self.write(manifest, to: dir + "/moneyflow.toml")
            let s = try CLI.tempStore()
            let viaImport = try CLI.run(["import", dir] + extra, store: s)
            let viaRun = try CLI.run(["run", dir + "/moneyflow.toml"] + extra, store: s)
            #expect(viaImport.status == 1 && viaRun.status == 1, "\(manifest): \(viaImport.stdout) \(viaRun.stdout)")
            #expect(try Self.count("batches", s) == 0, "\(manifest)")
        }
    }

    // MARK: 3. Manifests

    @Test func manifestLedgerNamesApplyWhenAnotherFileFails() throws {
        let dir = try Self.tempDir()
        try Self.copySample("Samples/csv/chase_checking.csv", to: dir + "/chase.csv")
        try Self.write("not,a,statement\n1,2,3\n", to: dir + "/bad.csv")
        try Self.write(
            """
            [[files]]
            path = "bad.csv"
            [accounts]
            "Chase Checking" = "Assets:Chase:Main"
            """, to: dir + "/moneyflow.toml")
        for command in [["run", dir + "/moneyflow.toml"], ["import", dir]] {
            let store = try CLI.tempStore()
            let r = try CLI.run(command, store: store)
            #expect(r.status == 1, "\(r.stdout)")
            let accounts = Self.json(try CLI.run(["accounts", "--format", "json"], store: store).stdout)
            #expect(
                accounts.first { $0["name"] as? String == "Chase Checking" }?["ledger_name"] as? String == "Assets:Chase:Main",
                "\(command[0]): \(accounts)")
            let bean = try CLI.run(["export", "--format", "beancount"], store: store).stdout
            #expect(bean.contains("open Assets:Chase:Main"))
        }
    }

    @Test func folderManifestWithoutFilesAppliesExcludeDefaultsAndAccounts() throws {
        let dir = try Self.tempDir()
        try Self.copySample("Samples/csv/chase_checking.csv", to: dir + "/chase.csv")
        try Self.copySample("Samples/csv/amex.csv", to: dir + "/old/amex.csv")
        try Self.write(
            """
            exclude = ["old/**"]
            [defaults]
            account = "Household"
            [accounts]
            "Household" = "Assets:Home"
            """, to: dir + "/moneyflow.toml")
        let store = try CLI.tempStore()
        let r = try CLI.run(["import", dir], store: store)
        #expect(r.status == 0, "\(r.stderr)")
        let batches = Self.json(try CLI.run(["batches", "--format", "json"], store: store).stdout)
        #expect(batches.map { ($0["file"] as? String) ?? "" } == ["chase.csv"])
        let accounts = Self.json(try CLI.run(["accounts", "--format", "json"], store: store).stdout)
        #expect(accounts.map { $0["name"] as? String } == ["Household"])
        #expect(accounts.first?["ledger_name"] as? String == "Assets:Home")
    }

    /// A store kept in the imported folder (`store = "ledger.sqlite"`) is not an input.
    @Test func storeInsideTheImportedFolderIsNotWalked() throws {
        let dir = try Self.tempDir()
        try Self.copySample("Samples/csv/amex.csv", to: dir + "/amex.csv")
        let store = dir + "/ledger.sqlite"
        for _ in 0..<2 {
            let r = try CLI.run(["import", dir, "--json"], store: store)
            #expect(r.status == 0)
            #expect(Self.json(r.stdout).map { ($0["file"] as? String ?? "") }.allSatisfy { $0.hasSuffix("amex.csv") }, "\(r.stdout)")
        }
    }

    @Test func manifestTypeErrorsAndUnknownKeysNameTheKey() throws {
        let cases: [(String, String)] = [
            ("exclude = \"x\"\n", "'exclude'"),
            ("exlude = [\"x\"]\n", "did you mean 'exclude'"),
            ("strict = \"yes\"\n", "'strict'"),
            ("[defaults]\naccount = 3\n", "'account'"),
            ("[defaults]\nwindow_days = \"3\"\n", "'window_days'"),
            ("[[files]]\npath = \"a.csv\"\ncsv_profle = \"chase\"\n", "did you mean 'csv_profile'"),
            ("[accounts]\n\"A\" = 1\n", "[accounts] 'A'"),
        ]
        for (text, expected) in cases {
            let dir = try Self.tempDir()
            try Self.copySample("Samples/csv/chase_checking.csv", to: dir + "/a.csv")
            try Self.write(text, to: dir + "/moneyflow.toml")
            let store = try CLI.tempStore()
            for command in [["run", dir + "/moneyflow.toml"], ["import", dir]] {
                let r = try CLI.run(command, store: store)
                #expect(r.status == 1 && r.stderr.contains(expected), "\(text) -> \(r.stderr)")
            }
            #expect(try Self.count("batches", store) == 0)
        }
    }

    /// The Samples manifest says `import Samples` and `run Samples/moneyflow.toml` are the same batch.
    @Test func runManifestEqualsImportFolder() throws {
        let a = try CLI.tempStore(), b = try CLI.tempStore()
        let ra = try CLI.run(["import", "Samples", "--quiet"], store: a)
        let rb = try CLI.run(["run", "Samples/moneyflow.toml", "--quiet"], store: b)
        #expect(ra.status == rb.status)
        let ba = Self.json(try CLI.run(["batches", "--format", "json"], store: a).stdout).map { $0["file"] as? String }
        let bb = Self.json(try CLI.run(["batches", "--format", "json"], store: b).stdout).map { $0["file"] as? String }
        #expect(ba.count >= 10 && ba == bb, "\(ba.count) vs \(bb.count)")
        let ta = try CLI.run(["transactions", "--format", "json", "--all"], store: a).stdout
        let tb = try CLI.run(["transactions", "--format", "json", "--all"], store: b).stdout
        #expect(!Self.json(ta).isEmpty && ta == tb)
        let xa = try CLI.run(["export", "--format", "beancount"], store: a).stdout
        #expect(xa == (try CLI.run(["export", "--format", "beancount"], store: b).stdout))
    }

    // MARK: 4. Unknown names, suggestions, help

    @Test func unknownAccountIsAnErrorListingKnownNamesEverywhere() throws {
        let store = try CLI.tempStore()
        #expect(try CLI.run(["import", "Samples/csv/chase_checking.csv"], store: store).status == 0)
        for args in [
            ["transactions", "--account", "Chase Chekcing"], ["transactions", "--format", "json", "--account", "Chase Chekcing"],
            ["reconcile", "--account", "Chase Chekcing"], ["export", "--format", "csv", "--account", "Chase Chekcing"],
            ["accounts", "rename", "Chase Chekcing", "X"], ["accounts", "link", "Chase Chekcing", "csv:x"],
        ] {
            let r = try CLI.run(args, store: store)
            #expect(r.status == 1 && r.stdout.isEmpty, "\(args)")
            #expect(
                r.stderr.contains("no account named 'Chase Chekcing'") && r.stderr.contains("known accounts: 'Chase Checking'")
                    && r.stderr.contains("did you mean 'Chase Checking'"), "\(args): \(r.stderr)")
        }
    }

    @Test func misspeltCommandSuggestsTheNearestAndHelpHasExamples() throws {
        let r = try CLI.run(["improt", "x.csv"], store: nil)
        #expect(r.status == 2 && r.stderr.contains("did you mean 'import'"), "\(r.stderr)")
        let far = try CLI.run(["frobnicate"], store: nil)
        #expect(far.status == 2 && !far.stderr.contains("did you mean"), "\(far.stderr)")
        for command in ["accounts", "profiles", "review"] {
            let h = try CLI.run([command, "--help"], store: nil)
            #expect(h.stdout.contains("Examples:") && h.stdout.contains("moneyflow \(command)"), "\(command): \(h.stdout)")
        }
    }

    // MARK: 5. Renames

    @Test func importSummaryNamesTheAccountAsRenamed() throws {
        let store = try CLI.tempStore()
        #expect(try CLI.run(["import", "Samples/csv/chase_checking.csv"], store: store).status == 0)
        #expect(try CLI.run(["accounts", "rename", "Chase Checking", "Joint Checking"], store: store).status == 0)
        let dir = try Self.tempDir()
        let text = try String(contentsOfFile: CLI.repoRoot.appendingPathComponent("Samples/csv/chase_checking.csv").path, encoding: .utf8)
        // One newer row, first (the export is newest first), without a balance.
        var lines = text.components(separatedBy: "\n")
        lines.insert("DEBIT,03/02/2026,\"ONE MORE ROW\",-1.00,DEBIT_CARD, ,,", at: 1)
        try Self.write(lines.joined(separator: "\n"), to: dir + "/chase_more.csv")
        for args in [["import", dir + "/chase_more.csv"], ["import", dir + "/chase_more.csv", "--dry-run"]] {
            let r = try CLI.run(args, store: store)
            #expect(r.status == 0 && r.stdout.contains("-> Joint Checking:") && !r.stdout.contains("Chase Checking"), "\(r.stdout)")
            let j = try CLI.run(args + ["--json"], store: store)
            #expect(Self.json(j.stdout).first?["accounts"] as? [String] == ["Joint Checking"], "\(j.stdout)")
        }
    }

    // MARK: 6. Streamed listings

    @Test func streamedListingsAreByteIdenticalToTheWholeRendering() throws {
        let store = try CLI.tempStore()
        #expect(try CLI.run(["import", "Samples", "--quiet"], store: store).status == 0)
        #expect(try CLI.run(["import", "Samples/plaid/plain_added", "--quiet"], store: store).status == 0)
        let ledger = try LedgerStore(path: store)
        let someAccount = try #require(try ledger.accounts().last?.name)
        for (args, all, account) in [
            ([String](), false, String?.none), (["--all"], true, nil), (["--account", someAccount], false, someAccount),
            (["--from", "2030-01-01"], false, nil),
        ] {
            let from = args.contains("--from") ? LocalDate(iso: "2030-01-01", .lenient) : nil
            let txs = try ledger.transactions(account: account, from: from, includeAll: all)
            let json = try CLI.run(["transactions", "--format", "json"] + args, store: store)
            #expect(
                json.status == 0 && json.stdout == Contracts.transactions(txs, includeState: all).render(pretty: true) + "\n", "\(args)")
            let csv = try CLI.run(["transactions", "--format", "csv"] + args, store: store)
            #expect(csv.status == 0 && csv.stdout == CSVExport.transactions(txs) + "\n", "\(args)")
            guard !all else { continue }
            let exportJSON = try CLI.run(["export", "--format", "json"] + args, store: store)
            #expect(exportJSON.stdout == Contracts.transactions(txs).render(pretty: true) + "\n", "export \(args)")
            let exportCSV = try CLI.run(["export", "--format", "csv"] + args, store: store)
            #expect(exportCSV.stdout == CSVExport.transactions(txs) + "\r\n", "export \(args)")
        }
    }

    // MARK: 7. Export arithmetic

    /// The same through the binary on a real store whose amounts were made huge after import
    /// (as an older version without a parse limit could have stored them).
    @Test func hugeStoredAmountsThroughTheBinary() throws {
        let store = try CLI.tempStore()
        #expect(try CLI.run(["import", "Samples/csv/chase_checking.csv"], store: store).status == 0)
        let db = try DatabaseQueue(path: store)
        try db.write { db in
            try db.execute(sql: "UPDATE txn SET amount_minor = 5000000000000000000, balance_minor = 5000000000000000000")
            try db.execute(sql: "UPDATE record SET amount_minor = 5000000000000000000, balance_minor = 5000000000000000000")
            // That older version kept no sums (v15): the reading commands check the records themselves.
            try db.execute(
                sql: """
                    DROP TABLE month_total; DROP TABLE month_balance; DROP TABLE batch_account; DROP TABLE balance_break;
                    DELETE FROM grdb_migrations WHERE identifier = 'v15-ledger-summaries';
                    """)
        }
        try db.close()
        for args in [
            ["export", "--format", "beancount"], ["export", "--format", "ledger"], ["reconcile", "--format", "json"], ["reconcile"],
        ] {
            let r = try CLI.run(args, store: store)
            #expect(r.status == 0 && r.stdout.contains("50000000000000000.00"), "\(args): \(r.status) \(r.stderr.prefix(300))")
        }
    }

    /// Two stored amounts of 50000000000000000.00 (5e18 minor units): their sum does not fit
    /// Int64. Export and reconcile must not crash.
    @Test func hugeStoredAmountsExportWithoutOverflow() throws {
        let huge = Money(minorUnits: 5_000_000_000_000_000_000, currency: "USD")
        let account = LedgerAccount(
            id: 1, name: "Chase Checking", institution: "Chase", number: nil, type: "checking", subtype: nil,
            currencies: ["USD"], provider: nil, providerAccountID: nil, currentBalance: nil,
            availableBalance: nil, ledgerName: nil, keys: ["csv:chase/checking"])
        func tx(_ id: Int64, _ day: Int, balance: Money?) -> LedgerTransaction {
            let date = LocalDate(iso: "2026-02-0\(day)", .lenient)!
            let source = LedgerSource(
                id: id, kind: .csv, externalID: nil, file: "big.csv", line: Int(id) + 1, page: nil, row: nil,
                state: "active", date: date, amount: huge, description: "BIG", counterparty: nil, pending: false)
            return LedgerTransaction(
                id: id, accountID: 1, account: "Chase Checking", date: date, amount: huge, description: "BIG",
                counterparty: nil, note: nil, balance: balance, category: nil, pending: false, status: "active",
                needsReview: false, sources: [source])
        }
        let min = Money(minorUnits: .min, currency: "USD")
        let txs = [tx(1, 1, balance: huge), tx(2, 2, balance: Money(minorUnits: .max, currency: "USD")), tx(3, 3, balance: min)]
        let bean = BeancountExporter.export(accounts: [account], transactions: txs)
        let journal = LedgerExporter.export(accounts: [account], transactions: txs)
        #expect(bean.contains("50000000000000000.00 USD") && bean.contains("-50000000000000000.00 USD"))
        #expect(journal.contains("50000000000000000.00 USD"))
        var x = txs[0]
        x.amount = min
        let negated = BeancountExporter.export(accounts: [account], transactions: [x])
        #expect(negated.contains("92233720368547758.08 USD"))
    }
}
