import Foundation
import MoneyFlowCore
import MoneyFlowPipeline
import Testing

/// The bill balances of an export (ExportJournal+Bills) on a hand-made card ledger with what
/// real bills do: a row of the next bill dated on this bill's statement date (sold that day,
/// posted the next), a repayment whose debit leg is before the statement date and whose card leg
/// is after it (a transfer: beancount books it at the earlier leg), and a bill missing between
/// two imported ones. Both checkers pass, and each assertion is the bill's figure moved only by
/// the rows of the other side.
@Suite("export: bill balances")
struct BillBalanceExportTests {
    static let debit = LedgerAccount(
        id: 1, name: "CMB 3906", institution: "招商银行", number: "3906", type: nil, subtype: nil, currencies: ["CNY"],
        provider: nil, providerAccountID: nil, currentBalance: nil, availableBalance: nil, ledgerName: nil, keys: [])
    static let card = LedgerAccount(
        id: 2, name: "CMB Card 5108", institution: "招商银行", number: "5108", type: "credit", subtype: "credit card",
        currencies: ["CNY"], provider: nil, providerAccountID: nil, currentBalance: nil, availableBalance: nil, ledgerName: nil, keys: [])

    static func day(_ s: String) -> LocalDate { LocalDate(iso: s, .exact)! }
    static func cny(_ minor: Int64) -> Money { Money(minorUnits: minor, currency: "CNY") }

    static func tx(_ id: Int64, _ account: LedgerAccount, _ date: String, _ minor: Int64, batch: Int64) -> LedgerTransaction {
        var source = LedgerSource(
            id: id, kind: .cmbPDF, externalID: nil, file: "bill\(batch).pdf", line: nil, page: 1, row: Int(id), state: "active",
            date: day(date), amount: cny(minor), description: "row \(id)", counterparty: nil, pending: false)
        source.batchID = batch
        return LedgerTransaction(
            id: id, accountID: account.id, account: account.name, date: day(date), amount: cny(minor), description: "row \(id)",
            counterparty: nil, note: nil, balance: nil, category: nil, pending: false, status: "active", needsReview: false,
            sources: [source])
    }

    static func ledger() -> (txs: [LedgerTransaction], bills: [StatementBill]) {
        // July bill (batch 1): owed 100.00 before, 180.00 after; August (batch 2): 180.00 -> 160.00;
        // October (batch 4): 300.00 -> 340.00 (September was not imported). Batch 3: the debit account.
        var repayOut = tx(20, debit, "2026-07-07", -10000, batch: 3)
        var repayIn = tx(12, card, "2026-07-09", 10000, batch: 2)
        repayOut.transfer = TransferLink(
            direction: "out", otherTransactionID: 12, otherAccountID: 2, otherAccount: card.name, otherDate: day("2026-07-09"),
            otherAmount: cny(10000), decidedBy: "auto", score: 1, reasons: [])
        repayIn.transfer = TransferLink(
            direction: "in", otherTransactionID: 20, otherAccountID: 1, otherAccount: debit.name, otherDate: day("2026-07-07"),
            otherAmount: cny(-10000), decidedBy: "auto", score: 1, reasons: [])
        let txs = [
            tx(10, card, "2026-06-20", -10000, batch: 1), tx(11, card, "2026-07-01", 2000, batch: 1),
            tx(13, card, "2026-07-08", -3000, batch: 2), repayIn, tx(14, card, "2026-07-15", -5000, batch: 2),
            tx(15, card, "2026-09-20", -4000, batch: 4), repayOut,
        ].sorted { ($0.accountID, $0.date, $0.id) < ($1.accountID, $1.date, $1.id) }
        func bill(_ month: String, _ date: String, _ previous: Int64, _ new: Int64, _ batch: Int64) -> StatementBill {
            StatementBill(
                account: card.name, month: month, statementDate: day(date), previousBalance: cny(previous), newBalance: cny(new),
                batchIDs: [batch])
        }
        return (
            txs,
            [bill("2026-07", "2026-07-08", 10000, 18000, 1), bill("2026-08", "2026-08-08", 18000, 16000, 2), bill("2026-10", "2026-10-08", 30000, 34000, 4)]
        )
    }

    @Test func eachBillIsAssertedAcrossStraddlingRowsTransfersAndAGap() throws {
        let (txs, bills) = Self.ledger()
        let bean = BeancountExporter.export(accounts: [Self.debit, Self.card], transactions: txs, bills: bills)
        // July: 180.00 owed, less the August row dated 07-08 (-30.00); beancount also counts the
        // repayment from its debit leg's date (07-07): -180.00 - 30.00 + 100.00.
        #expect(bean.contains("  Liabilities:CMB:5108  -100.00 CNY\n  Equity:Opening-Balances  100.00 CNY"), "\(bean)")
        #expect(bean.contains("2026-07-09 balance Liabilities:CMB:5108  -110.00 CNY"), "\(bean)")
        #expect(bean.contains("2026-08-09 balance Liabilities:CMB:5108  -160.00 CNY"), "\(bean)")
        #expect(bean.contains("2026-08-09 * \"Bills not imported"), "\(bean)")
        #expect(bean.contains("; note: Liabilities:CMB:5108: the 2026-10 bill's 上期账单金额 300.00"), "\(bean)")
        #expect(bean.contains("2026-10-09 balance Liabilities:CMB:5108  -340.00 CNY"), "\(bean)")
        try ExportTests.expectBeanCheckPasses(bean)

        let journal = LedgerExporter.export(accounts: [Self.debit, Self.card], transactions: txs, bills: bills)
        // hledger counts the card leg on its own date (a posting date): -180.00 - 30.00.
        #expect(journal.contains("2026-07-08 Statement balance\n    Liabilities:CMB:5108"), "\(journal)")
        #expect(journal.contains("0.00 CNY = -210.00 CNY"), "\(journal)")
        try ExportTests.expectHledgerPasses(journal)

        // A July row changed by one yuan: both fail (beancount allows one unit of the last digit, 0.01).
        var wrong = txs
        let i = try #require(wrong.firstIndex { $0.id == 10 })
        wrong[i].amount = Self.cny(-10100)
        let badBean = BeancountExporter.export(accounts: [Self.debit, Self.card], transactions: wrong, bills: bills)
        if let r = try ExportTests.check("bean-check", ["FILE"], text: badBean, ext: "beancount") {
            #expect(r.status != 0 && r.output.contains("Balance failed"), "\(r.output)")
        }
        let badJournal = LedgerExporter.export(accounts: [Self.debit, Self.card], transactions: wrong, bills: bills)
        if let r = try ExportTests.check("hledger", ["-f", "FILE", "check"], text: badJournal, ext: "journal") {
            #expect(r.status != 0, "\(r.output)")
        }
    }

    /// Two accounts written under one ledger name: the bills of one cannot speak for both.
    @Test func aSharedLedgerNameAssertsNoBill() throws {
        let (txs, bills) = Self.ledger()
        var debit = Self.debit, card = Self.card
        debit.ledgerName = "Liabilities:Household"
        card.ledgerName = "Liabilities:Household"
        let bean = BeancountExporter.export(accounts: [debit, card], transactions: txs, bills: bills)
        #expect(!bean.contains(" balance ") && bean.contains("; note: Liabilities:Household is the ledger name of several accounts"), "\(bean)")
        try ExportTests.expectBeanCheckPasses(bean)
    }

    @Test func billsComeFromTheBatchesStillImportedOnePerMonth() {
        func batch(_ id: Int64, _ undone: String?, _ facts: [String: String]) -> LedgerBatch {
            var b = LedgerBatch(
                id: id, fileName: "b\(id)", fileSHA256: "", importer: "cmb-card-pdf", importedAt: "", counts: ImportCounts(), undoneAt: undone)
            b.facts = ["CMB Card 5108": facts]
            return b
        }
        let july = ["statementMonth": "2026-07", "statementDate": "2026-07-08", "previousBalance": "100.00", "newBalance": "180.00"]
        let august = ["statementMonth": "2026-08", "statementDate": "2026-08-08", "previousBalance": "180.00", "newBalance": "160.00"]
        let bills = StatementBill.bills(
            from: [batch(1, nil, july), batch(2, nil, july), batch(3, "2026-09-01", august)], accounts: [Self.card])
        #expect(bills.map(\.month) == ["2026-07"])
        #expect(bills.first?.batchIDs == [1, 2] && bills.first?.newBalance == Self.cny(18000))
    }
}
