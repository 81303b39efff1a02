import Foundation
import MoneyFlowConfig
import MoneyFlowCore
import MoneyFlowTestSupport
import Testing

@testable import MoneyFlowImporters

/// Profile files (JSON, TOML through MoneyFlowConfig/TOMLKit) and the built-in profile files.
@Suite struct CSVProfileFormatTests {
    func write(_ text: String, ext: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("mf-profile-\(UUID().uuidString).\(ext)")
        try Data(text.utf8).write(to: url)
        return url
    }

    @Test func readsTOMLIntoJSONValues() throws {
        let table = try TOMLReader.parse(
            """
            # profile
            name = "mine"
            date_column = ["Date", "Datum"]
            amount_column = 3
            invert_sign = true
            [extra]
            x = 'lit'
            """)
        #expect(table["name"] == .string("mine"))
        #expect(table["date_column"] == .array([.string("Date"), .string("Datum")]))
        #expect(table["amount_column"] == .number("3"))
        #expect(table["invert_sign"] == .bool(true))
        #expect(table["extra"]?["x"] == .string("lit"))
    }

    @Test func tomlSyntaxErrorsNameTheLine() throws {
        do { _ = try TOMLReader.parse("a = 1\nb = 2\na = 3\n"); Issue.record("accepted a duplicate key") } catch {
            #expect(error.line == 3, "\(error)")
        }
        let url = try write("name = \"x\"\ndate_column = \"D\"\namount_column = \n", ext: "toml")
        defer { try? FileManager.default.removeItem(at: url) }
        do { _ = try ProfileFiles.load(contentsOf: url); Issue.record("accepted a missing value") } catch let e as ProfileError {
            #expect(e.description.hasPrefix(url.path) && e.message.contains("TOML line 3"), "\(e)")
        }
    }

    @Test func tomlWrongTypeAndUnknownKeyNameTheKey() throws {
        let wrong = try write(
            "name = \"x\"\ndate_column = \"D\"\ndescription_column = \"T\"\namount_column = \"A\"\ninvert_sign = \"yes\"\n", ext: "toml")
        defer { try? FileManager.default.removeItem(at: wrong) }
        do { _ = try ProfileFiles.load(contentsOf: wrong); Issue.record("accepted a string bool") } catch let e as ProfileError {
            #expect(e.message.contains("'invert_sign'") && e.message.contains("true or false"), "\(e)")
        }
        let misspelt = try write(
            "name = \"x\"\ndate_column = \"D\"\ndescription_column = \"T\"\namount_column = \"A\"\ninvert_sing = true\n", ext: "toml")
        defer { try? FileManager.default.removeItem(at: misspelt) }
        do { _ = try ProfileFiles.load(contentsOf: misspelt); Issue.record("accepted invert_sing") } catch let e as ProfileError {
            #expect(e.message.contains("unknown key 'invert_sing'") && e.message.contains("invert_sign"), "\(e)")
        }
    }

    @Test func signatureColumnsAreHeaderNames() throws {
        let url = try write(
            #"{"name": "x", "date_column": "D", "description_column": "T", "amount_column": "A", "signature_columns": ["Type", 3]}"#,
            ext: "json")
        defer { try? FileManager.default.removeItem(at: url) }
        do { _ = try CSVProfile.load(contentsOf: url); Issue.record("accepted an index as a signature column") } catch let e as ProfileError
        { #expect(e.message.contains("signature_columns"), "\(e)") }
    }

    /// The portable importer target reads JSON only; it says where TOML is read instead of
    /// misreading it.
    @Test func importerTargetSendsTOMLToTheConfigTarget() throws {
        let url = try write("name = \"x\"\n", ext: "toml")
        defer { try? FileManager.default.removeItem(at: url) }
        #expect { try CSVProfile.load(contentsOf: url) } throws: { ($0 as? ProfileError)?.message.contains("MoneyFlowConfig") == true }
    }

    @Test func builtInProfilesComeFromTheirFiles() throws {
        #expect(
            BuiltInCSVProfiles.all.map(\.qualifiedName) == [
                "chase/checking", "chase/card", "bofa/checking", "bofa/card", "wells-fargo/checking",
                "capital-one/card", "capital-one/360", "amex/card", "cmb/pc",
            ])
        let chaseCard = try #require(BuiltInCSVProfiles.named("chase/card").first)
        #expect(chaseCard.signatureAlternatives == [["Post Date"], ["Transaction Date", "Trans Date"], ["Type"]])
        let cmb = try #require(BuiltInCSVProfiles.named("cmb-pc").first)
        #expect(cmb.sourceKind == .cmbCSV && cmb.currency == "CNY" && cmb.accountKeyPrefix == "cmb")
        #expect(cmb.accountNumberPattern == #"账\s*号\s*[:：]\s*\[?[^\]0-9*]*([0-9][0-9*]{5,}[0-9])"#)
    }

    /// Package.swift embeds the files it lists; BuiltInCSVProfiles reads the ones it lists. A file
    /// added to the folder but missing from either list would be silently ignored.
    @Test func everyProfileFileIsBuiltIn() throws {
        let dir = TestPaths.repoRoot.appendingPathComponent("Sources/MoneyFlowImporters/CSV/Profiles")
        let onDisk = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".json") }.sorted()
        #expect(onDisk == BuiltInCSVProfiles.files.map(\.name).sorted())
        for f in BuiltInCSVProfiles.files {
            #expect(Data(f.bytes) == (try Data(contentsOf: dir.appendingPathComponent(f.name))), "\(f.name) is stale")
        }
    }

    /// `profiles --show` output read back is the same profile, for every built-in.
    @Test func everyBuiltInRoundTripsThroughTOML() throws {
        for (profile, file) in BuiltInCSVProfiles.sources {
            let text = ProfileFiles.toml(file)
            let back = try CSVProfile.decode(.object(try TOMLReader.parse(text)), file: profile.qualifiedName)
            #expect(back == profile, "\(profile.qualifiedName):\n\(text)")
        }
    }

    /// Half a profile is refused, naming the key that is missing: `direction_column` without
    /// `debit_values` would read every row as money in, and a profile without `currency` would
    /// make a Chinese file USD.
    @Test func halfWrittenProfilesAreRefusedNamingTheKey() throws {
        let base = #""name": "x", "date_column": "D", "description_column": "T", "amount_column": "A""#
        func refusal(_ json: String) throws -> String? {
            let url = try write("{\(json)}", ext: "json")
            defer { try? FileManager.default.removeItem(at: url) }
            do { _ = try CSVProfile.load(contentsOf: url) } catch let e as ProfileError { return e.message }
            return nil
        }
        let direction = try refusal(base + #", "currency": "USD", "direction_column": "Type""#)
        #expect(direction?.contains("direction_column needs debit_values") == true, "\(direction ?? "accepted")")
        let values = try refusal(base + #", "currency": "USD", "debit_values": ["Debit"]"#)
        #expect(values?.contains("debit_values needs direction_column") == true, "\(values ?? "accepted")")
        let currency = try refusal(base)
        #expect(currency?.contains("missing key 'currency'") == true, "\(currency ?? "accepted")")
        let toml = try write("name = \"cn\"\ndate_column = \"日期\"\ndescription_column = \"摘要\"\namount_column = \"金额\"\n", ext: "toml")
        defer { try? FileManager.default.removeItem(at: toml) }
        #expect { try ProfileFiles.load(contentsOf: toml) } throws: {
            "\($0)".hasPrefix(toml.path) && ($0 as? ProfileError)?.message.contains("'currency'") == true
        }
        // Whole pairs are fine; a currency column stands for `currency`.
        #expect(try refusal(base + #", "currency": "CNY", "direction_column": "Type", "debit_values": ["支出"]"#) == nil)
        #expect(try refusal(base + #", "currency_column": "Currency""#) == nil)
        // Every built-in profile names its currency in its file.
        for (profile, file) in BuiltInCSVProfiles.sources {
            #expect(file["currency"] != nil, "\(profile.qualifiedName) names no currency")
        }
    }

    /// With only a currency column, a row whose currency cell is empty is refused (no USD guess).
    @Test func emptyCurrencyCellWithoutAProfileCurrencyIsRefused() throws {
        let url = try write(
            #"{"name": "x", "date_column": "Date", "description_column": "Text", "amount_column": "Amount", "currency_column": "Cur"}"#,
            ext: "json")
        defer { try? FileManager.default.removeItem(at: url) }
        let profile = try CSVProfile.load(contentsOf: url)
        let csv = "Date,Text,Amount,Cur\n2025-01-02,Tea,-3.50,CNY\n2025-01-03,Bus,-2.00,\n"
        let input = ImportInput(fileName: "x.csv", data: Data(csv.utf8))
        #expect { try CSVImporter().read(input, options: ImportOptions(csvProfiles: [profile])) } throws: { e in
            let e = e as? ImportError
            return e?.locator?.line == 3 && e?.problem.contains("empty currency") == true
        }
    }
}

/// The pre-scan that keeps toml++ from recursing too deep counts only real nesting.
@Suite struct TOMLDepthGuardTests {
    @Test func dotsAndBracketsInStringsCommentsAndValuesAreNotNesting() throws {
        let dots = String(repeating: ".", count: 200), opens = String(repeating: "[{", count: 200)
        let text = """
            a = "\(dots)\(opens)"   # \(dots)\(opens)
            b = '\(dots)'
            c = \"\"\"
            \(dots) "\(opens)
            \"\"\"
            d = [\(Array(repeating: "1.5", count: 200).joined(separator: ", "))]
            "e.\(dots)" = 1
            [t."\(dots)"]
            f = { g = 1.5, h = "\(opens)" }
            """
        let t = try TOMLReader.parse(text)
        #expect(t["a"] == .string(dots + opens))
        #expect(t["d"]?.arrayValue?.count == 200)
        #expect(t["t"]?[dots]?["f"]?["h"] == .string(opens))
    }

    @Test func deepDottedKeyIsRefusedWithItsLine() {
        let text = "a = 1\n\n" + Array(repeating: "k", count: 100).joined(separator: ".") + " = 1\n"
        #expect { try TOMLReader.parse(text) } throws: { e in
            let e = e as? TOMLError
            return e?.line == 3 && e?.message == "nesting deeper than 64 levels"
        }
        // 64 levels exactly is fine: the limit is inclusive.
        #expect(throws: Never.self) { try TOMLReader.parse(Array(repeating: "k", count: 64).joined(separator: ".") + " = 1\n") }
    }
}
