import Foundation
import Testing

/// The wallet bills through the real binary: the password ZIPs as e-mailed, imported twice.
@Suite("Wallet bills")
struct WalletImportTests {
    static let wallets = "\(MF.samples)/wallets"

    static func json(_ r: MFRun) throws -> [[String: Any]] {
        let v = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8))
        return (v as? [[String: Any]]) ?? [(v as? [String: Any]) ?? [:]]
    }

    /// Each bill imports its expected records (kind `alipay` / `wechat`); the same ZIP again adds
    /// nothing; a wrong password is one clear error and leaves no store behind.
    @Test(arguments: ["alipay_2026Q2", "wechat_2026Q2"])
    func importTwiceAddsNothing(_ stem: String) throws {
        let dir = try MF.tempDir("wallet")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = "\(dir)/s.sqlite"
        let args = [
            "import", "\(Self.wallets)/\(stem).zip", "--json", "--password-file", "\(Self.wallets)/passwords/\(stem).txt", "--store", store,
        ]
        let expected = try JSONSerialization.jsonObject(
            with: Data(contentsOf: URL(fileURLWithPath: "\(Self.wallets)/\(stem).expected.json")))
        let records = ((expected as? [String: Any])?["records"] as? [Any])?.count ?? -1
        let first = try Self.json(try MF.run(args, cwd: dir))
        #expect(
            first.first?["new"] as? Int == records && first.first?["importer"] as? String == String(stem.prefix { $0 != "_" }), "\(first)")
        let again = try Self.json(try MF.run(args, cwd: dir))
        #expect(again.first?["new"] as? Int == 0 && again.first?["already_present"] as? Int == records, "\(again)")
        let txs = try Self.json(try MF.run(["transactions", "--format", "json", "--store", store], cwd: dir))
        let kinds = Set(txs.flatMap { ($0["sources"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String } })
        #expect(kinds == [String(stem.prefix { $0 != "_" })])

        try "000000\n".write(toFile: "\(dir)/wrong.txt", atomically: true, encoding: .utf8)
        let wrong = try MF.run(
            ["import", "\(Self.wallets)/\(stem).zip", "--password-file", "\(dir)/wrong.txt", "--store", "\(dir)/other.sqlite"], cwd: dir)
        #expect(wrong.status == 1 && wrong.stderr.contains("wrong password for"), "\(wrong.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/other.sqlite"))
    }
}
