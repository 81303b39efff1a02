import Foundation
import MoneyFlowTestSupport
import Testing

/// A new user's first commands through the real binary: those that fail (a bad first file,
/// Plaid without keys or network) leave nothing behind.
@Suite struct FirstUseTests {
    /// Plaid settings of a user who has not set Plaid up (empty counts as unset), with the key
    /// file in `dir` so a developer's own key is never touched.
    static func noPlaidKeys(_ dir: String) -> [String: String] {
        ["PLAID_CLIENT_ID": "", "PLAID_SECRET": "", "PLAID_ENV": "", "MONEYFLOW_KEY_FILE": "\(dir)/plaid.key"]
    }

    @Test("a command that fails before writing leaves no store file (nor -wal, -shm) behind")
    func failedCommandsCreateNoStore() throws {
        let dir = try TestPaths.tempDir("first-use")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = "\(dir)/new.sqlite"
        // Port 1 on loopback: nothing listens, the connection is refused at once.
        let offline = PlaidUnreachableCLITests.plaidAt("http://127.0.0.1:1", dir)
        let cases: [(args: [String], env: [String: String], what: String)] = [
            (["import", TestPaths.badInputs.path + "/csv/bad_date.csv"], [:], "a first import of a broken CSV"),
            (["import", TestPaths.repoRoot.path + "/README.md"], [:], "a first import of a README"),
            (["import", "--strict", TestPaths.samples.path + "/plaid/full_period/page1.json"], [:], "a first import refused by --strict"),
            (["plaid", "sync"], Self.noPlaidKeys(dir), "plaid sync without keys"),
            (["plaid", "link", "--sandbox"], Self.noPlaidKeys(dir), "plaid link without keys"),
            (["plaid", "link", "--sandbox"], offline, "plaid link with Plaid unreachable"),
        ]
        for c in cases {
            let r = try MoneyFlowBinary.run(c.args + ["--store", store], env: c.env)
            #expect(r.status == 1, "\(c.what): \(r.stderr)")
            for suffix in ["", "-wal", "-shm"] {
                #expect(!FileManager.default.fileExists(atPath: store + suffix), "\(c.what) left \(store + suffix) behind")
            }
        }
        // The key file is made only when a bank is linked.
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/plaid.key"))
        // A command that writes still creates the store.
        let ok = try MoneyFlowBinary.run(["import", TestPaths.samples.path + "/csv/chase_checking.csv", "--store", store])
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(FileManager.default.fileExists(atPath: store))
        // And a later failing command leaves that store as it was.
        let before = try MoneyFlowBinary.run(["transactions", "--format", "json", "--store", store]).stdout
        let bad = try MoneyFlowBinary.run(["import", TestPaths.badInputs.path + "/csv/bad_date.csv", "--store", store])
        #expect(bad.status == 1)
        #expect(try MoneyFlowBinary.run(["transactions", "--format", "json", "--store", store]).stdout == before)
    }
}
