import Foundation
import MoneyFlowTestSupport
import PlaidTestServer
import Testing

/// `moneyflow plaid link` then `plaid sync`, through the real binary, against the Plaid-shaped
/// server on loopback while the server's data moves on.
@Suite("plaid link and sync against the Plaid-shaped server", .serialized)
struct PlaidSyncEndToEndTests {
    static let second = TestInstitution(
        id: "ins_200001", name: "Second Savings Bank",
        accounts: [
            TestAccount(
                key: "checking", name: "Everyday Checking", mask: "4444", type: "depository", subtype: "checking", current: "310.00")
        ])

    @Test(
        "two items: link, sync, then new / modified / removed / pending->posted, a mutation while paging, a rate limit and an item needing login"
    )
    func linkSyncAndAdvance() async throws {
        let h = try await PlaidHarness.start()
        defer { Task { await h.stop() } }
        let bank = "ins_109508"
        try h.server.addInstitution(Self.second)
        for k in 0..<12 {
            try h.server.addTransaction(
                institution: Self.second.id,
                TestTransaction(
                    account: "checking", date: h.server.today.adding(days: -3 * k - 1).iso, amount: "\(10 + k).25", name: "GROCER \(k)"))
        }
        let first = try await h.linkSandbox(bank)
        let second = try await h.linkSandbox(Self.second.id)
        let accounts = try await h.run(["accounts", "--format", "json"])
        let names = ((try JSONSerialization.jsonObject(with: Data(accounts.stdout.utf8)) as? [[String: Any]]) ?? []).compactMap {
            $0["name"] as? String
        }
        #expect(names.count == 4, "\(names)")

        // First sync: the whole history of both items.
        let (r1, s1) = try await h.sync()
        #expect(r1.status == 0, "\(r1.stderr)")
        #expect(s1[first]?["outcome"] as? String == "synced" && s1[second]?["outcome"] as? String == "synced")
        try await h.expectLedgerEqualsTruth(items: [first, second])

        // The bank moves on.
        let today = h.server.today
        let ids = try h.server.bankTransactionIDs(institution: bank, pending: false)
        let pending = try h.server.bankTransactionIDs(institution: bank, pending: true)
        try h.server.modifyTransaction(institution: bank, bankID: ids[5], name: "Renamed merchant", amount: "77.70")
        try h.server.removeTransaction(institution: bank, bankID: ids[6])
        try h.server.post(institution: bank, pendingBankID: pending[0], amount: "14.90", date: today.iso) // with a tip
        try h.server.post(institution: bank, pendingBankID: pending[1], date: today.iso)
        // Over 500 changes, so the update has two pages; Plaid's data changes after page 1.
        for k in 0..<520 {
            try h.server.addTransaction(
                institution: bank,
                TestTransaction(
                    account: k % 2 == 0 ? "checking" : "credit", date: today.adding(days: -(k % 60)).iso,
                    amount: "\(k % 90 + 1).\(k % 10)9", name: "SHOP \(k)"))
        }
        h.server.mutateDuringNextPagination(itemID: first) { server in
            try server.addTransaction(
                institution: bank, TestTransaction(account: "checking", date: today.iso, amount: "3.33", name: "ARRIVED WHILE PAGING"))
        }
        h.server.failNext(path: "/transactions/sync", itemID: first, times: 2, kind: .rateLimit)
        try h.server.setItemError(itemID: second, code: "ITEM_LOGIN_REQUIRED")
        let secondBefore = try h.server.truth(itemID: second)
        let requestsBefore = h.server.requests().count

        let (r2, s2) = try await h.sync()
        #expect(r2.status == 1, "one item failed, so sync exits 1")
        #expect(s2[first]?["outcome"] as? String == "synced")
        #expect(s2[first]?["restarts"] as? Int == 1, "the mutation during pagination restarted the update once")
        // The item's pages: two rate-limited tries, page 1, page 2 refused (the mutation), then
        // the update again from its own first cursor (where the first sync left the item, not
        // the start of history) in two pages.
        let token = try #require(h.server.items().first { $0.itemID == first }?.accessToken)
        let pages = h.server.requests().dropFirst(requestsBefore).filter {
            $0.path == "/transactions/sync" && $0.json?["access_token"]?.stringValue == token
        }
        #expect(pages.map(\.status) == [429, 429, 200, 400, 200, 200])
        let cursors = pages.map { $0.json?["cursor"]?.stringValue ?? "" }
        let updateStart = try #require(cursors.first)
        #expect(!updateStart.isEmpty, "the second sync starts from the cursor the first one saved")
        #expect(cursors.count == 6 && cursors[4] == updateStart && cursors[3] != updateStart, "cursors sent: \(cursors)")
        #expect(s2[second]?["outcome"] as? String == "failed")
        #expect((s2[second]?["error"] as? [String: Any])?["code"] as? String == "ITEM_LOGIN_REQUIRED")
        #expect(r2.stderr.contains("TRANSACTIONS_SYNC_LIMIT"), "the rate limit was retried: \(r2.stderr)")
        #expect(try h.server.truth(itemID: second) == secondBefore)
        try await h.expectLedgerEqualsTruth(items: [first, second])
        let items = try await h.run(["plaid", "items", "--format", "json"])
        let rows = ((try JSONSerialization.jsonObject(with: Data(items.stdout.utf8)) as? [String: Any])?["items"] as? [[String: Any]]) ?? []
        #expect(rows.first { $0["item_id"] as? String == second }?["status"] as? String == "needs_user")
        #expect(rows.first { $0["item_id"] as? String == first }?["status"] as? String == "active")
        #expect(rows.first { $0["item_id"] as? String == first }?["plaid_last_successful_update"] is String)

        // Re-running adds nothing.
        let before = try await h.transactions().text
        let (r3, s3) = try await h.sync(["--item", first])
        #expect(r3.status == 0 && s3[first]?["outcome"] as? String == "up_to_date", "\(r3.stdout)")
        #expect(try await h.transactions().text == before)

        // The user logs in again; the item catches up and everything equals the truth.
        try h.server.setItemError(itemID: second, code: nil)
        try h.server.addTransaction(
            institution: Self.second.id, TestTransaction(account: "checking", date: today.iso, amount: "9.99", name: "AFTER LOGIN"))
        let (r4, _) = try await h.sync()
        #expect(r4.status == 0, "\(r4.stderr)")
        try await h.expectLedgerEqualsTruth(items: [first, second])
        let settled = try await h.transactions().text
        let (r5, s5) = try await h.sync()
        #expect(r5.status == 0 && s5.values.allSatisfy { $0["outcome"] as? String == "up_to_date" })
        #expect(try await h.transactions().text == settled)

        // The archive rebuilds the same ledger in a fresh store.
        let fresh = h.dir + "/fresh.sqlite"
        let replay = try await h.run(["import", h.archive, "--quiet"], store: fresh)
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(try await h.transactions(store: fresh).text == settled)

        // What the client sent: the API version on every request, credentials only in headers,
        // pages of 500.
        let requests = h.server.requests()
        #expect(requests.allSatisfy { $0.headers.first { $0.key.lowercased() == "plaid-version" }?.value == "2020-09-14" })
        #expect(requests.allSatisfy { String(decoding: $0.body, as: UTF8.self).range(of: "test-secret") == nil })
        let syncBodies = requests.filter { $0.path == "/transactions/sync" }.compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.body)) as? [String: Any]
        }
        #expect(!syncBodies.isEmpty && syncBodies.allSatisfy { $0["count"] as? Int == 500 })
        h.expectNoTokenLeaked()
    }

    @Test("a day with no transaction changes still brings the new balances; a day with nothing new is up to date")
    func balancesOnlyUpdate() async throws {
        let h = try await PlaidHarness.start()
        defer { Task { await h.stop() } }
        let item = try await h.linkSandbox()
        #expect(try await h.sync().run.status == 0)
        #expect(try await h.sync().items[item]?["outcome"] as? String == "up_to_date")
        try h.server.setBalance(institution: DefaultInstitution.id, account: "checking", current: "4321.09", available: "4000.00")
        let (r, s) = try await h.sync()
        #expect(r.status == 0 && s[item]?["outcome"] as? String == "synced", "\(r.stdout)")
        let accounts = try await h.run(["accounts", "--format", "json"])
        let list = (try JSONSerialization.jsonObject(with: Data(accounts.stdout.utf8)) as? [[String: Any]]) ?? []
        let checking = list.first { ($0["name"] as? String)?.contains("0000") == true }
        #expect(
            checking?["current_balance"] as? String == "4321.09" && checking?["available_balance"] as? String == "4000.00",
            "\(accounts.stdout)")
        #expect(try await h.sync().items[item]?["outcome"] as? String == "up_to_date")
    }

    @Test("right after linking Plaid is NOT_READY: sync waits briefly, reports it, exits 0, and a later sync brings the history")
    func notReady() async throws {
        let h = try await PlaidHarness.start()
        defer { Task { await h.stop() } }
        let item = try await h.linkSandbox()
        try h.server.notReady(itemID: item, forRequests: 50)
        let (r1, s1) = try await h.sync()
        #expect(r1.status == 0, "\(r1.stderr)")
        #expect(s1[item]?["outcome"] as? String == "not_ready")
        #expect(try await h.transactions().list.isEmpty)
        try h.server.notReady(itemID: item, forRequests: 0)
        let (r2, s2) = try await h.sync()
        #expect(r2.status == 0 && s2[item]?["outcome"] as? String == "synced", "\(r2.stderr)")
        try await h.expectLedgerEqualsTruth(items: [item])
    }

    @Test(
        "a SIGKILL while a sync waits for a page, and at timed moments through a big update: the next sync gives the server's ledger, once")
    func killDuringSync() async throws {
        let h = try await PlaidHarness.start()
        defer { Task { await h.stop() } }
        let bank = "ins_109508"
        let item = try await h.linkSandbox()
        for k in 0..<1800 {
            try h.server.addTransaction(
                institution: bank,
                TestTransaction(
                    account: ["checking", "savings", "credit"][k % 3], date: h.server.today.adding(days: -(k % 400) - 1).iso,
                    amount: "\(k % 300 + 1).\(k % 100 < 10 ? "0" : "")\(k % 100)", name: "STORE \(k % 97)"))
        }
        // Deterministic: killed while the first page is being answered.
        let sync = ["plaid", "sync"]
        let hold = h.server.holdNext(path: "/transactions/sync", itemID: item)
        let child = try h.spawn(sync)
        await hold.waitUntilHeld()
        kill(child.pid, SIGKILL)
        hold.release()
        let killed = try await PlaidHarness.wait(child, record: h)
        #expect(killed.signal == SIGKILL)
        #expect(try await h.transactions().list.isEmpty, "nothing of an unfinished update is applied")
        // The held page was answered once released (nobody read it).
        let answered = { h.server.requests().filter { $0.path == "/transactions/sync" && $0.status == 200 }.count }
        for _ in 0..<1200 where answered() == 0 { try await Task.sleep(for: .milliseconds(50)) }
        #expect(answered() == 1)
        // Timed kills, each a growing delay after the server answered the run its first page, so
        // they land while paging, while planning, while writing; most must strike a run that is
        // still going, after a page was answered (the rest find a small update already done).
        var delay = 0, midUpdate = 0
        for _ in 0..<8 {
            let before = answered()
            let c = try h.spawn(sync)
            try ChildWait.until(pid: c.pid, what: "plaid sync's first page", timeout: .seconds(120)) { answered() > before || c.hasExited }
            try await Task.sleep(for: .milliseconds(delay))
            let pagesBeforeKill = answered() - before
            kill(c.pid, SIGKILL)
            let r = try await PlaidHarness.wait(c, record: h)
            if r.signal == SIGKILL && pagesBeforeKill >= 1 { midUpdate += 1 }
            delay += 60
            try h.server.addTransaction(
                institution: bank,
                TestTransaction(account: "checking", date: h.server.today.iso, amount: "1.\(delay % 100)", name: "KILL \(delay)"))
        }
        #expect(midUpdate >= 6, "only \(midUpdate) of 8 timed kills struck a sync after a page was answered")
        print("plaid sync kills: \(midUpdate) of 8 timed kills struck a sync after a page was answered")
        let (r, s) = try await h.sync()
        #expect(r.status == 0, "\(r.stderr)")
        #expect(["synced", "up_to_date"].contains(s[item]?["outcome"] as? String))
        try await h.expectLedgerEqualsTruth(items: [item])
        let ledger = try await h.transactions().text
        #expect(try await h.sync().items[item]?["outcome"] as? String == "up_to_date")
        let leftovers = (try? FileManager.default.contentsOfDirectory(atPath: h.archive))?.filter { $0.hasSuffix(".partial") } ?? []
        #expect(leftovers.isEmpty, "\(leftovers)")
        let fresh = h.dir + "/fresh.sqlite"
        #expect(try await h.run(["import", h.archive, "--quiet"], store: fresh).status == 0)
        #expect(try await h.transactions(store: fresh).text == ledger)
        h.expectNoTokenLeaked()
    }
}
