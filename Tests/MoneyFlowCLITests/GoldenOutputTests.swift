import Foundation
import MoneyFlowTestSupport
import Testing

/// The CLI's outputs are contracts (keys and kinds are only ever added): the outputs of a fixed
/// set of sample imports, recorded once in `Tests/Fixtures/golden/`, must still hold every key
/// and value they held. JSON is compared as "recorded ⊆ now" (objects may gain keys, arrays keep
/// their length and order); exports and tables are compared as text. A refactoring that changes
/// any of it fails here with the path of the first difference.
///
/// `MONEYFLOW_WRITE_GOLDEN=1` rewrites the recorded files (only when an issue changes an output
/// on purpose; the diff is then the review).
@Suite("Golden outputs", .serialized)
struct GoldenOutputTests {
    static let golden = TestPaths.repoRoot.appendingPathComponent("Tests/Fixtures/golden")
    static let rewrite = ProcessInfo.processInfo.environment["MONEYFLOW_WRITE_GOLDEN"] == "1"

    /// One scenario: commands that build a store, then the reading commands whose outputs are recorded.
    struct Scenario {
        var name: String
        var build: [[String]]
        var outputs: [(file: String, args: [String])]
    }

    static let readings: [(file: String, args: [String])] = [
        ("transactions.json", ["transactions", "--format", "json"]),
        ("reconcile.json", ["reconcile", "--format", "json"]),
        ("transfers.json", ["transfers", "--format", "json"]),
        ("review.json", ["review", "--format", "json"]),
        ("accounts.json", ["accounts", "--format", "json"]),
        ("batches.json", ["batches", "--format", "json"]),
        ("transactions.txt", ["transactions"]),
        ("export.beancount", ["export", "--format", "beancount"]),
        ("export.ledger", ["export", "--format", "ledger"]),
        ("export.json", ["export", "--format", "json"]),
    ]

    static var scenarios: [Scenario] {
        let transfers = "Samples/transfers/us_quarter"
        return [
            Scenario(
                name: "demo",
                build: [["run", golden.appendingPathComponent("manifest/demo.toml").path, "--json"]],
                outputs: [("dry-run.json", ["run", golden.appendingPathComponent("manifest/demo.toml").path, "--dry-run", "--json"])]
                    + readings),
            Scenario(
                name: "us_quarter",
                build: [
                    "Chase5678_Activity_20260401.csv", "chase_savings_1234_2026Q1.ofx",
                    "chase_card_7742_sync_2026-01.json", "chase_card_7742_sync_2026-02.json",
                    "chase_card_7742_sync_2026-03.json",
                ].map { ["import", "\(transfers)/\($0)", "--json"] },
                outputs: readings),
            Scenario(
                name: "cmb_card",
                build: [["import", "Samples/cmb/card/cmbcard_january.pdf", "Samples/cmb/card/cmbcard_multipage.pdf", "--json"]],
                outputs: readings),
        ]
    }

    @Test(arguments: scenarios.map(\.name))
    func outputsKeepEveryRecordedKeyAndValue(_ name: String) throws {
        let scenario = Self.scenarios.first { $0.name == name }!
        let dir = try TestPaths.tempDir("golden-\(name)")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = "\(dir)/golden.sqlite"
        var recorded: [(String, String)] = []
        for (i, args) in scenario.build.enumerated() {
            let r = try MoneyFlowBinary.run(args + ["--store", store])
            try #require(r.status == 0, "\(args): \(r.stderr)")
            recorded.append(("build-\(i + 1).json", r.stdout))
        }
        for (file, args) in scenario.outputs {
            let r = try MoneyFlowBinary.run(args + ["--store", store])
            try #require(r.status == 0, "\(args): \(r.stderr)")
            recorded.append((file, r.stdout))
        }
        let folder = Self.golden.appendingPathComponent(name)
        for (file, output) in recorded {
            let text = Self.normalised(output, store: store)
            let url = folder.appendingPathComponent(file)
            if Self.rewrite {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try Data(text.utf8).write(to: url)
                continue
            }
            let expected = try String(contentsOf: url, encoding: .utf8)
            if file.hasSuffix(".json") {
                let was = try JSONSerialization.jsonObject(with: Data(expected.utf8), options: .fragmentsAllowed)
                let now = try JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)
                let difference = Self.firstDifference(recorded: was, now: now, path: "\(name)/\(file)")
                #expect(difference == nil, "\(difference ?? "")")
            } else {
                let difference = Self.firstDifferentLine(recorded: expected, now: text)
                #expect(difference == nil, "\(name)/\(file): \(difference ?? "")")
            }
        }
    }

    /// What differs from run to run: the store's path, the repository's place, import times.
    static func normalised(_ output: String, store: String) -> String {
        var text = output.replacingOccurrences(of: store, with: "<STORE>")
            .replacingOccurrences(of: TestPaths.repoRoot.path + "/", with: "")
        let instant = try! NSRegularExpression(pattern: #"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:?\d\d)?"#)
        text = instant.stringByReplacingMatches(
            in: text, range: NSRange(text.startIndex..., in: text), withTemplate: "<INSTANT>")
        return text
    }

    /// Nil when every key and value of `recorded` is in `now` (objects may have gained keys).
    static func firstDifference(recorded: Any, now: Any, path: String) -> String? {
        switch (recorded, now) {
        case (let a as [String: Any], let b as [String: Any]):
            for key in a.keys.sorted() {
                guard let value = b[key] else { return "\(path).\(key): key dropped" }
                if let d = firstDifference(recorded: a[key]!, now: value, path: "\(path).\(key)") { return d }
            }
            return nil
        case (let a as [Any], let b as [Any]):
            guard a.count == b.count else { return "\(path): \(a.count) entries recorded, \(b.count) now" }
            for (i, (x, y)) in zip(a, b).enumerated() {
                if let d = firstDifference(recorded: x, now: y, path: "\(path)[\(i)]") { return d }
            }
            return nil
        case (is NSNull, is NSNull):
            return nil
        default:
            let a = "\(recorded)", b = "\(now)"
            return a == b && type(of: recorded) == type(of: now) ? nil : "\(path): was \(a), now \(b)"
        }
    }

    static func firstDifferentLine(recorded: String, now: String) -> String? {
        let a = recorded.components(separatedBy: "\n"), b = now.components(separatedBy: "\n")
        for i in 0..<max(a.count, b.count) {
            let x = i < a.count ? a[i] : "<end>", y = i < b.count ? b[i] : "<end>"
            if x != y { return "line \(i + 1): was \(x) — now \(y)" }
        }
        return nil
    }
}
