import Foundation
import MoneyFlowCMB
import MoneyFlowCore
import MoneyFlowImporters
import MoneyFlowPDF
import MoneyFlowTestSupport
import Testing

/// CMB credit-card bills (招商银行信用卡对账单) in `Samples/cmb/card`: every field of every row
/// against `<fixture>.expected.json`, through the real importer (poppler + reconstruction) and
/// through the built binary.
@Suite("CMB credit-card bills")
struct CMBCardBillTests {
    static let dir = TestPaths.samples.appendingPathComponent("cmb/card")
    static let fixtures = [
        "cmbcard_basic", "cmbcard_january", "cmbcard_multipage", "cmbcard_reissued", "cmbcard_wrapped_header",
        "cmbcard_check_fails", "cmbcard_supplementary", "cmbcard_supplementary_tie",
    ]

    struct Expected: Decodable {
        struct Title: Decodable { var year: Int; var month: Int; var reissued: Bool }
        struct Header: Decodable {
            /// Nil when the header prints no 卡号 (as real bills): the card is per row only.
            var card_number: String?
            var card_last4: String
            var statement_date: String
            var payment_due_date: String
            var credit_limit: String
            var new_balance: String
            var previous_balance: String
            var previous_payment: String
            var new_charges: String
            var adjustment: String
            var interest: String
        }
        struct Row: Decodable {
            var section: String
            var sold: String?
            var posted: String
            var date: String
            var description: String
            var rmb_amount: String
            var amount: String
            var card: String?
            var original_amount: String
            var original_region: String
            var note: String?
        }
        var pages: Int
        var password: String?
        var title: Title
        var account_key: String
        var header: Header
        var check_fails: Bool
        /// Cards the bill may equally be of (no 卡号, rows tied), the one taken first; [] when certain.
        var card_candidates: [String]
        var transactions: [Row]
    }

    static func load(_ fixture: String) throws -> (pdf: Data, expected: Expected) {
        let pdf = try Data(contentsOf: dir.appendingPathComponent("\(fixture).pdf"))
        let json = try Data(contentsOf: dir.appendingPathComponent("\(fixture).expected.json"))
        return (pdf, try JSONDecoder().decode(Expected.self, from: json))
    }

    @Test("every field of every row matches expected.json", arguments: fixtures)
    func fixtureMatches(_ fixture: String) throws {
        let (pdf, want) = try Self.load(fixture)
        let pages = try PDFTextExtractor().extract(data: pdf)
        #expect(pages.count == want.pages)
        #expect(CMBCardReconstructor.isCardBill(pages))
        let bill = try CMBCardReconstructor().reconstruct(pages, fileName: "\(fixture).pdf")

        let h = bill.header
        #expect(h.year == want.title.year && h.month == want.title.month && h.reissued == want.title.reissued)
        #expect(h.accountKind == "个人消费卡账户")
        #expect(h.cardNumber == want.header.card_number && h.cardLast4 == want.header.card_last4)
        #expect(bill.cardCandidates == want.card_candidates)
        #expect(h.statementDate?.iso == want.header.statement_date)
        #expect(h.paymentDueDate?.iso == want.header.payment_due_date)
        #expect(h.creditLimit?.decimalString == want.header.credit_limit)
        #expect(h.newBalance?.decimalString == want.header.new_balance)
        #expect(h.previousBalance?.decimalString == want.header.previous_balance)
        #expect(h.previousPayment?.decimalString == want.header.previous_payment)
        #expect(h.newCharges?.decimalString == want.header.new_charges)
        #expect(h.adjustment?.decimalString == want.header.adjustment)
        #expect(h.interest?.decimalString == want.header.interest)

        #expect(bill.rows.count == want.transactions.count)
        for (i, (row, w)) in zip(bill.rows, want.transactions).enumerated() {
            let at = "\(fixture) row \(i) (page \(row.page) row \(row.rowOnPage))"
            #expect(row.section == w.section, "\(at)")
            #expect(row.sold?.iso == w.sold, "\(at)")
            #expect(row.posted.iso == w.posted, "\(at)")
            #expect(row.description == w.description, "\(at)")
            #expect(row.rmbAmount.decimalString == w.rmb_amount, "\(at)")
            #expect(row.card == w.card, "\(at)")
            #expect(row.originalAmount == w.original_amount, "\(at)")
            #expect(row.originalRegion == w.original_region, "\(at)")
        }
        // Exactly one warning when the bill's check fails, none otherwise.
        let checks = bill.warnings.filter { $0.message.hasPrefix("the bill's check fails") }
        #expect(checks.count == (want.check_fails ? 1 : 0), "\(bill.warnings)")
        #expect(bill.warnings.count == checks.count, "\(bill.warnings)")

        // The real importer (container + dispatch) gives the records: spending is money out.
        let imported = try CMBStatementImporter().read(ImportInput(fileName: "\(fixture).pdf", data: pdf), options: ImportOptions())
        Self.expectRecords(imported, want, fixture)
    }

    static func expectRecords(_ imported: ImportedStatement, _ want: Expected, _ fixture: String) {
        #expect(imported.importerID == "cmb-card-pdf")
        #expect(imported.accounts.count == 1)
        let account = imported.accounts.first
        #expect(account?.key == want.account_key)
        #expect(account?.type == "credit" && account?.subtype == "credit card")
        #expect(account?.details["statementDate"] == want.header.statement_date)
        #expect(account?.details["newBalance"] == want.header.new_balance)
        #expect(imported.records.count == want.transactions.count)
        for (i, (r, w)) in zip(imported.records, want.transactions).enumerated() {
            let at = "\(fixture) record \(i)"
            #expect(r.accountKey == want.account_key, "\(at)")
            #expect(r.date.iso == w.date, "\(at)")
            #expect(r.amount.decimalString == w.amount && r.amount.currency == "CNY", "\(at)")
            #expect(r.description == w.description, "\(at)")
            #expect(r.note == w.note, "\(at)")
            #expect(r.counterparty == nil && r.balance == nil, "\(at)")
        }
    }

    @Test func theZipHoldsTheSameBill() throws {
        let (_, want) = try Self.load("cmbcard_basic")
        let zip = try Data(contentsOf: Self.dir.appendingPathComponent("cmbcard_basic.aes256.zip"))
        let password = try #require(want.password)
        let imported = try CMBStatementImporter().read(
            ImportInput(fileName: "bill.zip", data: zip), options: ImportOptions(password: { _ in password }))
        Self.expectRecords(imported, want, "cmbcard_basic.aes256.zip")
    }

    @Test func aJanuaryBillDatesItsDecemberRowsInThePreviousYear() throws {
        let (pdf, _) = try Self.load("cmbcard_january")
        let bill = try CMBCardReconstructor().reconstruct(PDFTextExtractor().extract(data: pdf))
        let december = bill.rows.filter { $0.posted.month == 12 }
        #expect(december.count >= 5)
        #expect(december.allSatisfy { $0.posted.year == 2025 && ($0.sold?.year ?? 2025) == 2025 })
        #expect(bill.rows.filter { $0.posted.month == 1 }.allSatisfy { $0.posted.year == 2026 })
    }

    @Test func sectionLabelsAreNotRows() throws {
        let (pdf, want) = try Self.load("cmbcard_multipage")
        let bill = try CMBCardReconstructor().reconstruct(PDFTextExtractor().extract(data: pdf))
        let labels = Set(want.transactions.map(\.section))
        #expect(labels.isSuperset(of: ["还款", "退款", "消费", "分期", "费用", "利息"]))
        #expect(!bill.rows.contains { labels.contains($0.description) })
        #expect(bill.rows.count == want.transactions.count)
        // Supplementary-card rows stay on the bill's account, their card named in the note.
        let supplementary = bill.rows.filter { $0.card == "0862" }
        #expect(supplementary.count >= 5)
        #expect(bill.importedStatement().records.filter { $0.note?.hasPrefix("卡号末四位 0862") == true }.count == supplementary.count)
    }

    // MARK: through the binary

    static func run(_ args: [String], _ dir: String, status: Int32 = 0, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> BinaryRun
    {
        let r = try MoneyFlowBinary.run(args + ["--store", "store.sqlite"], cwd: dir)
        #expect(
            r.signal == 0 && r.status == status, "moneyflow \(args.joined(separator: " ")): \(r.stderr)", sourceLocation: sourceLocation)
        return r
    }

    /// The one file's object of `import --json` (an array with one object per file).
    static func object(_ r: BinaryRun) throws -> [String: Any] {
        let files = try array(r)
        try #require(files.count == 1, "\(r.stdout.prefix(300))")
        return files[0]
    }

    static func array(_ r: BinaryRun) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]], "\(r.stdout.prefix(300))")
    }

    @Test("the binary stores every row; importing again adds nothing", arguments: fixtures)
    func binaryImport(_ fixture: String) throws {
        let (_, want) = try Self.load(fixture)
        let dir = try TestPaths.tempDir("cmbcard")
        let pdf = Self.dir.appendingPathComponent("\(fixture).pdf").path
        let first = try Self.object(Self.run(["import", pdf, "--json"], dir))
        #expect(first["importer"] as? String == "cmb-card-pdf")
        #expect(first["new"] as? Int == want.transactions.count)
        // The import says which card it took when the bill leaves a tie (one warning).
        #expect(first["warnings"] as? Int == (want.check_fails ? 1 : 0) + (want.card_candidates.isEmpty ? 0 : 1))
        let again = try Self.object(Self.run(["import", pdf, "--json"], dir))
        #expect(again["new"] as? Int == 0 && again["already_present"] as? Int == want.transactions.count)

        let stored = try Self.array(Self.run(["transactions", "--format", "json"], dir))
        func key(_ date: String, _ amount: String, _ text: String, _ note: String?) -> String { "\(date) \(amount) \(text) \(note ?? "-")" }
        let got = stored.map {
            key($0["date"] as? String ?? "", $0["amount"] as? String ?? "", $0["description"] as? String ?? "", $0["note"] as? String)
        }
        #expect(got.sorted() == want.transactions.map { key($0.date, $0.amount, $0.description, $0.note) }.sorted())
        #expect(
            stored.allSatisfy { $0["account"] as? String == "CMB Card \(want.header.card_last4)" && $0["currency"] as? String == "CNY" })

        let accounts = try Self.array(Self.run(["accounts", "--format", "json"], dir))
        #expect(accounts.count == 1)
        #expect(accounts.first?["type"] as? String == "credit" && accounts.first?["subtype"] as? String == "credit card")
    }

    @Test func theReissuedCopyAddsNothingAfterTheOriginal() throws {
        let dir = try TestPaths.tempDir("cmbcard-reissued")
        let (_, want) = try Self.load("cmbcard_basic")
        _ = try Self.run(["import", Self.dir.appendingPathComponent("cmbcard_basic.pdf").path], dir)
        let copy = try Self.object(Self.run(["import", Self.dir.appendingPathComponent("cmbcard_reissued.pdf").path, "--json"], dir))
        #expect(copy["new"] as? Int == 0 && copy["already_present"] as? Int == want.transactions.count)
    }

    @Test func aFailingCheckIsAWarningAndStrictRefusesIt() throws {
        let dir = try TestPaths.tempDir("cmbcard-check")
        let pdf = Self.dir.appendingPathComponent("cmbcard_check_fails.pdf").path
        let strict = try Self.run(["import", pdf, "--strict"], dir, status: 1)
        #expect(strict.stderr.contains("本期还款总额"))
        let r = try Self.object(Self.run(["import", pdf, "--json"], dir))
        let messages = r["warning_messages"] as? [String] ?? []
        #expect(messages.count == 1 && messages.first?.contains("the bill's check fails") == true, "\(messages)")
        #expect((r["new"] as? Int ?? 0) > 0)
    }

    @Test func splitCardsPutsTheSupplementaryCardInItsOwnAccount() throws {
        let dir = try TestPaths.tempDir("cmbcard-split")
        let (_, want) = try Self.load("cmbcard_multipage")
        let pdf = Self.dir.appendingPathComponent("cmbcard_multipage.pdf").path
        let r = try Self.object(Self.run(["import", pdf, "--split-cards", "--json"], dir))
        #expect(r["new"] as? Int == want.transactions.count)
        let accounts = try Self.array(Self.run(["accounts", "--format", "json"], dir))
        #expect(accounts.compactMap { $0["name"] as? String }.sorted() == ["CMB Card 0862", "CMB Card 7310"])
        #expect(accounts.allSatisfy { $0["type"] as? String == "credit" })
        let supplementary = want.transactions.filter { $0.card == "0862" }
        let stored = try Self.array(Self.run(["transactions", "--account", "CMB Card 0862", "--format", "json"], dir))
        #expect(stored.count == supplementary.count && supplementary.count >= 5)
        // In its own account the row's card is no longer worth a note; a foreign amount still is.
        #expect(stored.allSatisfy { ($0["note"] as? String)?.contains("卡号末四位") != true })
        #expect(stored.contains { ($0["note"] as? String) == "交易地金额 1,580(JP)" })
    }

    @Test func aManifestEntryCanSplitCards() throws {
        let dir = try TestPaths.tempDir("cmbcard-manifest")
        for name in ["cmbcard_multipage.pdf", "cmbcard_basic.pdf"] {
            try FileManager.default.copyItem(atPath: Self.dir.appendingPathComponent(name).path, toPath: "\(dir)/\(name)")
        }
        try "[[files]]\npath = \"cmbcard_multipage.pdf\"\nsplit_cards = true\n".write(
            toFile: "\(dir)/moneyflow.toml", atomically: false, encoding: .utf8)
        _ = try Self.run(["run", "moneyflow.toml"], dir)
        let accounts = try Self.array(Self.run(["accounts", "--format", "json"], dir))
        #expect(accounts.compactMap { $0["name"] as? String }.sorted() == ["CMB Card 0862", "CMB Card 4529", "CMB Card 7310"])
        try "[defaults]\nsplit_cards = \"yes\"\n".write(toFile: "\(dir)/moneyflow.toml", atomically: false, encoding: .utf8)
        let bad = try Self.run(["run", "moneyflow.toml"], dir, status: 1)
        #expect(bad.stderr.contains("'split_cards' must be true or false"), "\(bad.stderr)")
    }

    @Test func theBinaryOpensTheBillInItsZip() throws {
        let dir = try TestPaths.tempDir("cmbcard-zip")
        let (_, want) = try Self.load("cmbcard_basic")
        let zip = Self.dir.appendingPathComponent("cmbcard_basic.aes256.zip").path
        let r = try MoneyFlowBinary.run(
            ["import", zip, "--json", "--password-env", "CMBCARD_PW", "--store", "store.sqlite"], cwd: dir,
            env: ["CMBCARD_PW": want.password ?? ""])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try Self.object(r)["new"] as? Int == want.transactions.count)
    }
}
