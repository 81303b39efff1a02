import Foundation
import MoneyFlowHTTPTestSupport
import MoneyFlowTestSupport
import PlaidTestServer
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// One test's world: the Plaid-shaped server on 127.0.0.1, a temporary folder with the store
/// and the key file, and the real `moneyflow` binary pointed at both through the environment.
final class PlaidHarness: @unchecked Sendable {
    let server: PlaidTestServer
    let dir: String
    let store: String
    var keyFile: String { dir + "/keys/plaid.key" }
    var archive: String { dir + "/ledger-plaid-archive" }
    /// Everything every command printed, to check no token ever appears in output.
    private(set) var output = ""
    private let lock = NSLock()

    static func start() async throws -> PlaidHarness {
        let server = try await PlaidTestServer.start()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("plaid-e2e-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return PlaidHarness(server: server, dir: dir)
    }

    private init(server: PlaidTestServer, dir: String) {
        self.server = server; self.dir = dir; self.store = dir + "/ledger.sqlite"
    }

    private func record(_ text: String) { lock.withLock { output += text } }
    private var printedSoFar: String { lock.withLock { output } }

    func stop() async {
        await server.stop()
        try? FileManager.default.removeItem(atPath: dir)
    }

    var environment: [String: String] {
        [
            "PLAID_CLIENT_ID": "test-client-id", "PLAID_SECRET": "test-secret", "PLAID_ENV": server.baseURL,
            "MONEYFLOW_KEY_FILE": keyFile, "MONEYFLOW_PLAID_BACKOFF_MS": "2", "HOME": dir, "XDG_CONFIG_HOME": dir + "/config",
        ]
    }

    /// Runs `moneyflow args --store <store>` on its own thread (the wait blocks; the server's
    /// tasks must keep the cooperative pool).
    func run(_ args: [String], store: String? = nil, env extra: [String: String] = [:], stdin: String? = nil) async throws -> BinaryRun {
        let child = try spawn(args, store: store, env: extra, stdin: stdin)
        return try await Self.wait(child, record: self)
    }

    func spawn(_ args: [String], store: String? = nil, env extra: [String: String] = [:], stdin: String? = nil) throws -> BinaryChild {
        try MoneyFlowBinary.spawn(
            args + ["--store", store ?? self.store], cwd: dir, env: environment.merging(extra) { $1 }, stdin: stdin)
    }

    static func wait(_ child: BinaryChild, record harness: PlaidHarness?) async throws -> BinaryRun {
        let run = try await waitOffPool(child)
        harness?.record(run.stdout + run.stderr)
        return run
    }

    func json(_ run: BinaryRun) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(run.stdout.utf8))
    }

    /// `plaid link --sandbox` for `institution`; returns the new item id.
    func linkSandbox(_ institution: String = "ins_109508") async throws -> String {
        let before = Set(server.items().map(\.itemID))
        let r = try await run(["plaid", "link", "--sandbox", "--institution", institution, "--json"])
        #expect(r.status == 0, "link failed: \(r.stderr)")
        let item = try #require(server.items().map(\.itemID).first { !before.contains($0) })
        let o = try #require(try json(r) as? [String: Any])
        #expect(o["item_id"] as? String == item)
        return item
    }

    func sync(_ extra: [String] = []) async throws -> (run: BinaryRun, items: [String: [String: Any]]) {
        let r = try await run(["plaid", "sync", "--json"] + extra)
        let o = try? json(r) as? [String: Any]
        var items: [String: [String: Any]] = [:]
        for i in (o?["items"] as? [[String: Any]]) ?? [] { items[i["item_id"] as? String ?? ""] = i }
        return (r, items)
    }

    /// `transactions --format json` of a store, as text (byte comparisons) and parsed.
    func transactions(store: String? = nil) async throws -> (text: String, list: [[String: Any]]) {
        let r = try await run(["transactions", "--format", "json"], store: store)
        #expect(r.status == 0, "\(r.stderr)")
        return (r.stdout, try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]]))
    }

    /// The ledger holds exactly the server's truth for these items: one active transaction per
    /// Plaid transaction, with its date, amount (store sign: Plaid's negated) and pending flag,
    /// and no Plaid record the truth does not have.
    func expectLedgerEqualsTruth(items: [String], sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let (_, list) = try await transactions()
        var byExternal: [String: [String: Any]] = [:]
        var plaidSources = 0
        for t in list {
            for s in (t["sources"] as? [[String: Any]]) ?? [] where s["kind"] as? String == "plaid" {
                plaidSources += 1
                if let e = s["external_id"] as? String { byExternal[e] = t }
            }
        }
        var expected = 0
        for item in items {
            for truth in try server.truth(itemID: item) {
                expected += 1
                guard let t = byExternal[truth.transactionID] else {
                    Issue.record(
                        "\(truth.transactionID) (\(truth.date) \(truth.amount) \(truth.name)) is not in the ledger",
                        sourceLocation: sourceLocation)
                    continue
                }
                #expect(t["date"] as? String == truth.date, sourceLocation: sourceLocation)
                #expect(
                    Decimal(string: t["amount"] as? String ?? "") == -(Decimal(string: truth.amount) ?? 0), sourceLocation: sourceLocation)
                #expect(t["pending"] as? Bool == truth.pending, sourceLocation: sourceLocation)
            }
        }
        #expect(
            plaidSources == expected, "ledger has \(plaidSources) active Plaid records, the server \(expected)",
            sourceLocation: sourceLocation)
    }

    /// Every file the store and the archive consist of, as bytes.
    func storedBytes() -> [(String, Data)] {
        var out: [(String, Data)] = []
        for suffix in ["", "-wal", "-shm", "-journal"] {
            if let d = FileManager.default.contents(atPath: store + suffix) { out.append((store + suffix, d)) }
        }
        if let names = try? FileManager.default.contentsOfDirectory(atPath: archive) {
            for n in names { if let d = FileManager.default.contents(atPath: archive + "/" + n) { out.append((n, d)) } }
        }
        return out
    }

    /// No access token of any item is in the store, its WAL, the archive or any output.
    func expectNoTokenLeaked(sourceLocation: SourceLocation = #_sourceLocation) {
        let tokens = server.items().map(\.accessToken)
        #expect(!tokens.isEmpty, sourceLocation: sourceLocation)
        let files = storedBytes()
        #expect(!files.isEmpty, sourceLocation: sourceLocation)
        for token in tokens {
            for (name, bytes) in files {
                #expect(bytes.range(of: Data(token.utf8)) == nil, "\(name) holds an access token", sourceLocation: sourceLocation)
            }
            #expect(!printedSoFar.contains(token), "an access token was printed", sourceLocation: sourceLocation)
        }
        #expect(!printedSoFar.contains("test-secret"), "the Plaid secret was printed", sourceLocation: sourceLocation)
    }
}
