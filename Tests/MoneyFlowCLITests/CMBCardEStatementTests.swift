import Foundation
import MoneyFlowCMB
import MoneyFlowCore
import MoneyFlowImporters
import MoneyFlowPipeline
import MoneyFlowTestSupport
import Testing

/// The CMB credit-card e-statement (招商银行信用卡电子账单) saved as `.html` or `.eml`, in
/// `Samples/cmb/card`: the same bill as the PDF of the same name, so every field is checked
/// against the PDF's `expected.json`, and importing one after the other adds nothing.
@Suite("CMB credit-card e-statements")
struct CMBCardEStatementTests {
    static let dir = CMBCardBillTests.dir
    /// (bill, file suffix): a January bill (GB 18030 page; GB2312 e-mail in base64, `&yen;`) and a
    /// bill with foreign-currency rows and a supplementary card (UTF-8 page with `¥`; UTF-8
    /// e-mail in quoted-printable with `&#165;`).
    /// A bill printed as real ones are (no 卡号 in the header, a supplementary card naming most
    /// rows, the standard notes under the rows; UTF-8 page with `&yen;`).
    static let files = [
        "cmbcard_january.html", "cmbcard_january.eml", "cmbcard_multipage.html", "cmbcard_multipage.eml", "cmbcard_supplementary.html",
    ]

    static func fixture(_ file: String) -> String { String(file.prefix { $0 != "." }) }

    static func read(_ file: String) throws -> (importer: String?, statement: ImportedStatement) {
        let input = ImportInput(fileName: file, data: try Data(contentsOf: dir.appendingPathComponent(file)))
        let registry = DefaultImporters.registry
        let importer = try #require(registry.detect(input))
        return (importer.id, try importer.read(input, options: ImportOptions()))
    }

    @Test("every field matches the PDF bill's expected.json, through the registry", arguments: files)
    func fieldExact(_ file: String) throws {
        let (_, want) = try CMBCardBillTests.load(Self.fixture(file))
        let (id, s) = try Self.read(file)
        #expect(id == "cmb-card-html")
        #expect(s.importerID == "cmb-card-html")
        #expect(s.warnings.isEmpty, "\(s.warnings)")
        #expect(s.accounts.count == 1)
        let a = try #require(s.accounts.first)
        #expect(a.key == want.account_key && a.type == "credit" && a.subtype == "credit card")
        #expect(a.number == (want.header.card_number ?? want.header.card_last4))
        let h = want.header
        let facts: [String: String] = [
            "statementDate": h.statement_date, "paymentDueDate": h.payment_due_date, "creditLimit": h.credit_limit,
            "newBalance": h.new_balance, "previousBalance": h.previous_balance, "previousPayment": h.previous_payment,
            "newCharges": h.new_charges, "adjustment": h.adjustment, "interest": h.interest,
            "statementMonth": String(format: "%04d-%02d", want.title.year, want.title.month),
        ]
        for (k, v) in facts { #expect(a.details[k] == v, "\(file) \(k)") }
        #expect(s.records.count == want.transactions.count)
        for (i, (r, w)) in zip(s.records, want.transactions).enumerated() {
            let at = "\(file) record \(i)"
            #expect(r.accountKey == want.account_key, "\(at)")
            #expect(r.sourceKind == .cmbPDF, "\(at)")
            #expect(r.date.iso == w.date, "\(at)")
            #expect(r.amount.decimalString == w.amount && r.amount.currency == "CNY", "\(at)")
            #expect(r.description == w.description, "\(at)")
            #expect(r.note == w.note, "\(at)")
            #expect(r.locator.row == i + 1 && r.locator.page == nil, "\(at)")
        }
    }

    @Test("the e-statement's records have the PDF bill's fingerprints", arguments: files)
    func sameFingerprintsAsThePDF(_ file: String) throws {
        let pdf = try Data(contentsOf: Self.dir.appendingPathComponent(Self.fixture(file) + ".pdf"))
        let fromPDF = try CMBStatementImporter().read(ImportInput(fileName: "bill.pdf", data: pdf), options: ImportOptions())
        let fromHTML = try Self.read(file).statement
        #expect(Fingerprint.keys(for: fromHTML.records) == Fingerprint.keys(for: fromPDF.records))
        #expect(fromHTML.accounts.first?.details == fromPDF.accounts.first?.details)
    }

    @Test func aJanuaryEStatementDatesItsDecemberRowsInThePreviousYear() throws {
        let records = try Self.read("cmbcard_january.eml").statement.records
        let december = records.filter { $0.date.month == 12 }
        #expect(december.count >= 5 && december.allSatisfy { $0.date.year == 2025 })
        #expect(records.filter { $0.date.month == 1 }.allSatisfy { $0.date.year == 2026 })
    }

    @Test func aBadCellNamesItsRowAndColumn() throws {
        let html = try String(contentsOf: Self.dir.appendingPathComponent("cmbcard_multipage.html"), encoding: .utf8)
        let broken = html.replacingOccurrences(of: "<td>0321</td>", with: "<td>03x1</td>")
        #expect(broken != html)
        let e = #expect(throws: ImportError.self) { try CMBCardHTMLReader().statement(html: broken, fileName: "bill.html") }
        #expect(e?.kind == .malformed && e?.column == "记账日" && e?.locator?.row != nil, "\(String(describing: e))")
    }

    // MARK: through the binary

    @Test("the binary reads the e-statement; the PDF of the same bill then adds nothing", arguments: files)
    func binaryThenPDF(_ file: String) throws {
        let (_, want) = try CMBCardBillTests.load(Self.fixture(file))
        let dir = try TestPaths.tempDir("cmbcard-html")
        let first = try CMBCardBillTests.object(CMBCardBillTests.run(["import", Self.dir.appendingPathComponent(file).path, "--json"], dir))
        #expect(first["importer"] as? String == "cmb-card-html")
        #expect(first["new"] as? Int == want.transactions.count && first["warnings"] as? Int == 0)
        let pdf = Self.dir.appendingPathComponent(Self.fixture(file) + ".pdf").path
        let second = try CMBCardBillTests.object(CMBCardBillTests.run(["import", pdf, "--json"], dir))
        #expect(second["new"] as? Int == 0 && second["already_present"] as? Int == want.transactions.count)
        let stored = try CMBCardBillTests.array(CMBCardBillTests.run(["transactions", "--format", "json"], dir))
        #expect(stored.count == want.transactions.count)
    }

    @Test func thePDFThenTheEStatementsAddNothing() throws {
        let (_, want) = try CMBCardBillTests.load("cmbcard_multipage")
        let dir = try TestPaths.tempDir("cmbcard-pdf-html")
        _ = try CMBCardBillTests.run(["import", Self.dir.appendingPathComponent("cmbcard_multipage.pdf").path], dir)
        for file in ["cmbcard_multipage.html", "cmbcard_multipage.eml"] {
            let r = try CMBCardBillTests.object(CMBCardBillTests.run(["import", Self.dir.appendingPathComponent(file).path, "--json"], dir))
            #expect(r["new"] as? Int == 0 && r["already_present"] as? Int == want.transactions.count, "\(file)")
        }
        let stored = try CMBCardBillTests.array(CMBCardBillTests.run(["transactions", "--format", "json"], dir))
        #expect(stored.count == want.transactions.count)
    }

    @Test func anEMailThatIsNoCardBillIsOneClearErrorAndTheStoreIsUnchanged() throws {
        let dir = try TestPaths.tempDir("cmbcard-eml-broken")
        _ = try CMBCardBillTests.run(["import", Self.dir.appendingPathComponent("cmbcard_january.pdf").path], dir)
        let before = try CMBCardBillTests.run(["transactions", "--format", "json"], dir).stdout
        let batches = try CMBCardBillTests.run(["batches", "--format", "json"], dir).stdout
        let eml = TestPaths.samples.appendingPathComponent("cmb/broken/not_a_card_bill.eml").path
        let r = try CMBCardBillTests.run(["import", eml], dir, status: 1)
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(r.stderr)")
        #expect(r.stderr.contains("not_a_card_bill.eml") && r.stderr.contains("not a CMB credit-card e-statement"), "\(r.stderr)")
        #expect(try CMBCardBillTests.run(["transactions", "--format", "json"], dir).stdout == before)
        #expect(try CMBCardBillTests.run(["batches", "--format", "json"], dir).stdout == batches)
    }
}
