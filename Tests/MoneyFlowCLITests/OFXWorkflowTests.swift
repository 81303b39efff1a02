import Foundation
import Testing

@testable import MoneyFlowStore

/// OFX/QFX through the real binary: import, re-import, overlap with a CSV download and the demo.
@Suite("OFX workflow")
struct OFXWorkflowTests {
    static let ofx = "\(MF.samples)/ofx"

    static func json(_ r: MFRun) throws -> [[String: Any]] {
        let v = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8))
        return (v as? [[String: Any]]) ?? [(v as? [String: Any]) ?? [:]]
    }

    static func counts(_ file: [String: Any]) -> [Int] {
        ["new", "already_present", "linked"].map { file[$0] as? Int ?? -1 }
    }

    /// Every sample imports exactly the rows its expected file lists (40 in all); the same
    /// files again add nothing.
    @Test func importAndReimportAddNothing() throws {
        let dir = try MF.tempDir("ofx")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = "\(dir)/s.sqlite"
        let first = try MF.run(["import", Self.ofx, "--json", "--store", store], cwd: dir)
        #expect(first.status == 0, "\(first.stderr)")
        let files = try Self.json(first).filter { $0["importer"] as? String == "ofx" }
        #expect(files.count == 6)
        let expectedRows = try FileManager.default.contentsOfDirectory(atPath: Self.ofx).filter { $0.hasSuffix(".expected.json") }.map {
            name in
            let e = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(Self.ofx)/\(name)"))) as! [String: Any]
            return (e["records"] as! [Any]).count
        }.reduce(0, +)
        #expect(expectedRows == 40)
        #expect(files.map { $0["new"] as? Int ?? 0 }.reduce(0, +) == expectedRows)
        let again = try MF.run(["import", Self.ofx, "--json", "--store", store], cwd: dir)
        #expect(again.status == 0, "\(again.stderr)")
        let second = try Self.json(again).filter { $0["importer"] as? String == "ofx" }
        #expect(second.map { $0["new"] as? Int ?? -1 }.reduce(0, +) == 0)
        #expect(second.map { $0["already_present"] as? Int ?? 0 }.reduce(0, +) == expectedRows)
        let txs = try Self.json(try MF.run(["transactions", "--format", "json", "--store", store], cwd: dir))
        #expect(txs.count == expectedRows)
        let kinds = Set(txs.flatMap { ($0["sources"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String } })
        #expect(kinds == ["ofx"])
    }

    /// The checking account's OFX download (02/20..03/11) against its CSV download
    /// (02/15..03/07): the 12 shared rows link (the two identical coffees one to one), the 03/11
    /// withdrawal is new, and nothing is duplicated; importing the OFX again adds nothing.
    @Test func ofxReconcilesAgainstTheCSVDownloadOfTheSameAccount() throws {
        let dir = try MF.tempDir("ofx-csv")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = "\(dir)/s.sqlite"
        let csv = try MF.run(
            ["import", "\(MF.samples)/us/first_platypus_checking.csv", "--json", "--account", "Checking", "--store", store], cwd: dir)
        #expect(csv.status == 0, "\(csv.stderr)")
        let ofxFile = "\(Self.ofx)/first_platypus_checking.ofx"
        let r = try MF.run(["import", ofxFile, "--json", "--account", "Checking", "--store", store], cwd: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(Self.counts(try Self.json(r)[0]) == [1, 0, 12])
        let again = try MF.run(["import", ofxFile, "--json", "--account", "Checking", "--store", store], cwd: dir)
        #expect(Self.counts(try Self.json(again)[0]) == [0, 13, 0])
        let txs = try Self.json(try MF.run(["transactions", "--format", "json", "--store", store], cwd: dir))
        #expect(txs.count == 15) // 14 CSV rows + the 03/11 withdrawal
        let both = txs.filter { Set(($0["sources"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String }) == ["csv", "ofx"] }
        #expect(both.count == 12)
        let coffees = txs.filter { ($0["description"] as? String ?? "").hasPrefix("BLUE BOTTLE") }
        #expect(coffees.count == 2 && coffees.allSatisfy { ($0["sources"] as? [Any])?.count == 2 })
        let report = try Self.json(try MF.run(["reconcile", "--format", "json", "--store", store], cwd: dir))
        #expect((report.first?["confirmed"] as? [Any])?.count == 12 && (report.first?["needs_review"] as? [Any])?.count == 0)
    }

    /// In the demo ledger (CSV download + Plaid feed of the same account), the OFX download of
    /// that account links every row (03/11 to Plaid's record) and adds no transaction.
    @Test func ofxAddsNothingToTheDemoLedger() throws {
        let dir = try MF.tempDir("ofx-demo")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = "\(dir)/demo.sqlite"
        #expect(try MF.run(["import", MF.samples, "--quiet", "--store", store], cwd: dir).status == 0)
        let before = try Self.json(try MF.run(["transactions", "--format", "json", "--store", store], cwd: dir)).count
        let r = try MF.run(
            ["import", "\(Self.ofx)/first_platypus_checking.ofx", "--json", "--account", "Plaid Checking 0000", "--store", store], cwd: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(Self.counts(try Self.json(r)[0]) == [0, 0, 13])
        #expect(try Self.json(try MF.run(["transactions", "--format", "json", "--store", store], cwd: dir)).count == before)
    }

    /// A malformed amount: exit 1, one line naming file, line and element, store unchanged.
    @Test func badFileFailsCleanly() throws {
        let dir = try MF.tempDir("ofx-bad")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = "\(dir)/s.sqlite"
        #expect(try MF.run(["import", "\(Self.ofx)/quicken_download.qfx", "--store", store], cwd: dir).status == 0)
        let before = try MF.storeState(store)
        let text = try String(contentsOfFile: "\(Self.ofx)/checking_sgml_102.ofx", encoding: .isoLatin1)
        try text.replacingOccurrences(of: "<TRNAMT>-52.33", with: "<TRNAMT>-52,33.0")
            .write(toFile: "\(dir)/bad.ofx", atomically: true, encoding: .isoLatin1)
        let r = try MF.run(["import", "bad.ofx", "--store", store], cwd: dir)
        #expect(r.status == 1 && r.stderrLines.count == 1, "\(r.stderr)")
        #expect(r.stderr.contains("bad.ofx: line 70, column TRNAMT:"), "\(r.stderr)")
        #expect(try MF.storeState(store) == before)
    }
}
