import Foundation
import MoneyFlowTestSupport
import Testing

/// The CLI suites' names for the shared runner (``MoneyFlowBinary``) and paths (``TestPaths``).
enum CLI {
    static let repoRoot = TestPaths.repoRoot
    static var binary: URL { MoneyFlowBinary.path }
    typealias Result = BinaryRun

    /// Runs `moneyflow args... [--store store]` in the repository root.
    static func run(_ args: [String], store: String?, env: [String: String] = [:]) throws -> Result {
        try MoneyFlowBinary.run(args + (store.map { ["--store", $0] } ?? []), env: env)
    }

    static func tempStore() throws -> String { try TestPaths.tempStore() }
}

@Suite struct CLITests {
    @Test func transactionsJSONContract() throws {
        let store = try CLI.tempStore()
        let imp = try CLI.run(["import", "Samples/csv/chase_checking.csv"], store: store)
        #expect(imp.status == 0, "\(imp.stderr)")
        let r = try CLI.run(["transactions", "--format", "json"], store: store)
        #expect(r.status == 0)
        let array = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [[String: Any]]
        #expect(!array.isEmpty)
        let keys: Set<String> = [
            "id", "account", "date", "amount", "currency", "description", "counterparty", "note", "balance", "pending", "sources",
            // Added by categories (#27).
            "category", "category_source", "category_reason",
        ]
        for t in array {
            #expect(Set(t.keys) == keys)
            #expect(t["amount"] is String)
            #expect((t["date"] as! String).count == 10)
            let sources = t["sources"] as! [[String: Any]]
            #expect(sources.count == 1)
            #expect(Set(sources[0].keys) == ["id", "kind", "external_id", "file", "line", "page", "row"])
            #expect(sources[0]["kind"] as? String == "csv")
            #expect(sources[0]["line"] is Int)
            #expect(sources[0]["page"] is NSNull)
        }
        // Ordered by account then date.
        let dates = array.map { $0["date"] as! String }
        #expect(dates == dates.sorted())
    }

    @Test func badInputExitsOneWithOneLineNamingFileAndLine() throws {
        let store = try CLI.tempStore()
        _ = try CLI.run(["import", "Samples/csv/amex.csv"], store: store)
        func snapshot() throws -> String {
            try CLI.run(["transactions", "--all", "--format", "json"], store: store).stdout
                + CLI.run(["batches", "--format", "json"], store: store).stdout
        }
        let before = try snapshot()
        let r = try CLI.run(["import", "Samples/csv/broken/bad_date.csv"], store: store)
        #expect(r.status == 1)
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(r.stderr.contains("bad_date.csv") && r.stderr.contains("line 5"))
        #expect(try snapshot() == before)
    }

    @Test func usageErrorsExitTwo() throws {
        let store = try CLI.tempStore()
        let r = try CLI.run(["transactions", "--format", "yaml"], store: store)
        #expect(r.status == 2)
        let u = try CLI.run(["no-such-command"], store: store)
        #expect(u.status == 2)
    }

    @Test func reimportReportsAlreadyPresentAndUndoWorks() throws {
        let store = try CLI.tempStore()
        let first = try CLI.run(["import", "Samples/csv/wells_fargo_checking.csv", "--json"], store: store)
        #expect(first.status == 0)
        let j1 = try JSONSerialization.jsonObject(with: Data(first.stdout.utf8)) as! [[String: Any]]
        let newCount = j1[0]["new"] as! Int
        #expect(newCount == 40)
        // The same bytes again change nothing: counted on the first batch, no new batch row.
        let same = try CLI.run(["import", "Samples/csv/wells_fargo_checking.csv", "--json"], store: store)
        let js = try JSONSerialization.jsonObject(with: Data(same.stdout.utf8)) as! [[String: Any]]
        #expect(js[0]["new"] as? Int == 0 && js[0]["already_present"] as? Int == newCount)
        #expect(js[0]["batch"] as? Int == j1[0]["batch"] as? Int)
        let listed =
            try JSONSerialization.jsonObject(with: Data(try CLI.run(["batches", "--format", "json"], store: store).stdout.utf8))
            as! [[String: Any]]
        #expect(listed.count == 1 && listed[0]["seen_again"] as? Int == 1 && listed[0]["last_seen_at"] is String)
        // The same rows in other bytes (another export of the same period): a batch of its own.
        let copy = (try CLI.tempStore() as NSString).deletingLastPathComponent + "/wells_fargo_again.csv"
        try (try Data(contentsOf: CLI.repoRoot.appendingPathComponent("Samples/csv/wells_fargo_checking.csv")) + Data("\n".utf8))
            .write(to: URL(fileURLWithPath: copy))
        let second = try CLI.run(["import", copy, "--json"], store: store)
        let j2 = try JSONSerialization.jsonObject(with: Data(second.stdout.utf8)) as! [[String: Any]]
        #expect(j2[0]["new"] as? Int == 0)
        #expect(j2[0]["already_present"] as? Int == newCount)
        #expect(j2[0]["batch"] as? Int != j1[0]["batch"] as? Int)
        let before = try CLI.run(["transactions", "--format", "json"], store: store).stdout
        // The second, still active batch holds every row: undoing the first keeps them all
        // (same transactions, same ids); undoing the second too empties the ledger.
        let undo = try CLI.run(["undo", String(j1[0]["batch"] as! Int)], store: store)
        #expect(undo.status == 0)
        #expect(undo.stdout.contains("0 records and 0 transactions removed; \(newCount) records kept"))
        let txs = try CLI.run(["transactions", "--format", "json"], store: store)
        #expect(
            txs.stdout
                == before.replacingOccurrences(of: "\"file\": \"wells_fargo_checking.csv\"", with: "\"file\": \"wells_fargo_again.csv\""))
        let undo2 = try CLI.run(["undo", String(j2[0]["batch"] as! Int)], store: store)
        #expect(undo2.stdout.contains("\(newCount) records and \(newCount) transactions removed"))
        let empty = try CLI.run(["transactions", "--format", "json"], store: store)
        #expect(empty.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
    }

    @Test func profilesListsBuiltIns() throws {
        let r = try CLI.run(["profiles", "--format", "json"], store: nil)
        let names = Set((try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [[String: Any]]).map { $0["name"] as! String })
        #expect(names.isSuperset(of: ["chase", "bofa", "wells-fargo", "capital-one", "amex", "cmb"]))
    }
}

@Suite struct AccountLinkingAndEditsTests {
    func json(_ r: CLI.Result) throws -> [[String: Any]] {
        try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [[String: Any]]
    }

    @Test func plaidAccountAttachedToAnExistingAccountLandsThere() throws {
        let store = try CLI.tempStore()
        #expect(try CLI.run(["import", "Samples/csv/chase_checking.csv"], store: store).status == 0)
        let link = try CLI.run(["accounts", "link", "Chase Checking", "plaid:82fhzmgnlJv0jjhwrecUGPWKM3wQDEZHK9Qhm"], store: store)
        #expect(link.status == 0, "\(link.stderr)")
        #expect(
            try CLI.run(["import", "Samples/plaid/plain_added/page1.json", "Samples/plaid/plain_added/page2.json"], store: store).status
                == 0)
        let accounts = try json(try CLI.run(["accounts", "--format", "json"], store: store)).map { $0["name"] as! String }
        #expect(accounts.contains("Chase Checking"))
        #expect(!accounts.contains("Plaid Checking 0000"))
        let plaidInChase = try json(try CLI.run(["transactions", "--account", "Chase Checking", "--format", "json"], store: store))
            .filter { (($0["sources"] as! [[String: Any]]).first?["kind"] as? String) == "plaid" }
        #expect(!plaidInChase.isEmpty)
    }

    @Test func userEditsSurviveProviderModifications() throws {
        let store = try CLI.tempStore()
        #expect(try CLI.run(["import", "Samples/plaid/modified_posted/page1.json"], store: store).status == 0)
        let before = try json(try CLI.run(["transactions", "--format", "json"], store: store))
        // The transaction the next page modifies (its record keeps its link).
        let page2 = try String(contentsOf: CLI.repoRoot.appendingPathComponent("Samples/plaid/modified_posted/page2.json"), encoding: .utf8)
        let target = before.first { t in
            (t["sources"] as! [[String: Any]]).contains { s in page2.contains((s["external_id"] as? String) ?? "\u{0}") }
        }!
        let id = target["id"] as! Int
        #expect(try CLI.run(["edit", String(id), "--note", "farmers market with Ana"], store: store).status == 0)
        #expect(try CLI.run(["import", "Samples/plaid/modified_posted/page2.json"], store: store).status == 0)
        let after = try json(try CLI.run(["transactions", "--format", "json"], store: store))
        let t = after.first { ($0["id"] as! Int) == id }
        #expect(t != nil, "the modified record keeps its transaction")
        #expect(t?["note"] as? String == "farmers market with Ana")
        #expect(t?["amount"] as? String != target["amount"] as? String, "the provider's modification applied")
    }
}
