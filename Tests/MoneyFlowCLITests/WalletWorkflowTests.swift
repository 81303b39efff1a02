import Foundation
import MoneyFlowTestSupport
import Testing

/// The wallet quarter of Samples/wallets through the real binary (three CMB debit statements,
/// three card bills, the Alipay and WeChat bills as e-mailed, in their password ZIPs): bank
/// first, wallets first, interleaved and everything twice give one ledger, in which every link
/// of expected_links.json is one transaction and no other wallet record shares one with a bank
/// row; the card accounts hold their statement rows plus the wallet rows the bank has not booked
/// (`awaiting_bank`); re-imports add nothing; undoing a wallet batch gives the ledger back; the
/// exports pass bean-check and hledger check.
@Suite("wallets: the quarter through the binary, in any order")
struct WalletWorkflowTests {
    static let dir = TestPaths.samples.appendingPathComponent("wallets").path
    static let debit = ["2026-04-13_2026-05-12", "2026-05-13_2026-06-12", "2026-06-13_2026-07-12"].map { "debit_3816_\($0).pdf" }
    static let card = ["05", "06", "07"].map { "card_5521_2026-\($0).pdf" }
    static let wallets = ["alipay_2026Q2", "wechat_2026Q2"]
    static let walletKinds: Set<String> = ["alipay", "wechat"]

    static func args(_ file: String) -> [String] {
        let stem = (file as NSString).deletingPathExtension
        return wallets.contains(stem) ? [file, "--password-file", "passwords/\(stem).txt"] : [file]
    }

    static let bankFirst = debit + card + wallets.map { $0 + ".zip" }
    static let orders: [(String, [String])] = [
        ("bank first", bankFirst),
        ("wallets first", wallets.map { $0 + ".zip" } + debit + card),
        (
            "interleaved",
            [debit[0], "alipay_2026Q2.zip", card[0], debit[1], "wechat_2026Q2.zip", card[1], debit[2], card[2]]
        ),
        ("twice", bankFirst + bankFirst),
    ]

    static func json(_ args: [String], store: String) throws -> Any {
        let r = try MoneyFlowBinary.run(args + ["--store", store], cwd: dir)
        #expect(r.status == 0, "\(args): \(r.stderr)")
        return try JSONSerialization.jsonObject(with: Data(r.stdout.utf8))
    }

    static func transactions(_ store: String) throws -> [[String: Any]] {
        try #require(try json(["transactions", "--format", "json"], store: store) as? [[String: Any]])
    }

    /// Imports `files` in order into a new store, each one import; returns the store.
    static func build(_ files: [String], label: String = "wallets") throws -> String {
        let store = try TestPaths.tempStore(label)
        for f in files {
            let r = try MoneyFlowBinary.run(["import", "--store", store, "--quiet"] + args(f), cwd: dir)
            #expect(r.status == 0, "import \(f): \(r.stderr)")
        }
        return store
    }

    /// A record as a link names it: a wallet's order number (and leg), a bank row's file.
    static func isWallet(_ s: [String: Any]) -> Bool { walletKinds.contains(s["kind"] as? String ?? "") }

    /// What a transaction is, without the store's ids: its account, date, amount, texts and records.
    static func projection(_ txs: [[String: Any]]) -> [String] {
        txs.map { t in
            let sources = ((t["sources"] as? [[String: Any]]) ?? []).map { s in
                ["kind", "external_id", "file", "page", "row", "line"].map { "\(s[$0] ?? "-")" }.joined(separator: ",")
            }
            return
                (["account", "date", "amount", "currency", "description", "counterparty", "note", "balance", "pending"].map {
                    "\(t[$0] ?? "-")"
                } + sources.sorted()).joined(separator: "|")
        }.sorted()
    }

    /// The links the ledger holds: each wallet record sharing a transaction with a bank row, as
    /// `order number -> bank file|date|amount`.
    static func links(_ txs: [[String: Any]]) -> Set<String> {
        var out: Set<String> = []
        for t in txs {
            let sources = (t["sources"] as? [[String: Any]]) ?? []
            for w in sources where isWallet(w) {
                for b in sources where !isWallet(b) {
                    out.insert("\(w["external_id"] ?? "") -> \(b["file"] ?? "")|\(t["date"] ?? "")|\(t["amount"] ?? "")")
                }
            }
        }
        return out
    }

    static func expectedLinks() throws -> (links: Set<String>, awaiting: [String]) {
        let data = try Data(contentsOf: URL(fileURLWithPath: dir + "/expected_links.json"))
        let o = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        // A top-up's two legs share the order number; the amount tells them apart.
        func id(_ w: [String: Any]) -> String { w["external_id"] as? String ?? "" }
        let links = ((o["links"] as? [[String: Any]]) ?? []).map { l in
            let w = l["wallet"] as? [String: Any] ?? [:]
            let b = l["bank"] as? [String: Any] ?? [:]
            return "\(id(w)) -> \(b["file"] ?? "")|\(b["date"] ?? "")|\(b["amount"] ?? "")"
        }
        let awaiting = ((o["bank_row_not_yet_arrived"] as? [[String: Any]]) ?? []).map { id($0["wallet"] as? [String: Any] ?? [:]) }
        return (Set(links), awaiting)
    }

    /// Rows per statement or bill, from their expected files (the generator's).
    static func statementRows(_ file: String) throws -> Int {
        let url = URL(fileURLWithPath: dir + "/" + (file as NSString).deletingPathExtension + ".expected.json")
        let o = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        return (o["transactions"] as? [Any])?.count ?? -1
    }

    @Test("every expected link, no other, and one ledger in every order")
    func everyOrderGivesTheSameLinkedLedger() throws {
        let expected = try Self.expectedLinks()
        #expect(expected.links.count == 83 && expected.awaiting.count == 1)
        var first: [String]?
        for (label, order) in Self.orders {
            let store = try Self.build(order)
            let txs = try Self.transactions(store)
            let got = Self.links(txs)
            let exact = got == expected.links
            #expect(
                exact, "\(label): missing \(expected.links.subtracting(got).sorted()), extra \(got.subtracting(expected.links).sorted())")
            let projection = Self.projection(txs)
            if let first {
                let same = projection == first
                #expect(same, "\(label): differs from bank first: \(Set(projection).symmetricDifference(first).sorted())")
            } else {
                first = projection
            }
            try Self.checkCardAccounts(store: store, txs: txs, awaiting: expected.awaiting, label: label)
        }
    }

    /// The debit and card accounts hold their statement rows (one transaction each) plus the
    /// card-funded wallet rows no statement has booked yet, which `reconcile` shows as awaiting.
    static func checkCardAccounts(store: String, txs: [[String: Any]], awaiting: [String], label: String) throws {
        let reconcile = try #require(try json(["reconcile", "--format", "json"], store: store) as? [[String: Any]])
        for (files, number) in [(debit, "3816"), (card, "5521")] {
            let account = try #require(
                Set(
                    txs.filter { t in ((t["sources"] as? [[String: Any]]) ?? []).contains { files.contains($0["file"] as? String ?? "") } }
                        .compactMap { $0["account"] as? String }
                ).first, "\(label): no account for \(number)")
            let held = txs.filter { $0["account"] as? String == account }
            let banked = held.filter { t in ((t["sources"] as? [[String: Any]]) ?? []).contains { !isWallet($0) } }
            #expect(banked.count == (try files.map(statementRows).reduce(0, +)), "\(label): \(account) statement rows")
            let walletOnly = held.filter { t in ((t["sources"] as? [[String: Any]]) ?? []).allSatisfy(isWallet) }
            let ids = walletOnly.flatMap { t in ((t["sources"] as? [[String: Any]]) ?? []).map { "\($0["external_id"] ?? "")" } }
            #expect(ids.sorted() == (number == "3816" ? awaiting.sorted() : []), "\(label): \(account) wallet rows without their bank row")
            let section = reconcile.first { $0["account"] as? String == account } ?? [:]
            let waiting = ((section["awaiting_bank"] as? [[String: Any]]) ?? []).compactMap { ($0["id"] as? NSNumber)?.intValue }
            #expect(Set(waiting) == Set(walletOnly.compactMap { ($0["id"] as? NSNumber)?.intValue }), "\(label): \(account) awaiting_bank")
        }
    }

    /// Everything the user sees of a ledger, ids included.
    static func view(_ store: String) throws -> String {
        try [
            ["transactions", "--format", "json"], ["accounts", "--format", "json"], ["transfers", "--format", "json"],
            ["reconcile", "--format", "json"],
        ]
        .map { args in
            let r = try MoneyFlowBinary.run(args + ["--store", store], cwd: dir)
            #expect(r.status == 0, "\(args): \(r.stderr)")
            return r.stdout
        }.joined(separator: "\n#\n")
    }

    @Test("re-importing adds nothing; undoing a wallet batch gives back the ledger before it")
    func reimportAndUndo() throws {
        let store = try Self.build(Self.debit + Self.card + ["alipay_2026Q2.zip"])
        let before = try Self.view(store)
        let imported = try #require(try Self.json(["import", "--json"] + Self.args("wechat_2026Q2.zip"), store: store) as? [[String: Any]])
        let batch = try #require((imported.first?["batch"] as? NSNumber)?.stringValue)
        let after = try Self.view(store)
        #expect(after != before)
        for f in Self.bankFirst {
            let again = try #require(try Self.json(["import", "--json"] + Self.args(f), store: store) as? [[String: Any]])
            #expect(again.first?["new"] as? Int == 0, "\(f): \(again)")
        }
        #expect(try Self.view(store) == after, "a re-import changed the ledger")
        let undo = try MoneyFlowBinary.run(["undo", batch, "--store", store], cwd: Self.dir)
        #expect(undo.status == 0, "\(undo.stderr)")
        #expect(try Self.view(store) == before, "undo of the WeChat batch")

        // Wallets first: undoing the Alipay bill leaves the ledger of the other files.
        let walletsFirst = try Self.build(["alipay_2026Q2.zip", "wechat_2026Q2.zip"] + Self.debit + Self.card)
        let batches = try #require(try Self.json(["batches", "--format", "json"], store: walletsFirst) as? [[String: Any]])
        let alipay = try #require(
            batches.first { ($0["file"] as? String ?? "").hasPrefix("alipay") }.flatMap { ($0["id"] as? NSNumber)?.stringValue },
            "\(batches)")
        #expect(try MoneyFlowBinary.run(["undo", alipay, "--store", walletsFirst], cwd: Self.dir).status == 0)
        let without = try Self.build(["wechat_2026Q2.zip"] + Self.debit + Self.card)
        let (a, b) = (Self.projection(try Self.transactions(walletsFirst)), Self.projection(try Self.transactions(without)))
        let same = a == b
        #expect(same, "undo of the Alipay bill: \(Set(a).symmetricDifference(b).sorted())")
    }

    /// A card-funded wallet refund is the bank's refund row: `快捷退款` on the debit statement
    /// (Alipay and WeChat), a credit row on the card bill (Alipay); each shows the wallet's
    /// refund item beside the bank's own text, in either import order.
    @Test("card-funded refunds link to the bank's refund rows")
    func refundsLinkToTheBanksRefundRows() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.dir + "/expected_links.json"))
        let o = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let refunds = ((o["links"] as? [[String: Any]]) ?? []).compactMap { l -> (order: String, bank: String)? in
            let w = l["wallet"] as? [String: Any] ?? [:], b = l["bank"] as? [String: Any] ?? [:]
            let isRefund =
                b["description"] as? String == "快捷退款"
                || ((b["file"] as? String ?? "").hasPrefix("card_") && !(b["amount"] as? String ?? "-").hasPrefix("-"))
            return isRefund ? (w["external_id"] as? String ?? "", "\(b["file"] ?? "")|\(b["date"] ?? "")|\(b["amount"] ?? "")") : nil
        }
        #expect(refunds.count == 3, "\(refunds)")
        for order in [Self.bankFirst, Self.orders[1].1] {
            let txs = try Self.transactions(try Self.build(order))
            for r in refunds {
                let t = txs.first { t in ((t["sources"] as? [[String: Any]]) ?? []).contains { $0["external_id"] as? String == r.order } }
                let files = ((t?["sources"] as? [[String: Any]]) ?? []).compactMap { $0["file"] as? String }
                #expect(files.contains(String(r.bank.prefix { $0 != "|" })), "refund \(r.order) is not linked to \(r.bank): \(t ?? [:])")
                #expect(
                    "\(t?["date"] ?? "")|\(t?["amount"] ?? "")" == String(r.bank.drop { $0 != "|" }.dropFirst()), "\(r.order): \(t ?? [:])")
                #expect((t?["note"] as? String ?? "").contains("退款") || (t?["description"] as? String ?? "") == "快捷退款", "\(t ?? [:])")
            }
        }
    }

    /// The demo (`import Samples/`, Samples/moneyflow.toml): every order of the demo person's
    /// bills paid with card 2468 (the generator's expected files) is one transaction with its
    /// statement row, which shows the wallet's merchant and item; nothing waits for review.
    @Test("the demo's wallet orders gain the statement's 支付宝/财付通 rows their merchant")
    func theDemoLinksItsWalletBills() throws {
        let store = try TestPaths.tempStore("demo-wallets")
        let r = try MoneyFlowBinary.run(["import", "--store", store, "--quiet", "Samples/"], cwd: TestPaths.repoRoot.path)
        #expect(r.status == 0, "\(r.stderr)")
        let txs = try Self.transactions(store)
        var card = 0
        for bill in ["alipay_2026Q1Q2", "wechat_2026Q1Q2"] {
            let url = TestPaths.samples.appendingPathComponent("demo_wallets/\(bill).expected.json")
            let o = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
            for rec in (o["records"] as? [[String: Any]]) ?? [] where rec["account"] as? String == "bankcard:招商银行:debit:2468" {
                card += 1
                let t = txs.first { t in
                    ((t["sources"] as? [[String: Any]]) ?? []).contains { $0["external_id"] as? String == rec["external_id"] as? String }
                }
                let kinds = Set(((t?["sources"] as? [[String: Any]]) ?? []).compactMap { $0["kind"] as? String })
                #expect(
                    kinds.contains("cmb-pdf") && t?["account"] as? String == "CMB 2468", "\(bill) \(rec["external_id"] ?? ""): \(t ?? [:])")
                #expect(t?["date"] as? String == rec["date"] as? String && t?["amount"] as? String == rec["amount"] as? String)
                #expect(
                    t?["counterparty"] as? String == rec["counterparty"] as? String
                        && t?["note"] as? String == rec["description"] as? String)
                #expect(t?["description"] as? String == "快捷支付", "the statement's own text stays")
            }
        }
        #expect(card == 5)
        let review = try #require(try Self.json(["review", "--format", "json"], store: store) as? [Any])
        #expect(review.isEmpty, "\(review)")
    }

    @Test("the linked ledger's exports pass bean-check and hledger check")
    func exportsPassTheirCheckers() throws {
        let store = try Self.build(Self.orders[2].1)
        let bean = try MoneyFlowBinary.run(["export", "--store", store, "--format", "beancount"])
        #expect(bean.status == 0, "\(bean.stderr)")
        try ExportTests.expectBeanCheckPasses(bean.stdout)
        let ledger = try MoneyFlowBinary.run(["export", "--store", store, "--format", "ledger"])
        #expect(ledger.status == 0, "\(ledger.stderr)")
        try ExportTests.expectHledgerPasses(ledger.stdout)
    }
}
