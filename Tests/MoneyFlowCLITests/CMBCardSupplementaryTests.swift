import Foundation
import MoneyFlowTestSupport
import Testing

/// A card with a supplementary card, billed as real bills are: no 卡号 in the header, the card
/// per row only (`cmbcard_supplementary`: July, the supplementary card 2277 names most rows, the
/// repayment names the primary 5108; `cmbcard_supplementary_tie`: August, no repayment, both
/// cards name as many rows). Through the built binary: which account the bill lands in, and
/// the export's balances from the bills.
@Suite("CMB card bills with a supplementary card")
struct CMBCardSupplementaryTests {
    typealias T = CMBCardBillTests

    static func path(_ name: String) -> String { T.dir.appendingPathComponent(name).path }

    static func accounts(_ dir: String) throws -> [String: Int] {
        var out: [String: Int] = [:]
        for t in try T.array(T.run(["transactions", "--format", "json"], dir)) { out[t["account"] as? String ?? "?", default: 0] += 1 }
        return out
    }

    @Test func theBillIsThePrimaryCardsTheCardOfItsRepayment() throws {
        let (_, want) = try T.load("cmbcard_supplementary")
        let supplementary = want.transactions.filter { $0.card == "2277" }.count
        #expect(supplementary > want.transactions.count - supplementary, "the supplementary card names most rows")
        for file in ["cmbcard_supplementary.pdf", "cmbcard_supplementary.html"] {
            let dir = try TestPaths.tempDir("cmbcard-supp")
            let r = try T.object(T.run(["import", Self.path(file), "--json"], dir))
            #expect(r["warnings"] as? Int == 0, "\(file): \(r["warning_messages"] ?? "")")
            #expect(try Self.accounts(dir) == ["CMB Card 5108": want.transactions.count], "\(file)")
        }
        // --split-cards: the supplementary card's rows in its own account, as for bills with 卡号.
        let split = try TestPaths.tempDir("cmbcard-supp-split")
        _ = try T.run(["import", Self.path("cmbcard_supplementary.pdf"), "--split-cards"], split)
        #expect(try Self.accounts(split) == ["CMB Card 5108": want.transactions.count - supplementary, "CMB Card 2277": supplementary])
        // --account decides.
        let named = try TestPaths.tempDir("cmbcard-supp-named")
        _ = try T.run(["import", Self.path("cmbcard_supplementary.pdf"), "--account", "Wang Fang Card"], named)
        #expect(try Self.accounts(named) == ["Wang Fang Card": want.transactions.count])
    }

    @Test func aTiedBillLandsInTheAccountItsSeriesAlreadyHasAndSaysSo() throws {
        let (_, tie) = try T.load("cmbcard_supplementary_tie")
        let (_, july) = try T.load("cmbcard_supplementary")
        #expect(tie.card_candidates == ["2277", "5108"])
        let dir = try TestPaths.tempDir("cmbcard-tie")
        _ = try T.run(["import", Self.path("cmbcard_supplementary.pdf")], dir)
        let r = try T.object(T.run(["import", Self.path("cmbcard_supplementary_tie.pdf"), "--json"], dir))
        let messages = r["warning_messages"] as? [String] ?? []
        #expect(messages.count == 1, "\(messages)")
        #expect(messages.first?.contains("go to CMB Card 5108, the one of these accounts this store already has") == true, "\(messages)")
        #expect(try Self.accounts(dir) == ["CMB Card 5108": july.transactions.count + tie.transactions.count])

        // Alone: the first card the bill names, said in the warning; the same file again adds nothing.
        let alone = try TestPaths.tempDir("cmbcard-tie-alone")
        let first = try T.object(T.run(["import", Self.path("cmbcard_supplementary_tie.pdf"), "--json"], alone))
        let said = (first["warning_messages"] as? [String] ?? []).joined()
        #expect(said.contains("go to CMB Card 2277, the first the file names") && said.contains("use --account"), "\(said)")
        #expect(try Self.accounts(alone) == ["CMB Card 2277": tie.transactions.count])
        let again = try T.object(T.run(["import", Self.path("cmbcard_supplementary_tie.pdf"), "--json"], alone))
        #expect(again["new"] as? Int == 0)

        // --account decides, with nothing to warn about.
        let named = try TestPaths.tempDir("cmbcard-tie-named")
        let n = try T.object(T.run(["import", Self.path("cmbcard_supplementary_tie.pdf"), "--account", "Wang Fang Card", "--json"], named))
        #expect(n["warnings"] as? Int == 0, "\(n["warning_messages"] ?? "")")
        #expect(try Self.accounts(named) == ["Wang Fang Card": tie.transactions.count])
    }

    /// The two bills exported: the card opens at July's 上期账单金额 and each bill's 本期还款总额 is
    /// asserted (liability: owed is negative), so both checkers pass, and a row taken out of
    /// the journal makes both fail.
    @Test func theExportAssertsEachBillsBalanceAndAMissingRowFailsTheCheck() throws {
        let (_, july) = try T.load("cmbcard_supplementary")
        let (_, tie) = try T.load("cmbcard_supplementary_tie")
        let dir = try TestPaths.tempDir("cmbcard-export")
        _ = try T.run(["import", Self.path("cmbcard_supplementary.pdf")], dir)
        _ = try T.run(["import", Self.path("cmbcard_supplementary_tie.pdf")], dir)
        let bean = try T.run(["export", "--format", "beancount"], dir).stdout
        func neg(_ s: String) -> String { s.hasPrefix("-") ? String(s.dropFirst()) : "-" + s }
        #expect(bean.contains("  Liabilities:CMB:5108  \(neg(july.header.previous_balance)) CNY\n  Equity:Opening-Balances"), "\(bean)")
        #expect(bean.contains("2026-07-09 balance Liabilities:CMB:5108  \(neg(july.header.new_balance)) CNY"), "\(bean)")
        #expect(bean.contains("2026-08-09 balance Liabilities:CMB:5108  \(neg(tie.header.new_balance)) CNY"), "\(bean)")
        try ExportTests.expectBeanCheckPasses(bean)
        let ledger = try T.run(["export", "--format", "ledger"], dir).stdout
        if let r = try ExportTests.check("hledger", ["-f", "FILE", "check"], text: ledger, ext: "journal") {
            #expect(r.status == 0, "hledger check failed:\n\(r.output)")
        }

        // One spending row of July lost: both checkers now fail on the card's balance.
        let row = try #require(july.transactions.first { $0.section == "消费" })
        let beanBlocks = bean.components(separatedBy: "\n\n")
        let lost = beanBlocks.filter { !($0.contains(row.description) && $0.contains(" \(row.amount) CNY")) }
        #expect(lost.count == beanBlocks.count - 1)
        if let r = try ExportTests.check("bean-check", ["FILE"], text: lost.joined(separator: "\n\n"), ext: "beancount") {
            #expect(r.status != 0 && r.output.contains("Balance failed"), "\(r.output)")
        }
        let ledgerBlocks = ledger.components(separatedBy: "\n\n")
        let lostLedger = ledgerBlocks.filter { !($0.contains(row.description) && $0.contains(" \(row.amount) CNY")) }
        #expect(lostLedger.count == ledgerBlocks.count - 1)
        if let r = try ExportTests.check("hledger", ["-f", "FILE", "check"], text: lostLedger.joined(separator: "\n\n"), ext: "journal") {
            #expect(r.status != 0 && r.output.contains("balance assertion"), "\(r.output)")
        }

        // Undoing the August bill takes its balance out of the export too; July still checks.
        _ = try T.run(["undo", "2"], dir)
        let undone = try T.run(["export", "--format", "beancount"], dir).stdout
        #expect(!undone.contains("2026-08-09 balance") && undone.contains("2026-07-09 balance"), "\(undone)")
        try ExportTests.expectBeanCheckPasses(undone)
    }
}
