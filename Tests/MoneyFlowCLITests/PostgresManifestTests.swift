import Foundation
import MoneyFlowStoreTestSupport
import MoneyFlowTestSupport
import Testing

/// A batch manifest may name a PostgreSQL ledger as its store: the URL is used as written, not
/// taken for a file path relative to the manifest.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["MONEYFLOW_TEST_POSTGRES"] != nil, "needs MONEYFLOW_TEST_POSTGRES"))
struct PostgresManifestTests {
    @Test func aManifestsPostgresStoreIsTheLedgerItFills() throws {
        let dir = try MF.tempDir("pg-manifest")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let ledger = "manifest_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(12)
        let url = ProcessInfo.processInfo.environment["MONEYFLOW_TEST_POSTGRES"]! + "&ledger=" + ledger
        try FileManager.default.copyItem(atPath: "\(MF.samples)/csv/chase_checking.csv", toPath: "\(dir)/chase_checking.csv")
        try Data("store = \"\(url)\"\n[[files]]\npath = \"*.csv\"\n".utf8).write(to: URL(fileURLWithPath: "\(dir)/manifest.toml"))
        let r = try MF.run(["run", "manifest.toml"], cwd: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let listed = try MF.run(["transactions", "--store", url, "--format", "json"], cwd: dir, env: TestPostgres.uncachedRead)
        let txs = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]] ?? []
        #expect(listed.status == 0 && txs.count > 20, "\(listed.stderr)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["chase_checking.csv", "manifest.toml"],
            "no store file made")
    }
}
