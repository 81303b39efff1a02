import Foundation
import MoneyFlowTestSupport
import Testing

/// Categories through the binary (#27): provider categories on the samples, the user's
/// decisions (kept across imports and undo, undoable themselves), splits in the exports, and
/// `rules test`.
@Suite struct CategoryCLITests {
    func json(_ r: CLI.Result) throws -> [[String: Any]] {
        try #require(r.status == 0, "\(r.stderr)")
        return try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [[String: Any]]
    }

    func transactions(_ store: String) throws -> [[String: Any]] {
        try json(try CLI.run(["transactions", "--format", "json"], store: store))
    }

    func ok(_ args: [String], _ store: String) throws -> String {
        let r = try CLI.run(args, store: store)
        #expect(r.status == 0, "\(args): \(r.stderr)")
        return r.stdout
    }

    @Test func everyPlaidBackedRowGetsAnAccountFromTheProviderMapping() throws {
        let store = try CLI.tempStore()
        for month in ["01", "02", "03"] {
            _ = try ok(["import", "Samples/transfers/us_quarter/chase_card_7742_sync_2026-\(month).json"], store)
        }
        let plaid = try transactions(store).filter { t in
            (t["sources"] as! [[String: Any]]).contains { $0["kind"] as? String == "plaid" } && t["transfer"] == nil
        }
        #expect(plaid.count >= 15)
        for t in plaid {
            #expect(t["category_source"] as? String == "provider", "\(t)")
            let account = t["category"] as? String ?? ""
            #expect(["Expenses:", "Income:", "Liabilities:", "Assets:"].contains { account.hasPrefix($0) }, "\(t)")
            #expect((t["category_reason"] as? [String: Any])?["kind"] as? String == "provider")
        }
        let bean = try ok(["export", "--format", "beancount"], store)
        #expect(!bean.contains("Expenses:Uncategorized"))
        try ExportTests.expectBeanCheckPasses(bean)
        try ExportTests.expectHledgerPasses(try ok(["export", "--format", "ledger"], store))
    }

    @Test func alipayRowsGetTheirBillsCategoryAndOwnTransfersNone() throws {
        let store = try CLI.tempStore()
        let w = "Samples/wallets"
        _ = try ok(
            [
                "import", "\(w)/debit_3816_2026-04-13_2026-05-12.pdf", "\(w)/debit_3816_2026-05-13_2026-06-12.pdf",
                "\(w)/debit_3816_2026-06-13_2026-07-12.pdf", "\(w)/card_5521_2026-05.pdf", "\(w)/card_5521_2026-06.pdf",
                "\(w)/card_5521_2026-07.pdf",
            ], store)
        _ = try ok(["import", "\(w)/alipay_2026Q2.zip", "--password-file", "\(w)/passwords/alipay_2026Q2.txt"], store)
        let alipay = try transactions(store).filter { t in (t["sources"] as! [[String: Any]]).contains { $0["kind"] as? String == "alipay" }
        }
        // Every Alipay row's transaction gets a real account from its bill's category (a refund:
        // from its purchase's), except the money moved to 余额宝 (余额 → 余额宝 and card 3816 →
        // 余额宝, two legs each): transfers between own accounts, uncategorised by design.
        let own = alipay.filter { $0["transfer"] != nil }
        let categorised = alipay.filter { t in
            let account = t["category"] as? String ?? ""
            return ["Expenses:", "Income:"].contains { account.hasPrefix($0) }
                && (t["category_source"] as? String == "provider"
                    || (t["category_reason"] as? [String: Any])?["kind"] as? String == "refund")
        }
        #expect(own.count == 4, "\(own.map { $0["description"] ?? "" })")
        #expect(categorised.count == alipay.count - own.count, "\(alipay.count) rows, \(categorised.count) categorised")
        let refunds = alipay.filter { (t: [String: Any]) in (t["category_reason"] as? [String: Any])?["kind"] as? String == "refund" }
        #expect(refunds.count == 2 && refunds.allSatisfy { ($0["category"] as? String)?.hasPrefix("Expenses:") == true })
        #expect(alipay.contains { ($0["description"] as? String ?? "").contains("收益发放") && $0["category"] as? String == "Income:Interest" })
        for t in own {
            #expect(t["category"] is NSNull)
            #expect((t["category_reason"] as? [String: Any])?["kind"] as? String == "own-transfer")
        }
    }

    @Test func aDecisionSurvivesReimportAndTheUndoOfALaterBatch() throws {
        let store = try CLI.tempStore()
        _ = try ok(["import", "Samples/csv/wells_fargo_checking.csv"], store)
        let t = try transactions(store)[1]
        let id = t["id"] as! Int
        #expect(t["category_source"] as? String == "none")
        _ = try ok(["categorize", String(id), "Expenses:Subscriptions"], store)
        let later = try json(
            try CLI.run(["import", "Samples/transfers/us_quarter/Chase5678_Activity_20260401.csv", "--json"], store: store))
        _ = try ok(["undo", String(later[0]["batch"] as! Int)], store)
        _ = try ok(["import", "Samples/csv/wells_fargo_checking.csv"], store)
        let after = try transactions(store).first { ($0["id"] as! Int) == id }
        #expect(after?["category"] as? String == "Expenses:Subscriptions")
        #expect(after?["category_source"] as? String == "user")
        #expect((after?["category_reason"] as? [String: Any])?["kind"] as? String == "user")
    }

    @Test func aDecisionFollowsItsRecordWhenALinkEmptiesItsTransaction() throws {
        let store = try CLI.tempStore()
        _ = try ok(["import", "Samples/csv/wells_fargo_checking.csv"], store)
        let txs = try transactions(store)
        let (from, to) = (txs[0]["id"] as! Int, txs[1]["id"] as! Int)
        let record = (txs[0]["sources"] as! [[String: Any]])[0]["id"] as! Int
        _ = try ok(["categorize", String(from), "Expenses:Kept"], store)
        _ = try ok(["link", String(record), String(to)], store)
        let after = try transactions(store)
        #expect(!after.contains { ($0["id"] as! Int) == from })
        let joined = after.first { ($0["id"] as! Int) == to }
        #expect(joined?["category"] as? String == "Expenses:Kept")
        #expect(joined?["category_source"] as? String == "user")
    }

    @Test func aDecisionTeachesTheSamePayeesOtherRowsAndItsUndoForgets() throws {
        let store = try CLI.tempStore()
        _ = try ok(["import", "Samples/csv/wells_fargo_checking.csv"], store)
        let spotify = try transactions(store).filter { ($0["description"] as! String).contains("SPOTIFY") }.map { $0["id"] as! Int }
        try #require(spotify.count == 2)
        let out = try ok(["categorize", String(spotify[0]), "Expenses:Music"], store)
        let other = try transactions(store).first { ($0["id"] as! Int) == spotify[1] }
        #expect(other?["category"] as? String == "Expenses:Music")
        #expect(other?["category_source"] as? String == "learned")
        #expect(((other?["category_reason"] as? [String: Any])?["text"] as? String)?.contains("#\(spotify[0])") == true)
        _ = try ok(["undo", String(out.split(separator: "(batch ")[1].prefix { $0.isNumber })], store)
        #expect(try transactions(store).allSatisfy { $0["category_source"] as? String == "none" })
    }

    @Test func aSplitExportsOnePostingPerPartSummingExactly() throws {
        let store = try CLI.tempStore()
        _ = try ok(["import", "Samples/csv/wells_fargo_checking.csv"], store)
        let t = try transactions(store).first { ($0["amount"] as! String) == "-11.99" }!
        let id = t["id"] as! Int
        _ = try ok(["categorize", String(id), "Expenses:Music:4.00", "Expenses:Household:rest"], store)
        let split = try transactions(store).first { ($0["id"] as! Int) == id }!
        #expect((split["category_split"] as? [[String: Any]])?.map { $0["amount"] as! String } == ["-4.00", "-7.99"])
        let bean = try ok(["export", "--format", "beancount"], store)
        let entry = bean.components(separatedBy: "\n\n").first { $0.contains("moneyflow-id: \"\(id)\"") } ?? ""
        #expect(entry.contains("  Expenses:Music  4.00 USD"), "\(entry)")
        #expect(entry.contains("  Expenses:Household  7.99 USD"), "\(entry)")
        try ExportTests.expectBeanCheckPasses(bean)
        let journal = try ok(["export", "--format", "ledger"], store)
        #expect(journal.contains("Expenses:Music"))
        try ExportTests.expectHledgerPasses(journal)
        // A split whose parts do not sum up is refused and changes nothing.
        let bad = try CLI.run(["categorize", String(id), "Expenses:Music:4.00", "Expenses:Household:9.00"], store: store)
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("sum to"), "\(bad.stderr)")
    }

    /// `import --rules` categorises the file with the user's rules (stored, as `recategorize`
    /// does; given again unchanged, nothing is stored again); a bad rules file is refused before
    /// the store is created; `--json` stays one JSON document.
    @Test func importWithRulesCategorisesWithThemAndStoresThemOnce() throws {
        let store = try CLI.tempStore()
        let dir = try TestPaths.tempDir("rules")
        let file = "\(dir)/rules.toml", bad = "\(dir)/bad.toml"
        try "[[rule]]\nname = \"music\"\ncategory = \"Expenses:Music\"\ndescription = \"SPOTIFY\"\n".write(
            toFile: file, atomically: true, encoding: .utf8)
        try "[[rule]]\nname = \"music\"\ncategory = \"Music\"\n".write(toFile: bad, atomically: true, encoding: .utf8)
        let refused = try CLI.run(["import", "Samples/csv/wells_fargo_checking.csv", "--rules", bad], store: store)
        #expect(refused.status != 0 && refused.stderr.contains("bad.toml"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: store), "a refused rules file creates no store")

        let first = try CLI.run(["import", "Samples/csv/wells_fargo_checking.csv", "--rules", file, "--json"], store: store)
        #expect(first.status == 0 && first.stderr.contains("category settings stored"), "\(first.stderr)")
        #expect((try JSONSerialization.jsonObject(with: Data(first.stdout.utf8))) is [[String: Any]])
        let spotify = try transactions(store).filter { ($0["description"] as! String).contains("SPOTIFY") }
        #expect(
            spotify.count == 2
                && spotify.allSatisfy { $0["category"] as? String == "Expenses:Music" && $0["category_source"] as? String == "rule" })
        let again = try CLI.run(["import", "Samples/csv/chase_checking.csv", "--rules", file], store: store)
        #expect(again.status == 0 && !again.stderr.contains("category settings stored"), "\(again.stderr)")
        let batches = try json(try CLI.run(["batches", "--format", "json"], store: store))
        #expect(batches.filter { ($0["importer"] as? String) == "recategorize" }.count == 1, "\(batches)")
    }

    @Test func rulesTestListsWhichRuleMatchesWhichTransactions() throws {
        let store = try CLI.tempStore()
        _ = try ok(["import", "Samples/csv/wells_fargo_checking.csv"], store)
        let dir = try TestPaths.tempDir("rules")
        let file = "\(dir)/rules.toml"
        try """
        [[rule]]
        name = "music"
        category = "Expenses:Music"
        description = "SPOTIFY"

        [[rule]]
        name = "all out"
        category = "Expenses:Other"
        direction = "out"
        """.write(toFile: file, atomically: true, encoding: .utf8)
        let spotify = try transactions(store).filter { ($0["description"] as! String).contains("SPOTIFY") }.map { $0["id"] as! Int }
        #expect(!spotify.isEmpty)
        let out = try ok(["rules", "test", file], store)
        #expect(out.contains("rule 1 \"music\" -> Expenses:Music: \(spotify.count) transaction"), "\(out)")
        for id in spotify { #expect(out.contains("#\(id)  ")) }
        #expect(out.contains("rule 2 \"all out\" -> Expenses:Other"))
        #expect(out.contains("also matches \(spotify.count) taken by an earlier rule"))
        // Nothing changed; `recategorize` stores the rules and applies them.
        #expect(try transactions(store).allSatisfy { $0["category_source"] as? String == "none" })
        let before = try transactions(store).map { "\($0["id"]!) \($0["category"] ?? "-") \($0["category_source"]!)" }
        let re = try ok(["recategorize", "--rules", file], store)
        let after = try transactions(store)
        #expect(after.filter { spotify.contains($0["id"] as! Int) }.allSatisfy { $0["category"] as? String == "Expenses:Music" })
        #expect(after.filter { $0["category_source"] as? String == "rule" }.count > spotify.count)
        // The stored rules apply to later imports too; undoing the change puts the categories back.
        let batch = String(re.split(separator: "(batch ")[1].prefix { $0.isNumber })
        _ = try ok(["undo", batch], store)
        #expect(try transactions(store).map { "\($0["id"]!) \($0["category"] ?? "-") \($0["category_source"]!)" } == before)
    }

    @Test func undoingACategorizeRestoresTheDecisionsBeforeIt() throws {
        let store = try CLI.tempStore()
        _ = try ok(["import", "Samples/csv/wells_fargo_checking.csv"], store)
        func categories() throws -> [String] {
            try transactions(store).map { t in
                "\(t["id"]!) \(t["category"] as? String ?? "-") \(t["category_source"]!) \((t["category_reason"] as! [String: Any])["text"]!)"
            }
        }
        let before = try categories()
        let first = try transactions(store)[0]["id"] as! Int
        let b1 = try ok(["categorize", String(first), "Expenses:One"], store)
        let middle = try categories()
        let b2 = try ok(["categorize", "--text", "AUTHORIZED", "Expenses:Two"], store)
        #expect(try categories() != middle)
        func batch(_ out: String) -> String { String(out.split(separator: "(batch ")[1].prefix { $0.isNumber }) }
        _ = try ok(["undo", batch(b2)], store)
        #expect(try categories() == middle)
        _ = try ok(["undo", batch(b1)], store)
        #expect(try categories() == before)
    }
}
