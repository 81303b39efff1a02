import Foundation
import MoneyFlowHTTPTestSupport
import MoneyFlowTestSupport
import PlaidTestServer
import Testing

/// Linking, re-linking, removing, and the key file, through the real binary.
@Suite("plaid link, re-link, remove and the key file", .serialized)
struct PlaidLinkEndToEndTests {
    @Test(
        "re-linking a bank that already synced (new item: new account and transaction ids, same history) adds nothing and retires the old item"
    )
    func relinkAddsNothing() async throws {
        let h = try await PlaidHarness.start()
        defer { Task { await h.stop() } }
        let old = try await h.linkSandbox()
        #expect(try await h.sync().run.status == 0)
        let accountsBefore = try await h.run(["accounts", "--format", "json"]).stdout
        let before = try await h.transactions().list
        let truthCount = try h.server.truth(itemID: old).count
        #expect(before.count == truthCount)

        let r = try await h.run(["plaid", "link", "--sandbox", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let link = try #require(try h.json(r) as? [String: Any])
        let new = try #require(link["item_id"] as? String)
        #expect(new != old)
        #expect(link["retired_items"] as? [String] == [old])
        #expect(h.server.items().first { $0.itemID == old }?.removed == true, "the old item was removed at Plaid")
        #expect(try await h.run(["accounts", "--format", "json"]).stdout == accountsBefore, "no new account")

        let (sr, s) = try await h.sync()
        #expect(sr.status == 0, "\(sr.stderr)")
        #expect(s.keys.sorted() == [new], "only the new item syncs")
        let after = try await h.transactions().list
        #expect(after.count == before.count, "the re-delivered history adds no transaction")
        // Every transaction now carries the old and the new item's record.
        let newIDs = Set(try h.server.truth(itemID: new).map(\.transactionID))
        let oldIDs = Set(try h.server.truth(itemID: old).map(\.transactionID))
        #expect(newIDs.isDisjoint(with: oldIDs))
        var linked = 0
        for t in after {
            let ext = Set(((t["sources"] as? [[String: Any]]) ?? []).compactMap { $0["external_id"] as? String })
            if !ext.isDisjoint(with: newIDs) && !ext.isDisjoint(with: oldIDs) { linked += 1 }
        }
        #expect(linked >= after.count - DefaultInstitution.pendingCount, "\(linked) of \(after.count) carry both items' records")
        let items = try await h.run(["plaid", "items", "--format", "json", "--offline"])
        let rows = ((try JSONSerialization.jsonObject(with: Data(items.stdout.utf8)) as? [String: Any])?["items"] as? [[String: Any]]) ?? []
        #expect(rows.first { $0["item_id"] as? String == old }?["status"] as? String == "retired")
        #expect(rows.first { $0["item_id"] as? String == old }?["replaced_by"] as? String == new)
        // The archive replays the re-link too: the new item's accounts file lands on the same accounts.
        let fresh = h.dir + "/fresh.sqlite"
        #expect(try await h.run(["import", h.archive, "--quiet"], store: fresh).status == 0)
        #expect(try await h.transactions(store: fresh).text == (try await h.transactions().text))
        h.expectNoTokenLeaked()
    }

    @Test("a link cut short before its accounts came in keeps the item; the next sync brings the accounts first, named after the bank")
    func linkInterruptedBeforeAccounts() async throws {
        let h = try await PlaidHarness.start()
        defer { Task { await h.stop() } }
        // As many failures as the client tries (RetryPolicy.maxAttempts): the link gives up.
        h.server.failNext(path: "/accounts/get", times: 6, kind: .internalError)
        let r = try await h.run(["plaid", "link", "--sandbox"])
        #expect(r.status == 1 && r.stderr.contains("/accounts/get"), "\(r.stderr)")
        let item = try #require(h.server.items().first?.itemID)
        let (sr, s) = try await h.sync()
        #expect(sr.status == 0 && s[item]?["outcome"] as? String == "synced", "\(sr.stderr)")
        let accounts = try await h.run(["accounts", "--format", "json"])
        let list = (try JSONSerialization.jsonObject(with: Data(accounts.stdout.utf8)) as? [[String: Any]]) ?? []
        #expect(Set(list.compactMap { $0["institution"] as? String }) == ["First Platypus Bank"], "\(accounts.stdout)")
        try await h.expectLedgerEqualsTruth(items: [item])
    }

    @Test("plaid remove: removed at Plaid, token gone from the store, transactions kept; sync then has nothing to sync")
    func remove() async throws {
        let h = try await PlaidHarness.start()
        defer { Task { await h.stop() } }
        let item = try await h.linkSandbox()
        #expect(try await h.sync().run.status == 0)
        let ledger = try await h.transactions().text
        let r = try await h.run(["plaid", "remove", item])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(h.server.items().first { $0.itemID == item }?.removed == true)
        #expect(try await h.transactions().text == ledger)
        let again = try await h.sync()
        #expect(again.run.status == 1 && again.run.stderr.contains("no linked Plaid item"), "\(again.run.stderr)")
        let named = try await h.run(["plaid", "sync", "--item", item])
        #expect(named.status == 1 && named.stderr.contains("removed"), "\(named.stderr)")
        let unknown = try await h.run(["plaid", "remove", "nope"])
        #expect(unknown.status == 1 && unknown.stderr.contains("no Plaid item nope"))
    }

    @Test("the key file: created 0600 on the first link; missing or different later is a clear error and nothing is re-linked")
    func keyFile() async throws {
        let h = try await PlaidHarness.start()
        defer { Task { await h.stop() } }
        _ = try await h.linkSandbox()
        let mode = (try FileManager.default.attributesOfItem(atPath: h.keyFile)[.posixPermissions] as? NSNumber)?.intValue
        #expect(mode == 0o600)
        let itemsBefore = h.server.items().count
        let missing = try await h.run(["plaid", "sync"], env: ["MONEYFLOW_KEY_FILE": h.dir + "/elsewhere.key"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("elsewhere.key") && missing.stderr.contains("is missing"), "\(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: h.dir + "/elsewhere.key"), "no new key is made for a store with tokens")
        let otherKey = h.dir + "/other.key"
        _ = FileManager.default.createFile(
            atPath: otherKey, contents: Data((Data(repeating: 7, count: 32).base64EncodedString() + "\n").utf8),
            attributes: [.posixPermissions: 0o600])
        let wrong = try await h.run(["plaid", "sync"], env: ["MONEYFLOW_KEY_FILE": otherKey])
        #expect(wrong.status == 1 && wrong.stderr.contains("sealed with key"), "\(wrong.stderr)")
        #expect(h.server.items().count == itemsBefore, "nothing was linked again")
        #expect(try await h.sync().run.status == 0, "the right key still works")
    }

    @Test("--public-token exchanges a token from a file (an app's); a bad file is a clear error; PLAID_* missing is named")
    func publicTokenFile() async throws {
        let h = try await PlaidHarness.start()
        defer { Task { await h.stop() } }
        let linkToken = try await Self.linkToken(h)
        let publicToken = try #require(try h.server.completeLink(linkToken: linkToken))
        let file = h.dir + "/public-token.txt"
        try Data((publicToken + "\n").utf8).write(to: URL(fileURLWithPath: file))
        let r = try await h.run(["plaid", "link", "--public-token", file])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("Linked item"))
        #expect(!r.stdout.contains(publicToken) && !r.stderr.contains(publicToken))
        let reuse = try await h.run(["plaid", "link", "--public-token", file])
        #expect(reuse.status == 1, "a public token works once")
        let bad = try await h.run(["plaid", "link", "--public-token", h.dir + "/none.txt"])
        #expect(bad.status == 1 && bad.stderr.contains("none.txt"))
        let noEnv = try await h.run(["plaid", "sync"], env: ["PLAID_SECRET": ""])
        #expect(noEnv.status == 1 && noEnv.stderr.contains("PLAID_SECRET"), "\(noEnv.stderr)")
    }

    /// A link token the way an app's backend would get one.
    static func linkToken(_ h: PlaidHarness) async throws -> String {
        let body =
            #"{"client_name":"app","language":"en","country_codes":["US"],"user":{"client_user_id":"u1"},"products":["transactions"]}"#
        let (data, status) = try await LoopbackHTTP.post(
            h.server.baseURL + "/link/token/create", body: Data(body.utf8),
            headers: ["Plaid-Version": "2020-09-14", "PLAID-CLIENT-ID": "test-client-id", "PLAID-SECRET": "test-secret"])
        #expect(status == 200)
        let o = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require(o["link_token"] as? String)
    }
}
