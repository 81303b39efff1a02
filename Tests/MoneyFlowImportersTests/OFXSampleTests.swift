import Foundation
import MoneyFlowCore
import Testing

@testable import MoneyFlowImporters

let ofxSamples = repoRoot.appendingPathComponent("Samples/ofx")

/// What scripts/gen_ofx_samples.py says each sample holds (written from its own data).
struct ExpectedOFX: Decodable {
    struct Account: Decodable {
        var name, institution, number, type: String
        var currencies: [String]
        var ledger_balance: String
        var available_balance: String?
    }
    struct Row: Decodable {
        var line: Int
        var account, fitid, date, amount, currency, description, trntype: String
        var authorized_date, note: String?
    }
    var accounts: [Account]
    var records: [Row]
}

func readOFXSample(_ name: String) throws -> ImportedStatement {
    let data = try Data(contentsOf: ofxSamples.appendingPathComponent(name))
    return try OFXImporter().read(ImportInput(fileName: name, data: data), options: ImportOptions())
}

@Suite struct OFXSampleTests {
    static let samples = [
        "checking_sgml_102.ofx", "card_xml_211.ofx", "quicken_download.qfx", "two_statements.ofx",
        "checking_two_periods.ofx", "first_platypus_checking.ofx",
    ]

    @Test(arguments: samples)
    func sampleImportsExactlyItsExpectedRows(_ name: String) throws {
        let s = try readOFXSample(name)
        let stem = String(name[..<name.lastIndex(of: ".")!])
        let expected = try JSONDecoder().decode(
            ExpectedOFX.self, from: Data(contentsOf: ofxSamples.appendingPathComponent(stem + ".expected.json")))
        #expect(s.warnings.isEmpty, "\(s.warnings)")
        #expect(s.accounts.map(\.suggestedName) == expected.accounts.map(\.name))
        for (a, e) in zip(s.accounts, expected.accounts) {
            #expect(a.institution == e.institution && a.number == e.number && a.type == e.type && a.currencies == e.currencies, "\(a)")
            #expect(a.currentBalance?.decimalString == e.ledger_balance && a.availableBalance?.decimalString == e.available_balance)
        }
        // The full account numbers of the file appear nowhere in what is stored.
        let text = String(decoding: try Data(contentsOf: ofxSamples.appendingPathComponent(name)), as: UTF8.self)
        let fullNumbers = text.components(separatedBy: "<ACCTID>").dropFirst().map { String($0.prefix { $0.isNumber }) }
        #expect(!fullNumbers.isEmpty)
        for n in fullNumbers {
            let stored =
                s.accounts.map { "\($0.key) \($0.suggestedName) \($0.number ?? "") \($0.details)" }
                + s.records.map { "\($0.externalID ?? "") \($0.raw)" }
            #expect(!stored.contains { $0.contains(n) }, "full account number \(n) stored")
        }
        let names = Dictionary(uniqueKeysWithValues: s.accounts.map { ($0.key, $0.suggestedName) })
        #expect(s.records.count == expected.records.count)
        for (r, e) in zip(s.records, expected.records) {
            #expect(r.locator.line == e.line, "line of \(e.description)")
            #expect(names[r.accountKey] == e.account, "account of line \(e.line)")
            #expect(r.externalID == e.fitid, "FITID on line \(e.line): \(r.externalID ?? "none")")
            #expect(r.date.iso == e.date && r.authorizedDate?.iso == e.authorized_date, "dates on line \(e.line)")
            #expect(r.amount.decimalString == e.amount && r.amount.currency == e.currency, "amount on line \(e.line)")
            #expect(r.description == e.description && r.note == e.note, "text on line \(e.line)")
            #expect(r.raw.contains("\"TRNTYPE\":\"\(e.trntype)\""), "TRNTYPE kept raw on line \(e.line)")
            #expect(r.sourceKind == .ofx && !r.pending)
        }
    }

    /// Content decides: every OFX sample is OFX's with certainty, and no other importer claims it;
    /// CSV and Plaid samples are not OFX's.
    @Test func sniffingIsByContent() throws {
        for name in Self.samples {
            let input = ImportInput(fileName: "export.csv", data: try Data(contentsOf: ofxSamples.appendingPathComponent(name)))
            let ofx = OFXImporter().sniff(input, options: ImportOptions())
            #expect(ofx >= 0.9, "\(name)")
            #expect(
                CSVImporter().sniff(input, options: ImportOptions()) < ofx && PlaidImporter().sniff(input, options: ImportOptions()) < ofx,
                "\(name)")
        }
        for other in ["csv/chase_checking.csv", "us/first_platypus_checking.csv", "plaid/full_period/page1.json"] {
            let input = ImportInput(fileName: "x.ofx", data: try Data(contentsOf: repoRoot.appendingPathComponent("Samples/" + other)))
            #expect(OFXImporter().sniff(input, options: ImportOptions()) == 0, "\(other)")
        }
    }

    /// CHARSET:1252 bytes are Windows-1252 (0xC9 = É, 0x92 = ’), not UTF-8 and not Latin-1.
    @Test func windows1252MerchantNames() throws {
        let bytes = try Data(contentsOf: ofxSamples.appendingPathComponent("checking_sgml_102.ofx"))
        #expect(bytes.contains(0xC9) && bytes.contains(0x92) && String(data: bytes, encoding: .utf8) == nil)
        let d = try readOFXSample("checking_sgml_102.ofx").records.map(\.description)
        #expect(
            d.contains("CAFÉ DEL SOL SEATTLE WA") && d.contains("TRADER JOE\u{2019}S #131 SEATTLE")
                && d.contains("AT&T MOBILITY ONLINE PMT"))
    }

    /// One FITID used by two accounts of one file stays two records, each in its account: the
    /// id is the bank's FITID on both, the account's tag is their scope, and so their identity
    /// keys (fingerprints) differ.
    @Test func fitidsAreKeyedByAccount() throws {
        let s = try readOFXSample("two_statements.ofx")
        let reused = s.records.filter { $0.externalID == "20250301001" }
        #expect(reused.count == 2 && Set(reused.map(\.accountKey)).count == 2)
        #expect(Set(reused.compactMap(\.externalIDScope)).count == 2)
        #expect(Set(Fingerprint.keys(for: reused)).count == 2)
    }
}
