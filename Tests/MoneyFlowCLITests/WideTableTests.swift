import Foundation
import MoneyFlowTestSupport
import Testing

/// Tables cut long text to fit a terminal; `--wide` shows it whole (transactions, transfers,
/// review, import and run summaries), and `transfers` keeps its two sections apart.
@Suite struct WideTableTests {
    static func run(_ args: [String], _ store: String) throws -> String {
        let r = try MoneyFlowBinary.run(args + ["--store", store])
        #expect(r.status == 0, "\(args): \(r.stderr)")
        return r.stdout
    }

    @Test("--wide shows descriptions and transfer reasons whole; transfers' sections are apart")
    func wideTables() throws {
        let s = try TransferScenarioTests.load("us_quarter")
        let store = try TransferScenarioTests.run(s, s.imports).store
        // A description longer than the 28 cells the table gives it.
        let json = try Self.run(["transactions", "--format", "json"], store)
        let txs = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        let long = try #require(txs.compactMap { $0["description"] as? String }.first { $0.count > 30 && !$0.contains("\\") })
        let cut = try Self.run(["transactions"], store)
        #expect(!cut.contains(long) && cut.contains(String(long.prefix(20))) && cut.contains("…"))
        #expect(try Self.run(["transactions", "--wide"], store).contains(long))

        // Transfer reasons longer than their 60 cells.
        let pairs = try #require(
            try JSONSerialization.jsonObject(with: Data(try Self.run(["transfers", "--format", "json"], store).utf8)) as? [String: Any])
        let reasons = ((pairs["transfers"] as? [[String: Any]]) ?? []).map { (($0["reasons"] as? [String]) ?? []).joined(separator: "; ") }
        let longReasons = try #require(reasons.first { $0.count > 60 }, "\(reasons)")
        let table = try Self.run(["transfers"], store)
        #expect(!table.contains(longReasons))
        #expect(try Self.run(["transfers", "--wide"], store).contains(longReasons))
        // "to review" starts a section of its own after the transfers table, on its own line.
        #expect(table.contains("\n\nto review: "), "\(table)")
        #expect(table.hasSuffix("\n"))
        // The other table commands take --wide too.
        _ = try Self.run(["review", "--wide"], store)
    }

    @Test("a failed file's error in an import summary is whole with --wide")
    func wideImportSummary() throws {
        let store = try TestPaths.tempStore("wide-import")
        let bad = TestPaths.badInputs.path + "/types/workbook.xlsx"
        let good = TestPaths.samples.path + "/csv/chase_checking.csv"
        let r = try MoneyFlowBinary.run(["import", good, bad, "--wide", "--store", store])
        #expect(r.status == 1)
        // The summary row holds the whole error (the stderr line has it too).
        let row = try #require(r.stdout.split(separator: "\n").first { $0.contains("workbook.xlsx") })
        #expect(row.contains("save the sheet as CSV") && row.contains("MoneyFlow reads:"), "\(row)")
        let narrow = try MoneyFlowBinary.run(["import", bad, good, "--store", store])
        let cutRow = try #require(narrow.stdout.split(separator: "\n").first { $0.contains("workbook.xlsx") })
        #expect(cutRow.hasSuffix("…"), "\(cutRow)")
    }
}
