import Foundation
import MoneyFlowTestSupport
import Testing

/// The three transfer scenarios of Samples/transfers (a CMB debit account and its card over a
/// quarter that spans a year end; a US checking account, its savings (OFX) and its card (Plaid
/// pages); a CNY debit paying a USD card row), through the real binary: in the listed order,
/// reversed, interleaved, and twice over, every expected transfer is one transfer, every
/// expected review is offered, nothing else is either, and the exports pass bean-check and
/// hledger check with no `Expenses` posting for a transfer.
@Suite("transfers: the sample scenarios through the binary, in any order")
struct TransferScenarioTests {
    struct Import { var file: String; var args: [String] }
    struct Scenario {
        var dir: String
        var imports: [Import]
        var transfers: Set<String>
        var review: Set<String>
        var decoys: [String]
    }

    /// A leg as the scenario names it: what the importer stores, and the file it came from.
    static func leg(_ o: [String: Any]) -> String {
        ["file", "date", "amount", "currency", "description"].map { "\(o[$0] ?? "")" }.joined(separator: "|")
    }

    static func load(_ name: String) throws -> Scenario {
        let dir = TestPaths.samples.appendingPathComponent("transfers/" + name).path
        let data = try Data(contentsOf: URL(fileURLWithPath: dir + "/expected_transfers.json"))
        let o = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        func pairs(_ key: String) -> Set<String> {
            Set(
                ((o[key] as? [[String: Any]]) ?? []).map {
                    leg($0["out"] as? [String: Any] ?? [:]) + " -> " + leg($0["in"] as? [String: Any] ?? [:])
                })
        }
        let imports = ((o["imports"] as? [[String: Any]]) ?? []).map {
            Import(file: $0["file"] as? String ?? "", args: $0["args"] as? [String] ?? [])
        }
        return Scenario(
            dir: dir, imports: imports, transfers: pairs("transfers"), review: pairs("review"),
            decoys: ((o["not_transfers"] as? [[String: Any]]) ?? []).map(leg))
    }

    /// Imports `order` into a new store and returns (transfers, review, legs in either) as leg names.
    static func run(_ s: Scenario, _ order: [Import]) throws -> (linked: Set<String>, review: Set<String>, store: String) {
        let store = try TestPaths.tempStore("transfers")
        for i in order {
            let r = try MoneyFlowBinary.run(["import", "--store", store, "--quiet", i.file] + i.args, cwd: s.dir)
            #expect(r.status == 0, "import \(i.file): \(r.stderr)")
        }
        let txs = try MoneyFlowBinary.run(["transactions", "--store", store, "--format", "json"])
        let list = try #require(try JSONSerialization.jsonObject(with: Data(txs.stdout.utf8)) as? [[String: Any]])
        // Every file a transaction's records came from, so a leg is found by the file the scenario names.
        var names: [Int: [String]] = [:]
        for t in list {
            let files = ((t["sources"] as? [[String: Any]]) ?? []).compactMap { $0["file"] as? String }
            names[(t["id"] as? NSNumber)?.intValue ?? -1] = files.map { f in
                leg([
                    "file": f, "date": t["date"] ?? "", "amount": t["amount"] ?? "", "currency": t["currency"] ?? "",
                    "description": t["description"] ?? "",
                ])
            }
        }
        let out = try MoneyFlowBinary.run(["transfers", "--store", store, "--format", "json"])
        #expect(out.status == 0, "\(out.stderr)")
        let o = try #require(try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any])
        func pairs(_ key: String, expected: Set<String>) -> Set<String> {
            Set(
                ((o[key] as? [[String: Any]]) ?? []).map { p in
                    let a = names[((p["out"] as? [String: Any])?["id"] as? NSNumber)?.intValue ?? -1] ?? []
                    let b = names[((p["in"] as? [String: Any])?["id"] as? NSNumber)?.intValue ?? -1] ?? []
                    // The name the scenario uses when one is among them, else the first.
                    let all = a.flatMap { x in b.map { x + " -> " + $0 } }
                    return all.first(where: expected.contains) ?? all.first ?? "?"
                })
        }
        return (pairs("transfers", expected: s.transfers), pairs("review", expected: s.review), store)
    }

    static func orders(_ imports: [Import]) -> [(String, [Import])] {
        let half = imports.count / 2
        var interleaved: [Import] = []
        for k in 0..<max(half, imports.count - half) {
            if k < imports.count - half { interleaved.append(imports[half + k]) }
            if k < half { interleaved.append(imports[k]) }
        }
        return [("as listed", imports), ("reversed", imports.reversed()), ("interleaved", interleaved), ("twice", imports + imports)]
    }

    @Test("every expected transfer and review, nothing else, in every order", arguments: ["cmb_quarter", "us_quarter", "cross_currency"])
    func scenario(_ name: String) throws {
        let s = try Self.load(name)
        #expect(!s.imports.isEmpty)
        for (label, order) in Self.orders(s.imports) {
            let got = try Self.run(s, order)
            #expect(got.linked == s.transfers, "\(name), \(label): transfers")
            #expect(got.review == s.review, "\(name), \(label): review")
            let used = (got.linked.union(got.review)).joined(separator: "\n")
            for d in s.decoys { #expect(!used.contains(d), "\(name), \(label): decoy \(d) is in a transfer or a review") }
            if label == "as listed" {
                try Self.checkExports(store: got.store, transfers: s.transfers.count, name: name)
                // `review`, where users look for what waits, points at the transfer pairs.
                let review = try MoneyFlowBinary.run(["review", "--store", got.store])
                #expect(review.stdout.contains("see `moneyflow transfers`") == !s.review.isEmpty, "\(name): \(review.stdout)")
            }
        }
    }

    @Test("accounts pair: the pairing is evidence on every transfer between the two accounts; --remove takes it back")
    func pairing() throws {
        let s = try Self.load("cmb_quarter")
        let got = try Self.run(s, s.imports)
        func reasons() throws -> [String] {
            let out = try MoneyFlowBinary.run(["transfers", "--store", got.store, "--format", "json"])
            let o = try #require(try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any])
            return ((o["transfers"] as? [[String: Any]]) ?? []).map { (($0["reasons"] as? [String]) ?? []).joined(separator: "; ") }
        }
        #expect(try reasons().count == 4)
        #expect(try reasons().allSatisfy { !$0.contains("you paired") })
        let pair = try MoneyFlowBinary.run(["accounts", "pair", "--store", got.store, "CMB 3906", "CMB Card 6612"])
        #expect(pair.status == 0, "\(pair.stderr)")
        #expect(try reasons().count == 4)
        #expect(try reasons().allSatisfy { $0.contains("you paired these two accounts") })
        let same = try MoneyFlowBinary.run(["accounts", "pair", "--store", got.store, "CMB 3906", "CMB 3906"])
        #expect(same.status == 1 && same.stderr.contains("cannot be paired with itself"))
        let unpair = try MoneyFlowBinary.run(["accounts", "pair", "--store", got.store, "CMB Card 6612", "CMB 3906", "--remove"])
        #expect(unpair.status == 0, "\(unpair.stderr)")
        #expect(try reasons().allSatisfy { !$0.contains("you paired") })
    }

    /// The quarter's card owes what its last bill says (7,615.58), not that less the first
    /// bill's 上期账单金额 (4,489.18): the export opens the card at 3,126.40 and asserts each
    /// bill's 本期还款总额, with the transfers from the debit account folded in.
    @Test func theQuarterCardOwesWhatItsLastBillSays() throws {
        let s = try Self.load("cmb_quarter")
        let got = try Self.run(s, s.imports)
        let bean = try MoneyFlowBinary.run(["export", "--store", got.store, "--format", "beancount"]).stdout
        for line in [
            "  Liabilities:CMB:6612  -3126.40 CNY\n  Equity:Opening-Balances", "2025-11-13 balance Liabilities:CMB:6612  -13597.11 CNY",
            "2025-12-13 balance Liabilities:CMB:6612  -5558.22 CNY", "2026-01-13 balance Liabilities:CMB:6612  -7615.58 CNY",
        ] {
            #expect(bean.contains(line), "\(line)\n\(bean)")
        }
        try Self.checkExports(store: got.store, transfers: s.transfers.count, name: "cmb_quarter balances")
    }

    /// A bill whose printed 本期还款总额 contradicts its own check (`cmbcard_check_fails`: 100.00
    /// above it; the import warns) is not asserted, with a note: the card's other bills are, and
    /// both exports of the whole card folder pass their checkers.
    @Test func aBillThatFailsItsOwnCheckIsNotAsserted() throws {
        let dir = try TestPaths.tempDir("bill-check-fails")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = dir + "/s.sqlite"
        let imported = try MoneyFlowBinary.run(["import", "--verbose", "--store", store, TestPaths.samples.appendingPathComponent("cmb/card").path + "/"])
        #expect((imported.stdout + imported.stderr).contains("the bill's check fails"), "\(imported.stdout)\(imported.stderr)")
        try Self.checkExports(store: store, transfers: 0, name: "cmb card folder")
        let bean = try MoneyFlowBinary.run(["export", "--store", store, "--format", "beancount"]).stdout
        #expect(
            bean.contains(
                "Liabilities:CMB:4529: the 2026-06 bill's 本期还款总额 2920.97 is not what its own check gives (2820.97); that bill's balance is not asserted"
            ), "\(bean)")
        #expect(!bean.contains("2026-06-13 balance Liabilities:CMB:4529"), "\(bean)")
        #expect(bean.contains("2026-03-13 balance Liabilities:CMB:4529"), "\(bean)")
    }

    /// The cross-currency pair `transfers` offers, once the user links it (`link --transfer`, as
    /// `transfers` suggests), is one entry in both exports: the USD leg priced at the CNY leg
    /// (`@@ 7234.50 CNY`), so bean-check and hledger check still pass.
    @Test func aLinkedCrossCurrencyTransferKeepsBothExportsBalanced() throws {
        let s = try Self.load("cross_currency")
        let got = try Self.run(s, s.imports)
        let out = try MoneyFlowBinary.run(["transfers", "--store", got.store, "--format", "json"])
        let o = try #require(try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any])
        let pair = try #require((o["review"] as? [[String: Any]])?.first)
        let legs = try ["out", "in"].map { key in
            try #require(((pair[key] as? [String: Any])?["id"] as? NSNumber)?.stringValue, "\(pair)")
        }
        let link = try MoneyFlowBinary.run(["link", "--transfer", legs[0], legs[1], "--store", got.store])
        #expect(link.status == 0, "\(link.stderr)")
        try Self.checkExports(store: got.store, transfers: 1, name: "cross_currency linked")
        let bean = try MoneyFlowBinary.run(["export", "--store", got.store, "--format", "beancount"]).stdout
        #expect(bean.contains("1000.00 USD @@ 7234.50 CNY"), "\(bean)")
        let ledger = try MoneyFlowBinary.run(["export", "--store", got.store, "--format", "ledger"]).stdout
        #expect(ledger.contains("1000.00 USD @@ 7234.50 CNY"), "\(ledger)")
    }

    /// Both exports pass their checkers; each transfer is one entry holding the two accounts'
    /// postings and no `Expenses`/`Income` posting.
    static func checkExports(store: String, transfers: Int, name: String) throws {
        let bean = try MoneyFlowBinary.run(["export", "--store", store, "--format", "beancount"])
        #expect(bean.status == 0, "\(bean.stderr)")
        if let r = try ExportTests.check("bean-check", ["FILE"], text: bean.stdout, ext: "beancount") {
            #expect(r.status == 0, "\(name): bean-check failed:\n\(r.output)")
        }
        let entries = bean.stdout.components(separatedBy: "\n\n").filter { $0.contains("\n  transfer: ") }
        #expect(entries.count == transfers, "\(name): one beancount entry per transfer")
        for e in entries {
            #expect(!e.contains("Expenses:") && !e.contains("Income:"), "\(name): a transfer booked as spending or income:\n\(e)")
        }
        let ledger = try MoneyFlowBinary.run(["export", "--store", store, "--format", "ledger"])
        #expect(ledger.status == 0, "\(ledger.stderr)")
        if let r = try ExportTests.check("hledger", ["-f", "FILE", "check"], text: ledger.stdout, ext: "journal") {
            #expect(r.status == 0, "\(name): hledger check failed:\n\(r.output)")
        }
        let journal = ledger.stdout.components(separatedBy: "\n\n").filter { $0.contains("; transfer: ") }
        #expect(journal.count == transfers, "\(name): one hledger transaction per transfer")
        for e in journal { #expect(!e.contains("Expenses:") && !e.contains("Income:"), "\(name): \(e)") }
    }
}
