import Foundation
import MoneyFlowConfig
import MoneyFlowCore
import Testing

@testable import MoneyFlowImporters

/// Issue 13 "silent wrong values": CSV input the importer must refuse (naming the line) or warn
/// about, never read as something else. Fixtures live in Tests/CSVFixtures.
let csvFixtures = repoRoot.appendingPathComponent("Tests/CSVFixtures")

func readFixture(_ name: String, profile: String? = nil, profiles: [CSVProfile]? = nil) throws -> ImportedStatement {
    let data = try Data(contentsOf: csvFixtures.appendingPathComponent(name))
    let chosen = try profiles ?? profile.map { [try ProfileFiles.load(contentsOf: csvFixtures.appendingPathComponent($0))] }
    return try CSVImporter().read(ImportInput(fileName: name, data: data), options: ImportOptions(csvProfiles: chosen))
}

func csvError(_ text: String, profiles: [CSVProfile]? = nil) -> ImportError? {
    do {
        _ = try CSVImporter().read(ImportInput(fileName: "t.csv", data: Data(text.utf8)), options: ImportOptions(csvProfiles: profiles))
        return nil
    } catch let e as ImportError { return e } catch { return nil }
}

let chaseHeader = "Details,Posting Date,Description,Amount,Type,Balance,Check or Slip #\r\n"

@Suite struct CSVRowShapeTests {
    @Test func cutRowAmongEightFieldRowsIsRefused() throws {
        let text = chaseHeader + "DEBIT,03/02/2026,\"B\",-6.00,DEBIT_CARD,994.00,,\r\nDEBIT,03/01/2026,\"A\",-5.00,DEBIT_CARD\r\n"
        let e = try #require(csvError(text))
        #expect(e.locator?.line == 3)
        #expect(e.description.contains("5 fields"))
    }

    @Test func trailingCommaAndTrailingEmptyLinesAndQuotedNewlinesAreFine() throws {
        let s = try readFixture("chase_checking_quoted_newline.csv")
        #expect(s.records.map(\.locator.line) == [2, 4])
        #expect(s.records[0].description == "ONLINE TRANSFER\r\nREF 1234")
        #expect(s.warnings.isEmpty)
        let withBlankTail = chaseHeader + "DEBIT,03/01/2026,\"A\",-5.00,DEBIT_CARD,1000.00,,\r\n\r\n\r\n"
        #expect(csvError(withBlankTail) == nil)
    }

    @Test func misplacedGroupingNamesLineAndField() throws {
        for bad in ["12,34.5", "1,2345.00"] {
            let e = try #require(csvError(chaseHeader + "DEBIT,03/01/2026,\"A\",\"\(bad)\",DEBIT_CARD,1000.00,,\r\n"))
            #expect(e.locator?.line == 2 && e.column == "Amount", "\(bad): \(e)")
            #expect(e.problem.contains("grouping"))
        }
        let ok = chaseHeader + "DEBIT,03/02/2026,\"A\",\"-1,234,567.89\",DEBIT_CARD,\"1,234.50\",,\r\n"
        #expect(csvError(ok) == nil)
    }

    @Test func amountBeyondTheLimitNamesLineAndField() throws {
        let e = try #require(csvError(chaseHeader + "DEBIT,03/01/2026,\"A\",50000000000000000.00,DEBIT_CARD,,,\r\n"))
        #expect(e.locator?.line == 2 && e.column == "Amount")
        #expect(e.problem.contains("too large"))
    }

    /// UTF-8 and GB18030 lines in one file: refused naming the first line in the other encoding.
    @Test func mixedEncodingsAreRefused() throws {
        var data = Data(chaseHeader.utf8)
        data += Data("DEBIT,03/01/2026,\"上海公共交通卡\",-5.00,DEBIT_CARD,4000.00,,\r\n".utf8)
        let gbk = try #require(
            "DEBIT,03/02/2026,\"上海公共交通卡\",-6.00,DEBIT_CARD,3994.00,,\r\n".data(using: String.Encoding(rawValue: 0x8000_0632)))
        data += gbk
        #expect(throws: ImportError.self) { try CSVImporter().read(ImportInput(fileName: "m.csv", data: data), options: ImportOptions()) }
        do { _ = try CSVImporter().read(ImportInput(fileName: "m.csv", data: data), options: ImportOptions()) } catch let e as ImportError {
            #expect(e.locator?.line == 3 && e.problem.contains("encodings mixed"))
        }
        #expect(
            CSVImporter().sniff(ImportInput(fileName: "m.csv", data: data), options: ImportOptions()) > 0.2,
            "auto-detection lets read() name the line")
    }
}

@Suite struct CSVDateOrderTests {
    @Test func oneDateWrittenDifferentlyIsRefused() throws {
        let text = chaseHeader + "DEBIT,08/11/2025,\"B\",-6.00,DEBIT_CARD,994.00,,\r\nDEBIT,08-10/2025,\"A\",-5.00,DEBIT_CARD,1000.00,,\r\n"
        let e = try #require(csvError(text))
        #expect(e.locator?.line == 3 && e.column == "Posting Date")
        // Without a profile format the inference names the line too.
        var generic = CSVProfile(name: "g", dateColumn: .names(["Date"]), descriptionColumn: .names(["Description"]))
        generic.amountColumn = .names(["Amount"])
        let e2 = try #require(csvError("Date,Description,Amount\n13/01/2025,A,1.00\n14-01/2025,B,2.00\n", profiles: [generic]))
        #expect(e2.locator?.line == 3)
        #expect(e2.problem.contains("not written like"))
    }

    @Test func dayAboveTwelveLateInTheFileDecidesDayFirst() throws {
        let s = try readFixture("uk_dd_mm.csv", profile: "uk.profile.toml")
        #expect(s.records.first?.date.iso == "2024-03-04", "04/03/2024 is 4 March in a file that has 19/03/2024")
        #expect(s.records.map(\.date.iso).last == "2024-03-19")
        #expect(s.warnings.isEmpty)
    }

    @Test func ambiguousFileAsksForDateFormat() throws {
        do { _ = try readFixture("uk_ambiguous.csv", profile: "uk.profile.toml"); Issue.record("imported an ambiguous file") } catch let e
            as ImportError
        {
            #expect(e.problem.contains("date_format = \"DD/MM/YYYY\" or \"MM/DD/YYYY\""), "\(e)")
        }
        var p = try ProfileFiles.load(contentsOf: csvFixtures.appendingPathComponent("uk.profile.toml"))
        p.dateFormat = LocalDate.Format(name: "dd/mm/yyyy")
        let s = try readFixture("uk_ambiguous.csv", profiles: [p])
        #expect(s.records.first?.date.iso == "2024-03-04")
    }

    @Test func contradictoryOrderNamesTheLine() throws {
        do {
            _ = try readFixture("uk_contradiction.csv", profile: "uk.profile.toml"); Issue.record("imported a contradictory file")
        } catch let e as ImportError {
            #expect(e.locator?.line == 4, "\(e)")
            #expect(e.problem.contains("19/03/2024"))
        }
    }

    @Test func unknownDateFormatListsTheValidOnes() throws {
        let json = #"{"name": "x", "date_column": "D", "description_column": "T", "amount_column": "A", "date_format": "DD/MM/YYYYY"}"#
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("mf-date-\(UUID().uuidString).json")
        try Data(json.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        do { _ = try ProfileFiles.load(contentsOf: url); Issue.record("accepted an unknown date_format") } catch let e as ProfileError {
            #expect(
                e.message
                    == "unknown date_format 'DD/MM/YYYYY' (use one of YYYY-MM-DD, YYYY/MM/DD, YYYYMMDD, MM/DD/YYYY, MM-DD-YYYY, MM/DD/YY, DD/MM/YYYY, DD.MM.YYYY, DD-MM-YYYY, DD/MM/YY)"
            )
        }
    }
}

@Suite struct CSVBalanceChainTests {
    /// A Chase export with ONE amount altered (its balance untouched) gives exactly one warning,
    /// naming that line with expected vs printed balance.
    @Test func oneAlteredAmountGivesOneWarningOnItsLine() throws {
        let clean = try readCSVSample("chase_checking.csv")
        #expect(clean.warnings.isEmpty)
        let s = try readFixture("chase_checking_one_amount_altered.csv")
        let breaks = s.warnings.filter { $0.message.hasPrefix("balance chain break") }
        #expect(breaks.count == 1)
        #expect(breaks.first?.locator?.line == 10)
        #expect(
            breaks.first?.message
                == "balance chain break (USD): previous balance 5650.36 + amount -11.65 = 5638.71, printed balance 5538.71")
        #expect(s.accounts.first?.details["row_order"] == "newest-first")
    }

    /// Newest-first, 2-5 rows a day: the file's own same-day order chains; records keep file order.
    @Test func newestFirstWithSeveralRowsADayChains() throws {
        let s = try readFixture("newest_first_same_day.csv")
        #expect(s.records.count == 41)
        #expect(s.warnings.isEmpty, "\(s.warnings)")
        #expect(s.accounts.first?.details["row_order"] == "newest-first")
        #expect(s.records.map(\.locator.line) == Array(2...42))
    }
}

@Suite struct CSVProfileFileTests {
    @Test func misspeltKeyIsAnErrorWithASuggestion() throws {
        do {
            _ = try ProfileFiles.load(contentsOf: csvFixtures.appendingPathComponent("uk_misspelt.profile.toml"));
            Issue.record("accepted invert_sing")
        } catch let e as ProfileError {
            #expect(e.message.contains("unknown key 'invert_sing'"))
            #expect(e.message.contains("did you mean 'invert_sign'?"))
        }
    }

    @Test func wronglyTypedValueIsAnError() throws {
        do {
            _ = try ProfileFiles.load(contentsOf: csvFixtures.appendingPathComponent("uk_wrong_type.profile.json"));
            Issue.record("accepted a string bool")
        } catch let e as ProfileError { #expect(e.message.contains("invert_sign") && e.message.contains("true or false"), "\(e)") }
    }

    @Test func invalidAccountNumberPatternIsAnError() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mf-pattern-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("p.profile.json")
        try Data(
            #"{"name": "b", "date_column": "Date", "description_column": "D", "amount_column": "A", "account_number_pattern": "Account (\\d+"}"#
                .utf8
        ).write(to: file)
        do {
            _ = try ProfileFiles.load(contentsOf: file)
            Issue.record("accepted an invalid regular expression")
        } catch let e as ProfileError {
            #expect(e.message.contains("account_number_pattern") && e.message.contains("regular expression"), "\(e)")
        }
    }

    /// A few thousand levels of nesting: an error, not a stack overflow.
    /// 50,000 dotted-key parts or header parts crash toml++ itself (it recurses over the tables it
    /// built): TOMLDepthGuard refuses them before toml++ sees them.
    @Test(arguments: ["toml-array", "toml-inline", "toml-dotted", "toml-dotted-50000", "toml-header-50000", "toml-inline-dotted", "json"])
    func deepNestingIsRefused(kind: String) throws {
        let n = 5000
        let text: String
        switch kind {
        case "toml-array": text = "name = " + String(repeating: "[", count: n) + String(repeating: "]", count: n) + "\n"
        case "toml-inline": text = "name = " + String(repeating: "{a = ", count: n) + "1" + String(repeating: "}", count: n) + "\n"
        case "toml-dotted": text = (0..<n).map { "k\($0)" }.joined(separator: ".") + " = 1\n"
        case "toml-dotted-50000": text = Array(repeating: "k", count: 50_000).joined(separator: ".") + " = 1\n"
        case "toml-header-50000": text = "[" + Array(repeating: "k", count: 50_000).joined(separator: ".") + "]\nx = 1\n"
        case "toml-inline-dotted":
            let key = Array(repeating: "k", count: 60).joined(separator: ".")
            text = "name = [\n" + String(repeating: "{\(key) = [\n", count: 200) + "1" + String(repeating: "]}", count: 200) + "]\n"
        default: text = "{\"name\": " + String(repeating: "[", count: n) + String(repeating: "]", count: n) + "}"
        }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "mf-deep-\(UUID().uuidString).\(kind == "json" ? "json" : "toml")")
        try Data(text.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        do { _ = try ProfileFiles.load(contentsOf: url); Issue.record("accepted \(kind)") } catch let e as ProfileError {
            #expect(e.message.contains("nesting deeper than"), "\(e)")
        }
        #expect(throws: TOMLError.self) { try TOMLReader.parse(kind == "json" ? "a = " + String(repeating: "[", count: n) : text) }
    }
}

@Suite struct CSVAccountNamingTests {
    @Test func chaseOlderCardHeaderIsRecognised() throws {
        for profiles in [nil, BuiltInCSVProfiles.named("chase")] {
            let s = try readFixture("chase_card_older_header.csv", profiles: profiles)
            #expect(s.accounts.first?.details["csv_profile"] == "chase/card")
            #expect(s.records.map(\.date.iso) == ["2026-02-23", "2026-02-22", "2026-02-20", "2026-02-19"])
            #expect(s.records.map(\.amount.decimalString) == ["-49.14", "-51.49", "987.45", "12.99"])
        }
    }

    @Test func profileThatDoesNotFitNamesTheMissingColumns() throws {
        let e = try #require(csvError("Date,Description,Amount\n01/02/2026,X,1.00\n", profiles: BuiltInCSVProfiles.named("chase")))
        #expect(e.problem.contains("chase/checking misses columns 'Posting Date', 'Details'"), "\(e)")
        #expect(e.problem.contains("chase/card misses columns 'Post Date', 'Transaction Date' or 'Trans Date', 'Type'"), "\(e)")
        #expect(!e.problem.contains("'Amount'") && !e.problem.contains("'Description'"), "present columns are not blamed")
        // Lines above the real header (BofA's summary block) are not taken for it.
        do {
            _ = try readCSVSample("bofa_checking.csv", profiles: BuiltInCSVProfiles.named("chase")); Issue.record("chase read a BofA file")
        } catch let e as ImportError {
            #expect(e.problem.contains("header on line 7: Date, Description, Amount, Running Bal."), "\(e)")
            #expect(e.problem.contains("chase/checking misses columns 'Posting Date', 'Details'"), "\(e)")
        }
    }

    @Test func namesAreShortAndCardsAreLiabilities() throws {
        #expect(try readFixture("uk_dd_mm.csv", profile: "uk.profile.toml").accounts.first?.suggestedName == "Monzo CSV")
        let tab = try readCSVSample(
            "generic_tab_utf16.csv",
            profiles: [ProfileFiles.load(contentsOf: csvSamples.appendingPathComponent("generic_tab_utf16.profile.json"))])
        #expect(tab.accounts.first?.suggestedName == "CSV Account")
        let card = try readCSVSample("chase_card.csv")
        #expect(card.accounts.first?.suggestedName == "Chase Card" && card.accounts.first?.type == "credit")
        #expect(try readCSVSample("chase_checking.csv").accounts.first?.type == "checking")
        var named = try ProfileFiles.load(contentsOf: csvFixtures.appendingPathComponent("uk.profile.toml"))
        named.defaultAccountName = "Joint Current"; named.accountType = "credit"
        let s = try readFixture("uk_dd_mm.csv", profiles: [named])
        #expect(s.accounts.first?.suggestedName == "Joint Current" && s.accounts.first?.type == "credit")
    }
}
