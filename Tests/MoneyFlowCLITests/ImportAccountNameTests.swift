import Foundation
import MoneyFlowTestSupport
import Testing

@testable import MoneyFlowPipeline

/// `import --account NAME`: a typo of an existing account is refused with the name suggested
/// (as every other command refuses an unknown account), a new account is said on its own line,
/// and `--new-account` (manifest `new_account`) creates a near name on purpose.
@Suite struct ImportAccountNameTests {
    static func accounts(_ store: String) throws -> [String] {
        let r = try CLI.run(["accounts", "--format", "json"], store: store)
        let list = (try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]]) ?? []
        return list.compactMap { $0["name"] as? String }.sorted()
    }

    @Test func aTypoOfAnExistingAccountIsRefusedAndANewAccountIsSaid() throws {
        let store = try CLI.tempStore()
        let first = try CLI.run(["import", "Samples/csv/chase_checking.csv", "--account", "Chase Checking"], store: store)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.split(separator: "\n").contains("  created account 'Chase Checking' (chase_checking.csv)"), "\(first.stdout)")
        let before = try CLI.run(["transactions", "--all", "--format", "json"], store: store).stdout

        for typo in ["Chase Checkng", "chase checking"] {
            let r = try CLI.run(["import", "Samples/csv/chase_card.csv", "--account", typo], store: store)
            #expect(r.status == 1, "\(typo): \(r.stdout)")
            #expect(r.stderr.contains("no account named '\(typo)' (did you mean 'Chase Checking'?)"), "\(r.stderr)")
            #expect(r.stderr.contains("--new-account"), "\(r.stderr)")
            #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        }
        #expect(try Self.accounts(store) == ["Chase Checking"])
        #expect(try CLI.run(["transactions", "--all", "--format", "json"], store: store).stdout == before)

        // The existing name itself: no new account, no line saying so.
        let again = try CLI.run(["import", "Samples/csv/chase_checking.csv", "--account", "Chase Checking"], store: store)
        #expect(again.status == 0 && !again.stdout.contains("created account"), "\(again.stdout)\(again.stderr)")
        // Meant as a new account: created, and said.
        let meant = try CLI.run(["import", "Samples/csv/chase_card.csv", "--account", "Chase Checkin", "--new-account"], store: store)
        #expect(meant.status == 0, "\(meant.stderr)")
        #expect(meant.stdout.contains("created account 'Chase Checkin'"), "\(meant.stdout)")
        #expect(try Self.accounts(store) == ["Chase Checkin", "Chase Checking"])
        // A name far from every account is simply new.
        let far = try CLI.run(["import", "Samples/csv/amex.csv", "--account", "Amex Blue", "--dry-run"], store: store)
        #expect(far.status == 0 && far.stdout.contains("would create account 'Amex Blue'"), "\(far.stdout)\(far.stderr)")
    }

    /// The manifest's `new_account` does what `--new-account` does; its type is checked.
    @Test func manifestNewAccount() throws {
        let dir = try TestPaths.tempDir("new-account")
        let store = try CLI.tempStore()
        try FileManager.default.copyItem(atPath: "\(CLI.repoRoot.path)/Samples/csv/chase_card.csv", toPath: dir + "/card.csv")
        #expect(try CLI.run(["import", "Samples/csv/chase_checking.csv", "--account", "Chase Checking"], store: store).status == 0)
        try "[defaults]\naccount = \"Chase Checkin\"\n".write(toFile: dir + "/moneyflow.toml", atomically: false, encoding: .utf8)
        let refused = try CLI.run(["run", dir + "/moneyflow.toml"], store: store)
        #expect(refused.status == 1 && refused.stderr.contains("did you mean 'Chase Checking'?"), "\(refused.stderr)")
        try "[defaults]\naccount = \"Chase Checkin\"\nnew_account = \"yes\"\n".write(
            toFile: dir + "/moneyflow.toml", atomically: false, encoding: .utf8)
        let typed = try CLI.run(["run", dir + "/moneyflow.toml"], store: store)
        #expect(typed.status != 0 && typed.stderr.contains("'new_account' must be true or false"), "\(typed.stderr)")
        try "[defaults]\naccount = \"Chase Checkin\"\nnew_account = true\n".write(
            toFile: dir + "/moneyflow.toml", atomically: false, encoding: .utf8)
        let meant = try CLI.run(["run", dir + "/moneyflow.toml"], store: store)
        #expect(meant.status == 0, "\(meant.stderr)")
        #expect(try Self.accounts(store) == ["Chase Checkin", "Chase Checking"])
    }

    /// The README's manifest key list is the list the manifest reader knows.
    @Test func readmeListsEveryManifestKey() throws {
        let readme = try String(contentsOf: CLI.repoRoot.appendingPathComponent("README.md"), encoding: .utf8)
        for key in BatchManifest.optionKeys { #expect(readme.contains("`\(key)`"), "README does not list manifest key \(key)") }
    }
}
