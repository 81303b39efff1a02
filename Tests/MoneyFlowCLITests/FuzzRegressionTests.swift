import Foundation
import MoneyFlowCore
import MoneyFlowImporters
import MoneyFlowTestSupport
import MoneyFlowZip
import Testing

// MARK: - Fuzz regressions

/// Inputs for a fuzz harness (Tests/BadInputs/fuzz-regressions/<harness>/: crashes once found,
/// and the hostile shapes a fuzzer goes for first), each with its required outcome in
/// `expected.json`: replayed in-process the way the harness runs them, and through the binary
/// where the CLI reads them.
struct FuzzRegression: Sendable, CustomTestStringConvertible {
    struct Expected: Decodable, Sendable {
        /// Exit code of `moneyflow import` (csv/plaid/zip).
        var exit: Int32?
        /// Words the one-line error must hold.
        var expect: [String]?
        /// Records the importer returns in-process; nil: it must throw or refuse the file.
        var records: Int?
        /// Entries ZipArchive lists; nil: it must throw.
        var entries: Int?
    }
    var harness: String
    var path: String
    var key: String { "\(harness)/\((path as NSString).lastPathComponent)" }
    var testDescription: String { key }

    static let root = "\(MF.badInputs)/fuzz-regressions"

    static let all: [FuzzRegression] = {
        var out: [FuzzRegression] = []
        for h in ["csv", "plaid", "zip", "cmb"] {
            let files = (try? FileManager.default.contentsOfDirectory(atPath: "\(root)/\(h)")) ?? []
            for f in files.sorted() where !f.hasPrefix(".") && f != "README.md" {
                out.append(FuzzRegression(harness: h, path: "\(root)/\(h)/\(f)"))
            }
        }
        return out
    }()

    struct ExpectedFile: Decodable { var cases: [String: Expected] }
    /// `expected.json`, keyed `<harness>/<file>`.
    static let expectations: [String: Expected] = {
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: "\(root)/expected.json")),
            let file = try? JSONDecoder().decode(ExpectedFile.self, from: data)
        else { return [:] }
        return file.cases
    }()
}

@Suite("Fuzz regressions")
struct BadInputFuzzRegressionTests {
    /// An empty folder or an input without an expectation would replay nothing.
    @Test func everyHarnessHasCasesAndEveryCaseAnExpectation() {
        for h in ["csv", "plaid", "zip", "cmb"] {
            #expect(FuzzRegression.all.filter { $0.harness == h }.count >= 3, "\(h): fewer than 3 regression inputs")
        }
        let keys = Set(FuzzRegression.all.map(\.key))
        #expect(
            keys == Set(FuzzRegression.expectations.keys),
            "files without expectation: \(keys.subtracting(FuzzRegression.expectations.keys)); expectations without file: \(Set(FuzzRegression.expectations.keys).subtracting(keys))"
        )
    }

    @Test("fuzz input gives its required outcome", arguments: FuzzRegression.all)
    func replay(_ f: FuzzRegression) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: f.path))
        let want = try #require(FuzzRegression.expectations[f.key], "no expectation for \(f.key) in expected.json")
        let records = want.records, entries = want.entries
        /// Records read in-process, or nil when the importer refused the file; errors print on one line.
        func outcome(_ read: () throws -> ImportedStatement) -> Int? {
            do { return try read().records.count } catch {
                #expect(!"\(error)".isEmpty && !"\(error)".contains("\n"), "\(f.key): error is not one line: \(error)")
                return nil
            }
        }
        /// Records the importer reads in process (nil: it does not claim the bytes, or refuses them).
        func expectRecords(_ importer: any Importer, fileName: String) {
            let input = ImportInput(fileName: fileName, data: data)
            let got =
                importer.sniff(input, options: ImportOptions()) > 0 ? outcome { try importer.read(input, options: ImportOptions()) } : nil
            #expect(
                got == records,
                "\(f.key): in-process records \(got.map(String.init) ?? "refused"), expected \(records.map(String.init) ?? "refused")")
        }
        switch f.harness {
        case "csv":
            expectRecords(CSVImporter(), fileName: "fuzz.csv")
            var bytes = [UInt8](data)
            for d: UInt8 in [0x2C, 0x3B, 0x09, 0x7C] { _ = try? CSVParser.parse(bytes: &bytes, delimiter: d) }
        case "plaid":
            expectRecords(PlaidImporter(), fileName: "fuzz.json")
        case "zip":
            let archive = try? ZipArchive(data: data, limits: ZipLimits(maxEntrySize: 16 << 20, maxTotalUncompressed: 64 << 20))
            #expect(
                archive?.entries.count == entries,
                "\(f.key): entries \(archive.map { "\($0.entries.count)" } ?? "thrown"), expected \(entries.map(String.init) ?? "thrown")")
            for e in archive?.entries.prefix(4) ?? [] { _ = try? archive?.data(for: e, password: e.isEncrypted ? "secret123" : nil) }
        case "cmb":
            let pages = data.withUnsafeBytes { FuzzTextPages.decode($0) }
            let got = outcome { try CMBStatementReconstructor().importedStatement(from: pages, fileName: "fuzz.pdf") }
            #expect(
                got == records,
                "\(f.key): in-process records \(got.map(String.init) ?? "refused"), expected \(records.map(String.init) ?? "refused")")
        default:
            Issue.record("unknown harness \(f.harness)")
        }
        // Through the binary as well (the CLI reads CSV, Plaid JSON and ZIPs).
        guard f.harness != "cmb" else { return }
        let wantExit = try #require(want.exit, "\(f.key): expected.json gives no exit")
        let dir = try MF.tempDir("fuzz-regression")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let name = (f.path as NSString).lastPathComponent
        try data.write(to: URL(fileURLWithPath: "\(dir)/\(name)"))
        let r = try MF.run(
            ["import", name, "--store", "\(dir)/store.sqlite", "--password-env", "MF_FUZZ_PW"], cwd: dir, env: ["MF_FUZZ_PW": "secret123"])
        #expect(r.signal == 0, "crashed: \(r.stderr)")
        #expect(r.status == wantExit, "exit \(r.status), expected \(wantExit): \(r.stderr)")
        if wantExit == 1 {
            #expect(r.stderrLines.count == 1 && r.stderr.contains(name), "one line naming the file: \(r.stderr)")
            for w in want.expect ?? [] {
                #expect(r.stderr.lowercased().contains(w.lowercased()), "\(f.key): error lacks '\(w)': \(r.stderr)")
            }
        }
        #expect(try MF.storeState("\(dir)/store.sqlite").integrity == "ok")
    }
}
