import Foundation
import MoneyFlowTestSupport
import Testing

/// `import --dry-run` shows the transfers the import would make, through the binary: `--json`
/// gains `transfers` (entries shaped like `transfers --format json`'s), whose legs the dry run
/// created are marked `new` with no id; the real import then lists the same transfers; and a
/// dry run against a store that does not exist creates nothing.
@Suite("import --dry-run: transfers through the binary")
struct DryRunTransfersTests {
    static let dir = TestPaths.samples.appendingPathComponent("transfers/us_quarter").path
    static let checking = dir + "/Chase5678_Activity_20260401.csv", savings = dir + "/chase_savings_1234_2026Q1.ofx"

    /// The JSON object printed (`import --json` prints a list of one object per file).
    static func object(_ text: String) throws -> [String: Any] {
        let value = try JSONSerialization.jsonObject(with: Data(text.utf8))
        return try #require((value as? [[String: Any]])?.first ?? value as? [String: Any])
    }

    /// A leg without what only a dry run says (`new`, `file`, `line`; `id` when new).
    static func plain(_ leg: Any?) -> String {
        var o = (leg as? [String: Any]) ?? [:]
        if o["new"] as? Bool == true { o["id"] = "new" }
        for k in ["new", "file", "line"] { o[k] = nil }
        return o.keys.sorted().map { "\($0)=\(o[$0]!)" }.joined(separator: ",")
    }

    static func plain(_ pair: [String: Any]) -> String {
        "\(plain(pair["out"])) -> \(plain(pair["in"])) \(pair["decided_by"]!) \(pair["score"]!) \(pair["reasons"]!)"
    }

    @Test func dryRunJSONListsTheTransfersTheImportMakes() throws {
        let store = try CLI.tempStore()
        #expect(try CLI.run(["import", "--quiet", Self.checking], store: store).status == 0)
        let dry = try CLI.run(["import", "--dry-run", "--json", Self.savings], store: store)
        #expect(dry.status == 0, "\(dry.stderr)")
        let result = try Self.object(dry.stdout)
        // Every key an import result had is still there.
        for key in ["file", "importer", "accounts", "dry_run", "batch", "new", "linked", "plan", "relinks", "warning_messages"] {
            #expect(result[key] != nil, "\(key)")
        }
        let shown = try #require(result["transfers"] as? [[String: Any]])
        #expect(!shown.isEmpty)
        for t in shown {
            #expect(Set(t.keys) == ["out", "in", "decided_by", "score", "reasons"])
            let legs = [t["out"], t["in"]].compactMap { $0 as? [String: Any] }
            // Checking rows exist already; savings rows exist only in the rehearsal: no id.
            #expect(legs.contains { $0["new"] as? Bool == false && $0["id"] is NSNumber })
            for leg in legs where leg["new"] as? Bool == true {
                #expect(leg["id"] is NSNull)
                #expect((leg["file"] as? String)?.hasSuffix("chase_savings_1234_2026Q1.ofx") == true && leg["line"] is NSNumber)
            }
        }
        let text = try CLI.run(["import", "--dry-run", Self.savings], store: store)
        #expect(
            text.stdout.contains("transfers after this import:")
                && text.stdout.contains("[new transaction (chase_savings_1234_2026Q1.ofx line "))

        let before = try CLI.run(["transactions", "--format", "json"], store: store)
        let known = Set(
            ((try JSONSerialization.jsonObject(with: Data(before.stdout.utf8)) as? [[String: Any]]) ?? []).compactMap {
                ($0["id"] as? NSNumber)?.int64Value
            })
        #expect(try CLI.run(["import", "--quiet", Self.savings], store: store).status == 0)
        let listed = try Self.object(try CLI.run(["transfers", "--format", "json"], store: store).stdout)
        // Every transfer here has a savings leg (the checking export alone pairs nothing); the
        // legs the real import created are the ones the dry run called new.
        let written = (((listed["transfers"] as? [[String: Any]]) ?? []) + ((listed["review"] as? [[String: Any]]) ?? [])).map { pair in
            var p = pair
            for side in ["out", "in"] {
                var leg = (p[side] as? [String: Any]) ?? [:]
                leg["new"] = !known.contains((leg["id"] as? NSNumber)?.int64Value ?? -1)
                p[side] = leg
            }
            return p
        }
        #expect(shown.map(Self.plain).sorted() == written.map(Self.plain).sorted())
    }

    @Test func dryRunWithoutAStoreCreatesNone() throws {
        let store = try TestPaths.tempDir("dry-none") + "/missing.sqlite"
        let dry = try CLI.run(["import", "--dry-run", "--json", Self.checking], store: store)
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect((try Self.object(dry.stdout)["transfers"] as? [Any])?.isEmpty == true)
        #expect(!FileManager.default.fileExists(atPath: store))
        #expect(try FileManager.default.contentsOfDirectory(atPath: (store as NSString).deletingLastPathComponent).isEmpty)
    }
}
