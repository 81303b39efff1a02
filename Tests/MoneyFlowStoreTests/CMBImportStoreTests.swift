import Foundation
import MoneyFlowCore
import MoneyFlowImporters
import MoneyFlowPipeline
import MoneyFlowStoreTestSupport
import Testing

@testable import MoneyFlowStore

struct CMBExpected: Decodable {
    struct Row: Decodable {
        var date: String; var currency: String; var amount: String; var balance: String; var description: String; var counterparty: String?;
        var note: String?
    }
    struct Header: Decodable { var account_number: String }
    var password: String
    var header: Header
    var transactions: [Row]
}

struct CMBCSVExpected: Decodable {
    struct Row: Decodable {
        var date: String; var time: String; var currency: String; var amount: String; var balance: String; var description: String;
        var note: String?
    }
    var transactions: [Row]
}

let cmbDir = repoRoot.appendingPathComponent("Samples/cmb")

func cmbExpected(_ fixture: String) throws -> CMBExpected {
    try JSONDecoder().decode(CMBExpected.self, from: Data(contentsOf: cmbDir.appendingPathComponent(fixture + ".expected.json")))
}

func passwordOptions(_ pw: String?) -> FileImportOptions {
    var o = FileImportOptions()
    if let pw { o.password = { _ in pw } }
    return o
}

@Suite struct CMBImportStoreTests {
    static let cases: [(String, String)] = {
        var c: [(String, String)] = []
        for f in ["cmb2024_basic", "cmb2024_multicurrency", "cmb2020_layout", "cmb2024_q1", "cmb2024_q2overlap", "cmb2024_streamorder"] {
            c.append((f, "zipcrypto.zip")); c.append((f, "aes256.zip"))
        }
        c.append(("cmb2024_basic", "aes128.zip")); c.append(("cmb2024_basic", "aes192.zip")); c.append(("cmb2024_basic", "pdf"))
        return c
    }()

    @Test(arguments: StoreKind.testable, cases)
    func everyRowOfEveryFixtureLandsWithEveryField(_ kind: StoreKind, c: (String, String)) throws {
        let (fixture, ext) = c
        let expected = try cmbExpected(fixture)
        let (store, _) = try freshStore(kind)
        let r = try ImportService(store: store).importFile(
            path: cmbDir.appendingPathComponent("\(fixture).\(ext)").path,
            options: passwordOptions(expected.password))
        #expect(r.importerID == "cmb-pdf")
        let txs = try store.transactions()
        // Store order is by date then statement order; the statement is ascending by date.
        #expect(txs.count == expected.transactions.count)
        let account = try store.accounts().first!
        #expect(account.number == expected.header.account_number)
        #expect(account.name == "CMB " + String(expected.header.account_number.suffix(4)))
        for (t, e) in zip(txs, expected.transactions) {
            #expect(t.date.iso == e.date)
            #expect(t.amount.currency == e.currency)
            #expect(t.amount.decimalString == e.amount)
            #expect(t.balance?.decimalString == e.balance)
            #expect(t.description == e.description)
            #expect(t.counterparty == e.counterparty)
            #expect(t.note == e.note)
            #expect(t.sources.count == 1 && t.sources[0].kind == .cmbPDF && t.sources[0].page != nil && t.sources[0].row != nil)
        }
    }

    @Test(arguments: StoreKind.testable) func overlappingStatementsAddOnlyTheNewRows(_ kind: StoreKind) throws {
        let q1 = try cmbExpected("cmb2024_q1"), q2 = try cmbExpected("cmb2024_q2overlap")
        let (store, _) = try freshStore(kind)
        let service = ImportService(store: store)
        _ = try service.importFile(path: cmbDir.appendingPathComponent("cmb2024_q1.aes256.zip").path, options: passwordOptions(q1.password))
        let r = try service.importFile(
            path: cmbDir.appendingPathComponent("cmb2024_q2overlap.zipcrypto.zip").path, options: passwordOptions(q2.password))
        let key = { (x: CMBExpected.Row) in "\(x.date)|\(x.amount)|\(x.balance)|\(x.description)|\(x.counterparty ?? "")|\(x.note ?? "")" }
        let union = Set(q1.transactions.map(key)).union(q2.transactions.map(key))
        let overlap = Set(q1.transactions.map(key)).intersection(q2.transactions.map(key)).count
        #expect(r.plan.counts.alreadyPresent == overlap)
        #expect(r.plan.counts.new == q2.transactions.count - overlap)
        #expect(try store.transactions().count == union.count)
        // Importing both again (other encryption kinds) adds nothing.
        _ = try service.importFile(
            path: cmbDir.appendingPathComponent("cmb2024_q1.zipcrypto.zip").path, options: passwordOptions(q1.password))
        #expect(try store.transactions().count == union.count)
    }

    @Test(arguments: StoreKind.testable) func identicalSameDayRowsStaySeparate(_ kind: StoreKind) throws {
        let e = try cmbExpected("cmb2024_basic")
        let (store, _) = try freshStore(kind)
        _ = try ImportService(store: store).importFile(
            path: cmbDir.appendingPathComponent("cmb2024_basic.pdf").path, options: FileImportOptions())
        let same = Dictionary(grouping: e.transactions, by: { "\($0.date)|\($0.amount)|\($0.description)|\($0.counterparty ?? "")" }).values
            .filter { $0.count > 1 }
        #expect(!same.isEmpty)
        let txs = try store.transactions()
        for group in same {
            let n = txs.filter {
                "\($0.date.iso)|\($0.amount.decimalString)|\($0.description)|\($0.counterparty ?? "")"
                    == "\(group[0].date)|\(group[0].amount)|\(group[0].description)|\(group[0].counterparty ?? "")"
            }.count
            #expect(n == group.count)
        }
    }

    @Test(arguments: StoreKind.testable) func pcCSVExportsJoinThePDFAccount(_ kind: StoreKind) throws {
        let q1 = try cmbExpected("cmb2024_q1")
        for csv in ["cmb_pc_gbk", "cmb_pc_utf8bom"] {
            let exp = try JSONDecoder().decode(
                CMBCSVExpected.self, from: Data(contentsOf: cmbDir.appendingPathComponent(csv + ".expected.json")))
            let (store, _) = try freshStore(kind)
            let service = ImportService(store: store)
            let r = try service.importFile(path: cmbDir.appendingPathComponent(csv + ".csv").path, options: FileImportOptions())
            #expect(r.importerID == "cmb-csv")
            let recs = r.plan.statement.records
            #expect(recs.count == exp.transactions.count)
            for (x, e) in zip(recs, exp.transactions) {
                #expect(x.date.iso == e.date && x.amount.decimalString == e.amount && x.balance?.decimalString == e.balance)
                #expect(x.description == e.description && x.note == e.note && x.time == e.time && x.amount.currency == e.currency)
            }
            // The statement PDF of the same account and period lands in the same account and links.
            let pdf = try service.importFile(
                path: cmbDir.appendingPathComponent("cmb2024_q1.zipcrypto.zip").path, options: passwordOptions(q1.password))
            #expect(try store.accounts().count == 1)
            #expect(pdf.plan.counts.linked > 0)
            #expect(pdf.plan.counts.needsReview == 0)
        }
    }

    struct BrokenCase: Sendable { var file: String; var password: String?; var kind: ImportError.Kind }

    @Test(
        arguments: StoreKind.testable,
        [
            BrokenCase(file: "broken/truncated.zipcrypto.zip", password: "DQH9JB", kind: .malformed),
            BrokenCase(file: "broken/truncated_pdf.zip", password: "FZA7FGVI", kind: .malformed),
            BrokenCase(file: "broken/truncated.pdf", password: nil, kind: .malformed),
            BrokenCase(file: "broken/not_cmb.pdf", password: nil, kind: .notAStatement),
            BrokenCase(file: "broken/not_cmb.zip", password: "T0R9CRV8", kind: .notAStatement),
            BrokenCase(file: "broken/scanned.pdf", password: nil, kind: .notAStatement),
            BrokenCase(file: "broken/encrypted.pdf", password: nil, kind: .passwordRequired),
            BrokenCase(file: "broken/encrypted.pdf", password: "nope", kind: .wrongPassword),
            BrokenCase(file: "cmb2024_basic.zipcrypto.zip", password: "WRONGPW", kind: .wrongPassword),
            BrokenCase(file: "cmb2024_basic.aes256.zip", password: "WRONGPW", kind: .wrongPassword),
            BrokenCase(file: "cmb2024_basic.aes128.zip", password: nil, kind: .passwordRequired),
        ])
    func brokenInputsFailCleanlyAndChangeNothing(_ kind: StoreKind, c: BrokenCase) throws {
        let (store, location) = try freshStore(kind)
        _ = try ImportService(store: store).importFile(path: sample("csv/amex.csv"), options: FileImportOptions())
        let digest = try store.contentDigest()
        #expect {
            try ImportService(store: store).importFile(
                path: cmbDir.appendingPathComponent(c.file).path, options: passwordOptions(c.password))
        } throws: { e in
            guard let e = e as? ImportError else { return false }
            let line = e.description
            return e.kind == c.kind && !line.contains("\n") && line.contains(c.file.split(separator: "/").last!)
                && (c.password.map { !line.contains($0) } ?? true)
        }
        #expect(try store.contentDigest() == digest)
        #expect(try committedDigest(location) == digest)
    }

    @Test(arguments: StoreKind.testable) func encryptedPDFOpensWithItsPassword(_ kind: StoreKind) throws {
        let (store, _) = try freshStore(kind)
        let r = try ImportService(store: store).importFile(
            path: cmbDir.appendingPathComponent("broken/encrypted.pdf").path, options: passwordOptions("123456"))
        #expect(r.plan.counts.new == 35)
    }
}
