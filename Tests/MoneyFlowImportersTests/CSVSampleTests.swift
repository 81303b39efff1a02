import Foundation
import MoneyFlowConfig
import MoneyFlowCore
import MoneyFlowTestSupport
import Testing

@testable import MoneyFlowImporters

let repoRoot = TestPaths.repoRoot
let csvSamples = repoRoot.appendingPathComponent("Samples/csv")

struct ExpectedCSVRow: Decodable {
    var line: Int
    var date: String
    var amount: String
    var currency: String
    var description: String
    var balance: String?
}

func readCSVSample(_ name: String, profiles: [CSVProfile]? = nil) throws -> ImportedStatement {
    let url = csvSamples.appendingPathComponent(name)
    let input = ImportInput(fileName: name, data: try Data(contentsOf: url))
    return try CSVImporter().read(input, options: ImportOptions(csvProfiles: profiles))
}

func expectMatches(_ statement: ImportedStatement, expectedFile: String) throws {
    let expected = try JSONDecoder().decode([ExpectedCSVRow].self, from: Data(contentsOf: csvSamples.appendingPathComponent(expectedFile)))
    #expect(statement.records.count == expected.count)
    for (r, e) in zip(statement.records, expected) {
        #expect(r.locator.line == e.line, "line of \(e.description)")
        #expect(r.date.iso == e.date, "date on line \(e.line)")
        #expect(r.amount.decimalString == e.amount, "amount on line \(e.line)")
        #expect(r.amount.currency == e.currency, "currency on line \(e.line)")
        #expect(r.description == e.description, "description on line \(e.line)")
        #expect(r.balance?.decimalString == e.balance, "balance on line \(e.line)")
    }
}

@Suite struct CSVBuiltInProfileTests {
    @Test(arguments: [
        ("chase_checking", "chase/checking"), ("chase_card", "chase/card"), ("bofa_checking", "bofa/checking"),
        ("bofa_card", "bofa/card"), ("wells_fargo_checking", "wells-fargo/checking"), ("capital_one_card", "capital-one/card"),
        ("capital_one_360", "capital-one/360"), ("amex", "amex/card"), ("amex_extended", "amex/card"),
    ])
    func sniffedProfileReadsEveryRow(name: String, profile: String) throws {
        let s = try readCSVSample(name + ".csv")
        #expect(s.accounts.first?.details["csv_profile"] == profile)
        try expectMatches(s, expectedFile: name + ".expected.json")
    }

    @Test func namedProfileWorksToo() throws {
        let s = try readCSVSample("chase_card.csv", profiles: BuiltInCSVProfiles.named("chase"))
        try expectMatches(s, expectedFile: "chase_card.expected.json")
    }

    @Test func identicalRowsStaySeparate() throws {
        let s = try readCSVSample("chase_checking.csv")
        let keys = Fingerprint.keys(for: s.records)
        #expect(Set(keys).count == keys.count)
        let texts = s.records.map { "\($0.date)|\($0.amount)|\($0.description)" }
        #expect(Set(texts).count < texts.count, "the sample has a genuinely identical pair")
    }

    @Test func profileFilesJSONAndTOML() throws {
        for (csv, profileFile) in [
            ("generic_semicolon_ddmmyyyy", "generic_semicolon_ddmmyyyy.profile.json"),
            ("generic_semicolon_ddmmyyyy", "generic_semicolon_ddmmyyyy.profile.toml"),
            ("generic_tab_utf16", "generic_tab_utf16.profile.json"),
            ("generic_gbk", "generic_gbk.profile.json"),
        ] {
            let profile = try ProfileFiles.load(contentsOf: csvSamples.appendingPathComponent(profileFile))
            let s = try readCSVSample(csv + ".csv", profiles: [profile])
            try expectMatches(s, expectedFile: csv + ".expected.json")
        }
    }

    @Test func unknownHeaderAsksForAProfile() throws {
        let input = ImportInput(fileName: "x.csv", data: Data("Foo,Bar,Baz\n1,2,3\n".utf8))
        #expect { try CSVImporter().read(input, options: ImportOptions()) } throws: { e in
            let e = e as? ImportError
            return e?.kind == .unrecognized && e!.description.contains("--csv-profile")
        }
    }

    struct ExpectedError: Decodable { var file: String; var line: Int; var column_name: String? }

    @Test func brokenFilesNameFileLineAndColumn() throws {
        let broken = csvSamples.appendingPathComponent("broken")
        let cases = try JSONDecoder().decode(
            [ExpectedError].self, from: Data(contentsOf: broken.appendingPathComponent("expected_errors.json")))
        #expect(cases.count == 4)
        for c in cases {
            let input = ImportInput(fileName: c.file, data: try Data(contentsOf: broken.appendingPathComponent(c.file)))
            #expect { try CSVImporter().read(input, options: ImportOptions()) } throws: { e in
                guard let e = e as? ImportError else { return false }
                let text = e.description
                return e.locator?.line == c.line && text.hasPrefix(c.file) && text.contains("line \(c.line)")
            }
        }
    }
}
