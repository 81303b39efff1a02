import Foundation
import MoneyFlowTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Plaid that cannot be reached, through the real binary: the command says at once which host
/// it tries, and a host that does not resolve or a refused connection ends it with one clear
/// line instead of minutes of silent retries (over 400 s once, for a DNS failure).
@Suite struct PlaidUnreachableCLITests {
    /// Longest wait for the command: a process still running then is stopped and the test fails
    /// (a bound on the test itself, so a regression fails instead of hanging the run, not a
    /// measurement of how fast the command is).
    static let bound = 60

    /// Plaid set up, but nothing answers at `url` (the key file in `dir`, never a developer's own).
    static func plaidAt(_ url: String, _ dir: String) -> [String: String] {
        ["PLAID_CLIENT_ID": "test-client-id", "PLAID_SECRET": "test-secret", "PLAID_ENV": url, "MONEYFLOW_KEY_FILE": "\(dir)/plaid.key"]
    }

    /// `moneyflow args` with `env`, waited for at most ``bound`` seconds; nil when it had to be stopped.
    static func runBounded(_ args: [String], env: [String: String]) throws -> BinaryRun? {
        let child = try MoneyFlowBinary.spawn(args, env: env)
        do throws(ChildTimeout) { return try child.wait(timeout: .seconds(bound)) } catch { return nil }
    }

    @Test(
        "an unknown host (RFC 2606 .invalid) and a refused connection fail at once with one line naming the host",
        arguments: [
            ("http://moneyflow-test.invalid:8765", "cannot find Plaid's host moneyflow-test.invalid (DNS lookup failed"),
            ("http://127.0.0.1:1", "127.0.0.1:1 refused the connection"),
        ])
    func unreachable(url: String, expected: String) throws {
        let dir = try TestPaths.tempDir("plaid-unreachable")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = "\(dir)/new.sqlite"
        let env = Self.plaidAt(url, dir)
        let run = try Self.runBounded(["plaid", "link", "--sandbox", "--store", store], env: env)
        let r = try #require(run, "plaid link against \(url) was still running after \(Self.bound) s")
        #expect(r.status == 1)
        let lines = r.stderrLines
        #expect(lines.first == "moneyflow: contacting Plaid at \(url) (PLAID_ENV=custom)", "\(r.stderr)")
        #expect(lines.count == 2, "one line saying what is tried, one error; no retries: \(r.stderr)")
        #expect(lines.last?.hasPrefix("moneyflow: error: Plaid /sandbox/public_token/create: \(expected)") == true, "\(r.stderr)")
        #expect(lines.last?.contains("PLAID_ENV") == true)
    }
}
