import Foundation
import MoneyFlowCore
import MoneyFlowImporters
import MoneyFlowPDF
import MoneyFlowTestSupport
import Testing

/// End-to-end CMB PDF reading (poppler extraction + reconstruction) against the sample statements
/// in `Samples/cmb`, every field of every row compared with `<fixture>.expected.json`.
@Suite("CMB sample statements")
struct CMBSamplesTests {
    static let samples = TestPaths.samples.appendingPathComponent("cmb")

    static let fixtures = [
        "cmb2024_basic", "cmb2024_multicurrency", "cmb2020_layout", "cmb2024_q1",
        "cmb2024_q2overlap", "cmb2024_streamorder", "cmb2024_30pages",
    ]

    struct Expected: Decodable {
        struct Header: Decodable {
            var name: String?
            var account_number: String
            var account_type: String?
            var branch: String?
            var period_start: String?
            var period_end: String?
            var applied_at: String?
            var serial_no: String?
            var verification_code: String?
        }
        struct Total: Decodable { var income: String; var expense: String }
        struct Transaction: Decodable {
            var date: String
            var currency: String
            var amount: String
            var balance: String
            var description: String
            var counterparty: String?
            var note: String?
        }
        var layout: String
        var pages: Int
        var header: Header
        var totals: [String: Total]?
        var balance_chain_breaks: [Int]
        var transactions: [Transaction]
    }

    static func load(_ fixture: String) throws -> (pdf: Data, expected: Expected) {
        let pdf = try Data(contentsOf: samples.appendingPathComponent("\(fixture).pdf"))
        let json = try Data(contentsOf: samples.appendingPathComponent("\(fixture).expected.json"))
        return (pdf, try JSONDecoder().decode(Expected.self, from: json))
    }

    @Test("every field of every row matches expected.json", arguments: fixtures)
    func fixtureMatches(_ fixture: String) throws {
        let (pdf, expected) = try Self.load(fixture)
        let pages = try PDFTextExtractor().extract(data: pdf)
        #expect(pages.count == expected.pages)
        let statement = try CMBStatementReconstructor().reconstruct(pages, fileName: "\(fixture).pdf")

        // Header.
        let h = statement.header
        #expect(h.layout.rawValue == expected.layout)
        #expect(h.name == expected.header.name)
        #expect(h.accountNumber == expected.header.account_number)
        #expect(h.accountType == expected.header.account_type)
        #expect(h.branch == expected.header.branch)
        #expect(h.periodStart?.iso == expected.header.period_start)
        #expect(h.periodEnd?.iso == expected.header.period_end)
        #expect(h.appliedAt == expected.header.applied_at)
        #expect(h.serialNumber == expected.header.serial_no)
        #expect(h.verificationCode == expected.header.verification_code)
        #expect(statement.declaredPageCount == expected.pages)
        #expect(statement.pageCount == expected.pages)

        // Rows, every field.
        #expect(statement.rows.count == expected.transactions.count)
        for (i, (row, want)) in zip(statement.rows, expected.transactions).enumerated() {
            let at = "\(fixture) row \(i) (page \(row.page) row \(row.rowOnPage))"
            #expect(row.date.iso == want.date, "\(at)")
            #expect(row.currency == want.currency, "\(at)")
            #expect(row.amount.currency == want.currency, "\(at)")
            #expect(row.amount.decimalString == want.amount, "\(at)")
            #expect(row.balance.decimalString == want.balance, "\(at)")
            #expect(row.description == want.description, "\(at)")
            #expect(row.counterparty == want.counterparty, "\(at)")
            #expect(row.note == want.note, "\(at)")
        }

        // Totals of 合并统计.
        let totals = Dictionary(uniqueKeysWithValues: statement.totals.map { ($0.currency, $0) })
        #expect(totals.count == (expected.totals?.count ?? 0))
        for (currency, want) in expected.totals ?? [:] {
            #expect(totals[currency]?.income.decimalString == want.income, "\(fixture) \(currency)")
            #expect(totals[currency]?.expense.decimalString == want.expense, "\(fixture) \(currency)")
        }

        // Warnings: exactly the expected balance-chain breaks, nothing else.
        var rowIndex: [String: Int] = [:]
        for (i, r) in statement.rows.enumerated() { rowIndex["\(r.page)/\(r.rowOnPage)"] = i }
        let breaks = statement.warnings.filter { $0.message.hasPrefix("balance chain break") }
            .compactMap { w in w.locator.flatMap { l in rowIndex["\(l.page ?? 0)/\(l.row ?? 0)"] } }
        #expect(breaks == expected.balance_chain_breaks)
        #expect(statement.warnings.count == expected.balance_chain_breaks.count, "\(statement.warnings)")

        // Mapping to the importer-neutral statement.
        let imported = statement.importedStatement()
        #expect(imported.importerID == "cmb-pdf")
        #expect(imported.accounts.count == 1)
        #expect(imported.accounts.first?.key == "cmb:" + expected.header.account_number)
        #expect(imported.accounts.first?.suggestedName == "CMB " + String(expected.header.account_number.suffix(4)))
        #expect(imported.records.count == expected.transactions.count)
        #expect(imported.records.allSatisfy { $0.sourceKind == .cmbPDF && $0.locator.page != nil && $0.locator.row != nil })
    }

    @Test func streamOrderDoesNotMatter() throws {
        // Same statement rendered with a different content-stream order reads identically.
        let a = try CMBStatementReconstructor().reconstruct(PDFTextExtractor().extract(data: Self.load("cmb2024_basic").pdf))
        let b = try CMBStatementReconstructor().reconstruct(PDFTextExtractor().extract(data: Self.load("cmb2024_streamorder").pdf))
        #expect(a.rows.count == 35)
        #expect(a.rows.map(\.rawJSON) == b.rows.map(\.rawJSON))
    }

    // MARK: broken inputs

    static func broken(_ name: String) throws -> Data {
        try Data(contentsOf: samples.appendingPathComponent("broken/\(name)"))
    }

    /// Password of a broken sample, from `broken/passwords.json` (or a `name ... \`pw\`` line of README.md).
    static func password(for name: String) -> String? {
        if let data = try? broken("passwords.json"),
            let map = try? JSONDecoder().decode([String: String].self, from: data), let pw = map[name]
        {
            return pw
        }
        guard let readme = try? String(contentsOf: samples.appendingPathComponent("broken/README.md"), encoding: .utf8) else { return nil }
        for line in readme.split(separator: "\n") where line.contains(name) {
            let quoted = line.split(separator: "`").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
            if let pw = quoted.last(where: { $0 != name }) { return pw }
        }
        return nil
    }

    @Test func otherPDFIsNotACMBStatement() throws {
        let pages = try PDFTextExtractor().extract(data: Self.broken("not_cmb.pdf"))
        #expect(!pages.isEmpty && pages.contains { !$0.items.isEmpty })
        #expect {
            _ = try CMBStatementReconstructor().reconstruct(pages, fileName: "not_cmb.pdf")
        } throws: { error in
            (error as? ImportError)?.kind == .notAStatement
        }
    }

    @Test func encryptedPDFNeedsItsPassword() throws {
        let data = try Self.broken("encrypted.pdf")
        let password = try #require(Self.password(for: "encrypted.pdf"))
        #expect(throws: PDFError.passwordRequired) { _ = try PDFTextExtractor().extract(data: data) }
        #expect(throws: PDFError.wrongPassword) { _ = try PDFTextExtractor().extract(data: data, password: password + "x") }
        let pages = try PDFTextExtractor().extract(data: data, password: password)
        let statement = try CMBStatementReconstructor().reconstruct(pages)
        #expect(statement.rows.count > 0)
        #expect(statement.warnings.isEmpty)
    }
}
