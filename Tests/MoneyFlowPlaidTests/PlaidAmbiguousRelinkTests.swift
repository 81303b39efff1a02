import Foundation
import MoneyFlowPipeline
import MoneyFlowStore
import PlaidTestServer
import Testing

@testable import MoneyFlowPlaid

/// A re-linked bank's account that could be several store accounts is asked about, not guessed.
@Suite("re-link: an ambiguous account is asked about")
struct PlaidAmbiguousRelinkTests {
    final class Calls: @unchecked Sendable {
        let lock = NSLock()
        var asked: [(String, [String])] = []
        func add(_ a: String, _ c: [String]) { lock.withLock { asked.append((a, c)) } }
    }

    @Test(
        "two store accounts match the new checking account: the chooser picks one and the account lands there; without a chooser it is a new account with a warning"
    )
    func ambiguousAccountIsAsked() async throws {
        let server = try await PlaidTestServer.start()
        defer { Task { await server.stop() } }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ambiguous-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try LedgerStore(path: dir + "/ledger.sqlite")
        let configuration = PlaidConfiguration(
            clientID: "test-client-id", secret: "test-secret", baseURL: URL(string: server.baseURL)!, environmentName: "custom")
        var service = PlaidService(
            store: store, client: PlaidClient(configuration: configuration, retry: RetryPolicy(baseDelay: .milliseconds(2))),
            keyFile: dir + "/plaid.key")
        _ = try await service.linkSandbox(institutionID: DefaultInstitution.id, days: 730)

        // A second store account that looks just like the checking account (another login's view).
        let other =
            #"{"accounts":[{"account_id":"other-checking","mask":"0000","name":"Plaid Checking","type":"depository","subtype":"checking","balances":{"current":5.00,"available":null,"iso_currency_code":"USD"}}],"item":{"item_id":"other-item","institution_id":"ins_109508","institution_name":"First Platypus Bank"},"request_id":"r"}"#
        try Data(other.utf8).write(to: URL(fileURLWithPath: dir + "/other.json"))
        var options = FileImportOptions(format: "plaid")
        options.accountName = "Joint Checking 0000"
        _ = try ImportService(store: store).importFile(path: dir + "/other.json", options: options)
        let before = try await store.accounts().count

        let calls = Calls()
        service.chooseAccount = { account, mask, candidates in
            calls.add(account, candidates)
            #expect(mask == "0000")
            return "Joint Checking 0000"
        }
        let linked = try await service.linkSandbox(institutionID: DefaultInstitution.id, days: 730)
        #expect(calls.asked.count == 1, "only the checking account is ambiguous")
        #expect(Set(calls.asked.first?.1 ?? []) == ["Plaid Checking 0000", "Joint Checking 0000"])
        let accounts = try await store.accounts()
        #expect(accounts.count == before, "no new account")
        let checkingID = try #require(server.items().first { $0.itemID == linked.itemID }?.accountIDs["checking"])
        #expect(accounts.first { $0.name == "Joint Checking 0000" }?.keys.contains("plaid:" + checkingID) == true)

        // No one to ask (not a terminal): a new account, and a warning that says what to do.
        service.chooseAccount = nil
        let third = try await service.linkSandbox(institutionID: DefaultInstitution.id, days: 730)
        #expect(try await store.accounts().count == before + 1)
        #expect(
            third.accounts.plan.statement.warnings.contains { $0.message.contains("ambiguous") && $0.message.contains("accounts link") })
    }
}
