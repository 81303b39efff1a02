import Foundation
import Testing

/// The workflows a user drives through the built `moneyflow` binary, on the samples and on small
/// crafted files whose right answer is known by construction: batch manifests, the reconcile
/// JSON, review decisions, `--fail-fast`, `--window` and globs.
@Suite("Binary workflows")
struct BinaryWorkflowTests {
    /// A temp folder holding copies of `files` (paths under Samples/, kept as base names).
    static func folder(_ label: String, samples files: [String] = []) throws -> String {
        let dir = try MF.tempDir(label)
        for f in files {
            try FileManager.default.copyItem(atPath: "\(MF.samples)/\(f)", toPath: "\(dir)/\((f as NSString).lastPathComponent)")
        }
        return dir
    }

    static func write(_ text: String, _ path: String) throws { try text.write(toFile: path, atomically: false, encoding: .utf8) }

    /// Runs `moneyflow args --store store` in `dir`; requires exit 0 unless `status` says otherwise.
    @discardableResult
    static func mf(
        _ args: [String], _ dir: String, store: String = "store.sqlite", status: Int32 = 0,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> MFRun {
        let r = try MF.run(args + ["--store", store], cwd: dir)
        #expect(
            r.signal == 0 && r.status == status, "moneyflow \(args.joined(separator: " ")): exit \(r.status): \(r.stderr)",
            sourceLocation: sourceLocation)
        return r
    }

    static func json(_ r: MFRun) throws -> [[String: Any]] {
        try #require(
            try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]], "not a JSON array: \(r.stdout.prefix(300))")
    }

    // A Chase checking export and a Plaid page of the same account (imported with --account):
    // the coffee matches on the same day; the hardware purchase is dated 6 days later by Plaid.
    static let chaseHeader = "Details,Posting Date,Description,Amount,Type,Balance,Check or Slip #\n"
    static let bankCSV =
        chaseHeader + """
            DEBIT,03/10/2026,"BLUE BOTTLE COFFEE",-5.75,DEBIT_CARD, ,,
            DEBIT,03/01/2026,"HARDWARE STORE 55",-42.10,DEBIT_CARD, ,,

            """
    static func plaidPage(_ rows: [(id: String, date: String, amount: String, name: String)]) -> String {
        let added = rows.map {
            #"{"account_id": "acc1", "amount": \#($0.amount), "iso_currency_code": "USD", "date": "\#($0.date)", "name": "\#($0.name)", "pending": false, "pending_transaction_id": null, "transaction_id": "\#($0.id)"}"#
        }
        return
            #"{"added": [\#(added.joined(separator: ","))], "modified": [], "removed": [], "next_cursor": "c1", "has_more": false, "request_id": "r", "accounts": [{"account_id": "acc1", "name": "Checking", "mask": "0001", "type": "depository", "subtype": "checking", "balances": {"current": 100.0, "iso_currency_code": "USD"}}]}"#
    }
    static let feed = plaidPage([("t1", "2026-03-07", "42.10", "HARDWARE STORE 55"), ("t2", "2026-03-10", "5.75", "BLUE BOTTLE COFFEE")])

    @Test func reconcileJSONReportsConfirmedCountsAndTheCMBBalanceBreaks() throws {
        let dir = try Self.folder("bw-reconcile", samples: ["cmb/cmb2020_layout.pdf"])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.write(Self.bankCSV, "\(dir)/bank.csv")
        try Self.write(Self.feed, "\(dir)/feed.json")
        try Self.mf(["import", "cmb2020_layout.pdf", "bank.csv"], dir)
        try Self.mf(["import", "feed.json", "--account", "Chase Checking"], dir)
        let report = try Self.json(try Self.mf(["reconcile", "--format", "json"], dir))
        #expect(report.map { $0["account"] as? String } == ["CMB 1357", "Chase Checking"])
        for a in report {
            #expect(
                Set(a.keys).isSuperset(of: ["account", "confirmed", "statement_only", "plaid_only", "needs_review", "balance_breaks"]),
                "\(a.keys)")
        }
        func list(_ a: [String: Any], _ key: String) -> [[String: Any]] { a[key] as? [[String: Any]] ?? [] }
        let cmb = report[0], chase = report[1]
        // The CMB sample prints one pair of 2020-01-15 rows swapped: its expected.json names the breaks.
        let expected =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(MF.samples)/cmb/cmb2020_layout.expected.json")))
            as! [String: Any]
        let rows = expected["transactions"] as! [[String: Any]]
        let breaks = (expected["balance_chain_breaks"] as! [Int]).map { rows[$0]["balance"] as! String }
        #expect(breaks.count == 3)
        #expect(list(cmb, "balance_breaks").map { $0["printed_balance"] as? String } == breaks)
        #expect(
            list(cmb, "balance_breaks").allSatisfy { $0["file"] as? String == "cmb2020_layout.pdf" && $0["expected_balance"] is String })
        #expect(list(cmb, "statement_only").count == rows.count && list(cmb, "confirmed").isEmpty && list(cmb, "plaid_only").isEmpty)
        // Chase: the coffee is confirmed by both sources; the hardware purchase 6 days apart is not.
        #expect(list(chase, "confirmed").map { $0["description"] as? String } == ["BLUE BOTTLE COFFEE"])
        #expect(list(chase, "confirmed").first?["sources"] as? [String] == ["csv", "plaid"])
        #expect(list(chase, "statement_only").map { $0["amount"] as? String } == ["-42.10"])
        #expect(list(chase, "plaid_only").map { $0["date"] as? String } == ["2026-03-07"])
        #expect(list(chase, "needs_review").isEmpty && list(chase, "balance_breaks").isEmpty)
    }

    /// `--window DAYS` widens the date window: the 6-days-apart pair is two transactions by
    /// default (window 4) and one with `--window 7`.
    @Test func windowChangesTheDecisionOnAPairSixDaysApart() throws {
        for (window, hardware) in [(nil, 2), (7, 1)] as [(Int?, Int)] {
            let dir = try Self.folder("bw-window")
            defer { try? FileManager.default.removeItem(atPath: dir) }
            try Self.write(Self.bankCSV, "\(dir)/bank.csv")
            try Self.write(Self.feed, "\(dir)/feed.json")
            try Self.mf(["import", "bank.csv"], dir)
            let r = try Self.mf(
                ["import", "feed.json", "--account", "Chase Checking", "--json"] + (window.map { ["--window", "\($0)"] } ?? []), dir)
            #expect(try Self.json(r).first?["linked"] as? Int == 3 - hardware, "window \(window.map(String.init) ?? "default")")
            let txs = try Self.json(try Self.mf(["transactions", "--format", "json"], dir))
            #expect(
                txs.filter { $0["description"] as? String == "HARDWARE STORE 55" }.count == hardware,
                "window \(window.map(String.init) ?? "default")")
        }
    }

    /// A Plaid record that could be either of two same-amount bank rows with no shared text goes
    /// to review; `link` settles it, `unlink` splits it off into a NEW transaction id, and a
    /// re-import overturns neither decision.
    @Test func reviewLinkUnlinkRoundTrip() throws {
        let dir = try Self.folder("bw-review")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.write(
            Self.chaseHeader
                + "DEBIT,03/05/2026,\"SAFEWAY 123\",-20.00,DEBIT_CARD, ,,\nDEBIT,03/05/2026,\"WHOLEFDS 456\",-20.00,DEBIT_CARD, ,,\n",
            "\(dir)/bank.csv")
        try Self.write(Self.plaidPage([("t9", "2026-03-05", "20.00", "GROCERY PURCHASE")]), "\(dir)/feed.json")
        try Self.mf(["import", "bank.csv"], dir)
        let imp = try Self.json(try Self.mf(["import", "feed.json", "--account", "Chase Checking", "--json"], dir))
        #expect(imp.first?["needs_review"] as? Int == 1)
        let review = try Self.json(try Self.mf(["review", "--format", "json"], dir))
        let item = try #require(review.first)
        #expect(review.count == 1 && item["description"] as? String == "GROCERY PURCHASE")
        let record = try #require(item["record"] as? Int)
        let candidates = (item["candidates"] as? [[String: Any]] ?? []).compactMap { $0["transaction"] as? Int }
        #expect(candidates.count == 2 && Set(candidates).count == 2, "one entry per candidate: \(candidates)")
        let target = try #require(candidates.last)
        // Ids other transactions held (the record's own review transaction may come back to it).
        let othersBefore = Set(
            try Self.json(try Self.mf(["transactions", "--all", "--format", "json"], dir)).compactMap { $0["id"] as? Int }
        )
        .subtracting([item["transaction"] as? Int ?? -1])

        try Self.mf(["link", "\(record)", "\(target)"], dir)
        #expect(try Self.json(try Self.mf(["review", "--format", "json"], dir)).isEmpty)
        func home(_ txs: [[String: Any]]) -> [String: Any]? {
            txs.first { (($0["sources"] as? [[String: Any]]) ?? []).contains { $0["id"] as? Int == record } }
        }
        var txs = try Self.json(try Self.mf(["transactions", "--format", "json"], dir))
        #expect(home(txs)?["id"] as? Int == target && (home(txs)?["sources"] as? [Any])?.count == 2)
        #expect(txs.count == 2)

        try Self.mf(["unlink", "\(record)"], dir)
        txs = try Self.json(try Self.mf(["transactions", "--format", "json"], dir))
        let alone = try #require(home(txs))
        #expect((alone["sources"] as? [Any])?.count == 1 && txs.count == 3)
        #expect(!othersBefore.contains(alone["id"] as? Int ?? -1), "unlink gave the record another transaction's id \(alone["id"] ?? "-")")
        #expect(try Self.json(try Self.mf(["review", "--format", "json"], dir)).isEmpty, "an unlinked record is decided")
        // The same feed again: already present, the user's decision stands.
        let again = try Self.json(try Self.mf(["import", "feed.json", "--account", "Chase Checking", "--json"], dir))
        #expect(again.first?["already_present"] as? Int == 1 && again.first?["linked"] as? Int == 0)
        #expect(home(try Self.json(try Self.mf(["transactions", "--format", "json"], dir)))?["id"] as? Int == alone["id"] as? Int)
        // `link` of an unknown record is an error, not a silent no-op.
        let bad = try Self.mf(["link", "999", "\(target)"], dir, status: 1)
        #expect(bad.stderrLines.count == 1)
    }

    /// Files apply in path order; `--fail-fast` stops at the first bad one and keeps the earlier ones.
    @Test func failFastStopsAtTheFirstBadFileAndKeepsEarlierOnes() throws {
        for failFast in [false, true] {
            let dir = try Self.folder("bw-failfast")
            defer { try? FileManager.default.removeItem(atPath: dir) }
            try FileManager.default.createDirectory(atPath: "\(dir)/in", withIntermediateDirectories: true)
            for (name, sample) in [
                ("a_amex.csv", "csv/amex.csv"), ("b_bad.csv", "csv/broken/unterminated_quote.csv"),
                ("c_chase.csv", "csv/chase_checking.csv"),
            ] {
                try FileManager.default.copyItem(atPath: "\(MF.samples)/\(sample)", toPath: "\(dir)/in/\(name)")
            }
            let r = try Self.mf(["import", "in"] + (failFast ? ["--fail-fast"] : []), dir, status: 1)
            #expect(r.stderr.contains("b_bad.csv"), "\(r.stderr)")
            let files = Set(
                try Self.json(try Self.mf(["batches", "--format", "json"], dir)).compactMap { $0["file"] as? String }.map {
                    ($0 as NSString).lastPathComponent
                })
            #expect(files.contains("a_amex.csv"), "fail-fast \(failFast): earlier file lost: \(files)")
            #expect(files.contains("c_chase.csv") == !failFast, "fail-fast \(failFast): batches \(files)")
            #expect(!files.contains("b_bad.csv"))
        }
    }

    /// Quoted globs are expanded by moneyflow: `*` stays in its folder, `**` crosses folders.
    @Test func globsSelectTheRightFiles() throws {
        for (pattern, expected) in [
            ("in/*.csv", ["amex.csv"]), ("in/**/*.csv", ["amex.csv", "bofa_card.csv", "chase_checking.csv"]),
            ("in/sub/**/*.csv", ["bofa_card.csv", "chase_checking.csv"]), ("in/**/deeper/*.csv", ["chase_checking.csv"]),
            ("in/**/c*.csv", ["chase_checking.csv"]),
        ] {
            let dir = try Self.folder("bw-glob")
            defer { try? FileManager.default.removeItem(atPath: dir) }
            try FileManager.default.createDirectory(atPath: "\(dir)/in/sub/deeper", withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: "\(MF.samples)/csv/amex.csv", toPath: "\(dir)/in/amex.csv")
            try FileManager.default.copyItem(atPath: "\(MF.samples)/csv/bofa_card.csv", toPath: "\(dir)/in/sub/bofa_card.csv")
            try FileManager.default.copyItem(
                atPath: "\(MF.samples)/csv/chase_checking.csv", toPath: "\(dir)/in/sub/deeper/chase_checking.csv")
            try FileManager.default.copyItem(atPath: "\(MF.samples)/csv/README.md", toPath: "\(dir)/in/sub/README.md")
            let r = try Self.json(try Self.mf(["import", pattern, "--json"], dir))
            let got = r.compactMap { $0["file"] as? String }.map { ($0 as NSString).lastPathComponent }.sorted()
            #expect(got == expected, "\(pattern)")
            #expect(r.allSatisfy { ($0["new"] as? Int ?? 0) > 0 }, "\(pattern)")
        }
    }

    /// `run manifest.toml`: its store, globs, exclude, per-file profile and [accounts] apply.
    @Test func runManifestImportsWhatItSaysIntoItsStore() throws {
        let dir = try Self.folder("bw-manifest")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: "\(dir)/csv/old", withIntermediateDirectories: true)
        for f in ["chase_checking.csv", "amex.csv", "generic_semicolon_ddmmyyyy.csv", "generic_semicolon_ddmmyyyy.profile.toml"] {
            try FileManager.default.copyItem(atPath: "\(MF.samples)/csv/\(f)", toPath: "\(dir)/csv/\(f)")
        }
        try FileManager.default.copyItem(atPath: "\(MF.samples)/csv/bofa_card.csv", toPath: "\(dir)/csv/old/bofa_card.csv")
        try Self.write(
            """
            store = "ledger.sqlite"
            exclude = ["csv/old/**", "**/*.toml"]
            [[files]]
            path = "csv/**/*.csv"
            [[files]]
            path = "csv/generic_semicolon_ddmmyyyy.csv"
            csv_profile = "csv/generic_semicolon_ddmmyyyy.profile.toml"
            [accounts]
            "Chase Checking" = "Assets:Bank:Chase"

            """, "\(dir)/manifest.toml")
        // A dry run plans against an empty ledger and creates no store.
        let dry = try MF.run(["run", "manifest.toml", "--json", "--dry-run"], cwd: dir)
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(try Self.json(dry).reduce(0) { $0 + ($1["new"] as? Int ?? 0) } > 0)
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/ledger.sqlite"), "run --dry-run created the store")
        let r = try MF.run(["run", "manifest.toml", "--json"], cwd: dir)
        #expect(r.status == 0 && r.signal == 0, "\(r.stderr)")
        let results = try Self.json(r)
        #expect(
            results.compactMap { $0["file"] as? String }.map { ($0 as NSString).lastPathComponent }.sorted()
                == ["amex.csv", "chase_checking.csv", "generic_semicolon_ddmmyyyy.csv"])
        #expect(FileManager.default.fileExists(atPath: "\(dir)/ledger.sqlite"), "the manifest's store was not used")
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/moneyflow.sqlite"))
        let imported = results.reduce(0) { $0 + ($1["new"] as? Int ?? 0) }
        let txs = try Self.json(try Self.mf(["transactions", "--format", "json"], dir, store: "ledger.sqlite"))
        #expect(txs.count == imported && imported > 0)
        let export = try Self.mf(["export", "--format", "beancount"], dir, store: "ledger.sqlite")
        #expect(export.stdout.contains("Assets:Bank:Chase"), "[accounts] not applied")
        // A dry run on the existing store changes nothing in it.
        let before = try Data(contentsOf: URL(fileURLWithPath: "\(dir)/ledger.sqlite"))
        #expect(try MF.run(["run", "manifest.toml", "--dry-run"], cwd: dir).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(dir)/ledger.sqlite")) == before)
        // Running it again adds nothing.
        let again = try Self.json(try MF.run(["run", "manifest.toml", "--json"], cwd: dir))
        #expect(again.allSatisfy { $0["new"] as? Int == 0 })
    }

    /// Two coffees with the same date, amount and merchant (two Plaid ids) are two transactions in the store.
    @Test func identicalCoffeesStayTwoInTheStore() throws {
        let dir = try Self.folder("bw-coffees", samples: ["plaid/identical_coffees/page1.json", "plaid/identical_coffees/page2.json"])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.mf(["import", "page1.json"], dir)
        try Self.mf(["import", "page2.json"], dir)
        let coffees = try Self.json(try Self.mf(["transactions", "--format", "json"], dir)).filter {
            ($0["description"] as? String ?? "").hasPrefix("BLUE BOTTLE")
        }
        #expect(coffees.count == 2)
        #expect(
            Set(coffees.compactMap { $0["amount"] as? String }) == ["-5.75"] && Set(coffees.compactMap { $0["date"] as? String }).count == 1
        )
    }
}

/// The demo (`import Samples/`, settings from Samples/moneyflow.toml) is one person's accounts.
@Suite("Demo story")
struct DemoStoryTests {
    @Test func importSamplesIsOnePersonsAccounts() throws {
        let dir = try MF.tempDir("demo")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try MF.run(["import", MF.samples, "--json", "--store", "\(dir)/demo.sqlite"], cwd: dir)
        #expect(r.status == 0 && r.signal == 0, "\(r.stderr)")
        let files = try BinaryWorkflowTests.json(r)
        #expect(files.count == 13 && files.allSatisfy { $0["error"] == nil && $0["status"] as? String != "failed" })
        // Only Plaid pages that open a multi-page update warn, and say so.
        let warnings = files.flatMap { $0["warning_messages"] as? [String] ?? [] }
        #expect(warnings.count == 3 && warnings.allSatisfy { $0.contains("has_more") }, "\(warnings)")
        let accounts = try BinaryWorkflowTests.json(
            try MF.run(["accounts", "--format", "json", "--store", "\(dir)/demo.sqlite"], cwd: dir))
        #expect(
            accounts.compactMap { $0["name"] as? String }.sorted() == [
                "CMB 2468", "Plaid Checking 0000", "Plaid Credit Card 3333", "微信 七七 零钱", "支付宝 qianqi@example.com 余额",
            ])
        let report = try BinaryWorkflowTests.json(try MF.run(["reconcile", "--format", "json", "--store", "\(dir)/demo.sqlite"], cwd: dir))
        func counts(_ name: String) -> [Int] {
            guard let a = report.first(where: { $0["account"] as? String == name }) else { return [] }
            return ["confirmed", "statement_only", "plaid_only", "needs_review", "balance_breaks"].map { (a[$0] as? [Any])?.count ?? -1 }
        }
        // Web-banking CSV rows confirm the statements; the checking download (Feb 15 - Mar 7)
        // confirms Plaid's March records, February is only in the download, 03/11 only in Plaid.
        // The wallet bills' 5 card-paid orders confirm 快捷支付 rows (one the CSV confirms too).
        #expect(counts("CMB 2468") == [50, 47, 0, 0, 0])
        #expect(counts("Plaid Checking 0000") == [9, 5, 1, 0, 0])
        #expect(counts("Plaid Credit Card 3333") == [0, 0, 9, 0, 0])
        // `run` of the same manifest builds the same ledger.
        let run = try MF.run(["run", "\(MF.samples)/moneyflow.toml", "--store", "\(dir)/run.sqlite"], cwd: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(ledgerShape(try ledgerTransactions("\(dir)/run.sqlite")) == ledgerShape(try ledgerTransactions("\(dir)/demo.sqlite")))
    }
}
