import Foundation
import MoneyFlowHTTPTestSupport
import MoneyFlowTestSupport
import Testing

@testable import MoneyFlowServer

/// `moneyflow users passwd NAME`: the password comes from stdin (or a no-echo prompt), never argv.
@Suite struct WebPasswordCLITests {
    @Test func passwdReadsStdinAndTheWebSignInAcceptsIt() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("passwd-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let add = try await waitOffPool(try MoneyFlowBinary.spawn(["users", "add", "erin", "--data", dir]))
        #expect(add.status == 0, "\(add.stderr)")
        let set = try await waitOffPool(
            try MoneyFlowBinary.spawn(["users", "passwd", "erin", "--data", dir], stdin: "a long web password\n"))
        #expect(set.status == 0, "\(set.stderr)")
        let accounts = try WebAccounts(users: try UserDirectory(dataDirectory: dir))
        #expect(try accounts.verify(name: "erin", password: "a long web password")?.name == "erin")
        #expect(try accounts.verify(name: "erin", password: "a long web passwore") == nil)
        let short = try await waitOffPool(try MoneyFlowBinary.spawn(["users", "passwd", "erin", "--data", dir], stdin: "short\n"))
        #expect(short.status == 1 && short.stderr.contains("10 to 1024"))
        let nobody = try await waitOffPool(try MoneyFlowBinary.spawn(["users", "passwd", "zed", "--data", dir], stdin: "a long web password\n"))
        #expect(nobody.status == 1 && nobody.stderr.contains("no user named 'zed'"))
    }
}
