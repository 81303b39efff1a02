import Foundation
import MoneyFlowTestSupport
import Testing

/// Re-linking the same bank through the real binary: the old item's files, then the new
/// item's (new account ids and transaction ids, same history, 3 newer transactions). No
/// account is added and `transactions --format json` shows each real transaction once.
@Suite struct PlaidRelinkCLITests {
    static func json(_ r: MFRun) throws -> [[String: Any]] {
        let v = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8))
        return (v as? [[String: Any]]) ?? [(v as? [String: Any]) ?? [:]]
    }

    @Test func relinkedItemAddsNoAccountAndNoTransaction() throws {
        let dir = try MF.tempDir("plaid-relink")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = "\(dir)/s.sqlite"
        let history = PlaidRelinkFixture.history()
        let a = PlaidRelinkFixture.Item(tag: "A"), b = PlaidRelinkFixture.Item(tag: "B")
        func importFiles(_ files: [(String, String)]) throws -> [[String: Any]] {
            var paths: [String] = []
            for (name, text) in files {
                try text.write(toFile: "\(dir)/\(name)", atomically: true, encoding: .utf8)
                paths.append("\(dir)/\(name)")
            }
            var out: [[String: Any]] = []
            for p in paths {
                let r = try MF.run(["import", p, "--json", "--store", store], cwd: dir)
                #expect(r.status == 0, "\(r.stderr)")
                out += try Self.json(r)
            }
            return out
        }
        _ = try importFiles(a.files(history: history))
        let accountsBefore = try Self.json(try MF.run(["accounts", "--format", "json", "--store", store], cwd: dir))
        let bResults = try importFiles(b.files(history: history, newer: PlaidRelinkFixture.newer))
        #expect(bResults.map { $0["new"] as? Int ?? -1 } == [0, 0, 3])
        #expect(bResults.map { $0["linked"] as? Int ?? -1 } == [0, history.count, 0])
        let notices = bResults[0]["warning_messages"] as? [String] ?? []
        #expect(notices.count == 2 && notices.allSatisfy { $0.contains("lands on existing account") }, "\(notices)")
        let accountsAfter = try Self.json(try MF.run(["accounts", "--format", "json", "--store", store], cwd: dir))
        #expect(accountsAfter.count == 2 && accountsAfter.count == accountsBefore.count)
        let txs = try Self.json(try MF.run(["transactions", "--format", "json", "--all", "--store", store], cwd: dir))
        #expect(txs.count == history.count + 3)
        // Each real transaction once: one (account, date, amount, text) per transaction, but
        // the two coffees, which are two.
        var seen: [String: Int] = [:]
        for t in txs { seen["\(t["account"] ?? "")|\(t["date"] ?? "")|\(t["amount"] ?? "")|\(t["description"] ?? "")", default: 0] += 1 }
        #expect(seen.values.filter { $0 > 1 } == [2], "\(seen.filter { $0.value > 1 })")
        let linked = txs.filter { ($0["sources"] as? [[String: Any]] ?? []).count == 2 }
        #expect(linked.count == history.count)
    }
}
