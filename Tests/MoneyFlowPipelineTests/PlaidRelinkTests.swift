import Foundation
import MoneyFlowCore
import MoneyFlowPipeline
import MoneyFlowStore
import MoneyFlowStoreTestSupport
import MoneyFlowTestSupport
import Testing

/// Linking the same bank again in Plaid (a new item) re-delivers the same history under new
/// account ids and transaction ids. Real Plaid JSON files (`/accounts/get` with its `item`, then
/// `/transactions/sync` pages) through the real importer and pipeline: the new item's accounts
/// land on the existing store accounts and its history links to what the old item delivered.
@Suite struct PlaidRelinkTests {
    typealias Item = PlaidRelinkFixture.Item
    typealias Txn = PlaidRelinkFixture.Txn
    typealias Acct = PlaidRelinkFixture.Account
    static let checking = PlaidRelinkFixture.checking
    static let newer = PlaidRelinkFixture.newer
    static func history() -> [Txn] { PlaidRelinkFixture.history() }

    /// Writes the files into a fresh folder and imports them in order; the store and results.
    func importInOrder(_ kind: StoreKind, _ files: [(String, String)], into store: LedgerStore? = nil, account: String? = nil) throws -> (
        LedgerStore, [FileImportResult]
    ) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("plaid-relink-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let store = try store ?? freshReconcileStore(kind)
        let service = ImportService(store: store)
        var results: [FileImportResult] = []
        for (name, text) in files {
            let path = dir.appendingPathComponent(name).path
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            var options = FileImportOptions()
            options.accountName = account
            results.append(try service.importFile(path: path, options: options))
        }
        return (store, results)
    }

    func itemFiles(_ item: Item, history: [Txn], newer: [Txn] = []) -> [(String, String)] {
        item.files(history: history, newer: newer)
    }

    func ledgerJSON(_ store: LedgerStore) throws -> String {
        Contracts.transactions(try store.transactions(includeAll: true)).render()
    }

    /// What each real transaction looks like in the ledger: account, date, amount, text.
    func realKeys(_ store: LedgerStore) throws -> [String] {
        try store.transactions(includeAll: true).filter { $0.status == "active" }.map {
            "\($0.account)|\($0.date.iso)|\($0.amount.minorUnits)|\($0.description)"
        }.sorted()
    }

    @Test(arguments: StoreKind.testable) func relinkedBankAddsNoAccountAndNoTransaction(_ kind: StoreKind) throws {
        let a = Item(tag: "A"), b = Item(tag: "B")
        let history = Self.history()
        let (store, first) = try importInOrder(kind, itemFiles(a, history: history))
        let accountsBefore = try store.accounts()
        let keysBefore = try realKeys(store)
        #expect(accountsBefore.count == 2)
        #expect(keysBefore.count == history.count, "the old item's history, each transaction once (2 coffees stay 2)")
        #expect(first.allSatisfy { $0.plan.statement.warnings.isEmpty })

        let (_, second) = try importInOrder(kind, itemFiles(b, history: history, newer: Self.newer), into: store)
        // (a) Accounts: none added; each new account id lands on its store account, and says so.
        let accountsAfter = try store.accounts()
        #expect(accountsAfter.map(\.id) == accountsBefore.map(\.id), "re-linking created accounts: \(accountsAfter.map(\.name))")
        let landed = second[0].plan.statement.warnings.map(\.message)
        #expect(landed.count == 2)
        #expect(landed.contains { $0.contains("plaid:Bacctchk") && $0.contains("lands on existing account \"Plaid Checking 0000\"") })
        #expect(landed.contains { $0.contains("plaid:Bacctcc") && $0.contains("lands on existing account \"Plaid Credit Card 3333\"") })
        #expect(second[0].plan.accounts.map(\.accountID) == accountsBefore.map(\.id))
        // (b) History: every re-delivered transaction links, only the 3 newer ones are new.
        let page1 = second[1].plan.counts, page2 = second[2].plan.counts
        #expect(page1.linked == history.count && page1.new == 0 && page1.needsReview == 0, "\(page1)")
        #expect(page2.new == 3 && page2.linked == 0 && page2.relinked == 0, "\(page2)")
        let txs = try store.transactions(includeAll: true).filter { $0.status == "active" }
        #expect(txs.count == history.count + 3)
        #expect(
            try realKeys(store)
                == (keysBefore
                + txs.filter { $0.date.iso >= "2024-04-01" }.map {
                    "\($0.account)|\($0.date.iso)|\($0.amount.minorUnits)|\($0.description)"
                }).sorted())
        for t in txs where t.date.iso < "2024-04-01" {
            let ids = t.sources.compactMap(\.externalID).sorted()
            #expect(ids.count == 2 && ids[0].hasPrefix("Atx") && ids[1].hasPrefix("Btx"), "transaction \(t.id): \(ids)")
        }
        // The two coffees: two transactions, each with one record of each item.
        let coffees = txs.filter { $0.date.iso == "2024-03-12" && $0.amount.minorUnits == -575 }
        #expect(coffees.count == 2)
        // Replaying every file again (an archive imported twice) adds nothing.
        let before = try ledgerJSON(store)
        let (_, again) = try importInOrder(
            kind, itemFiles(a, history: history) + itemFiles(b, history: history, newer: Self.newer), into: store)
        #expect(again.allSatisfy { $0.plan.counts.new == 0 && $0.plan.counts.linked == 0 })
        #expect(try ledgerJSON(store) == before)
    }

    /// A heavy user's two years (1,255 transactions, fixed prices, identical same-day rows
    /// with their own authorized dates) arrive in pages of 100; the bank is linked again and the
    /// new item re-delivers the same history in another order (Plaid's pages do not follow the
    /// old item's). Identical rows are interchangeable: k of them from the old item and k from
    /// the new one pair by count, so every page links every row: nothing new, nothing waiting
    /// for review (a provisional extra transaction meanwhile), no earlier decision moved.
    @Test(arguments: StoreKind.testable) func relinkPairsIdenticalSameDayRowsByCount(_ kind: StoreKind) throws {
        var history = PlaidRelinkFixture.longHistory(count: 1255, seed: 1256)
        // The second of two identical rows was swiped on its posting day.
        for i in history.indices.dropFirst() where history[i].date == history[i - 1].date && history[i].name == history[i - 1].name {
            history[i].authorizedDate = history[i].date
        }
        var redelivered = history
        var rng = SplitMix64(seed: 7)
        rng.shuffle(&redelivered)
        func pages(_ item: Item, _ txns: [Txn]) -> [(String, String)] {
            var out = [("\(item.tag)-accounts.json", item.accountsGet())]
            for (k, start) in stride(from: 0, to: txns.count, by: 100).enumerated() {
                let chunk = Array(txns[start..<min(txns.count, start + 100)])
                out.append(("\(item.tag)-sync\(k + 1).json", item.syncPage(chunk, first: start, cursor: "\(item.tag)c\(k + 1)")))
            }
            return out
        }
        let (store, _) = try importInOrder(kind, pages(Item(tag: "A"), history))
        let before = try realKeys(store)
        #expect(before.count == history.count)
        let (_, results) = try importInOrder(kind, pages(Item(tag: "B"), redelivered), into: store)
        #expect(try realKeys(store) == before, "re-linking changed the ledger")
        for (k, c) in results.dropFirst().map(\.plan.counts).enumerated() {
            let rows = min(100, history.count - 100 * k)
            #expect(c.linked == rows && c.new == 0 && c.needsReview == 0 && c.relinked == 0, "page \(k + 1): \(c)")
        }
    }

    /// The same files replayed into a fresh store in order (an archive) give the same ledger.
    @Test(arguments: StoreKind.testable) func replayIntoAFreshStoreGivesTheSameLedger(_ kind: StoreKind) throws {
        let a = Item(tag: "A"), b = Item(tag: "B")
        let files = itemFiles(a, history: Self.history()) + itemFiles(b, history: Self.history(), newer: Self.newer)
        let (one, _) = try importInOrder(kind, files)
        let (two, _) = try importInOrder(kind, files)
        #expect(try ledgerJSON(one) == ledgerJSON(two))
        #expect(try one.accounts().count == 2)
        #expect(try one.transactions(includeAll: true).count == Self.history().count + 3)
        // The new item's files first, then the old one's: the same transactions.
        let (three, _) = try importInOrder(
            kind, itemFiles(b, history: Self.history(), newer: Self.newer) + itemFiles(a, history: Self.history()))
        #expect(try three.accounts().count == 2)
        #expect(try realKeys(three) == realKeys(one))
    }

    /// Two records of one Plaid account never link to each other: an item's second page with
    /// the same coffee again is a third coffee.
    @Test(arguments: StoreKind.testable) func sameAccountRecordsNeverLink(_ kind: StoreKind) throws {
        let a = Item(tag: "A")
        let coffee = PlaidRelinkFixture.coffee
        let (store, results) = try importInOrder(
            kind,
            [
                ("a-accounts.json", a.accountsGet()), ("a1.json", a.syncPage([coffee, coffee], first: 0, cursor: "c1")),
                ("a2.json", a.syncPage([coffee], first: 10, cursor: "c2")),
            ])
        #expect(results[2].plan.counts.new == 1 && results[2].plan.counts.linked == 0)
        #expect(try store.transactions(includeAll: true).count == 3)
    }

    /// Two accounts of one item merged into one store account (`--account`): the card's
    /// purchase never links to the checking account's equal one (same day, amount and text).
    @Test(arguments: StoreKind.testable) func accountsOfOneItemNeverLinkEachOther(_ kind: StoreKind) throws {
        let a = Item(tag: "A")
        let coffee = PlaidRelinkFixture.coffee
        var onCard = coffee
        onCard.account = 1
        let (store, results) = try importInOrder(
            kind,
            [("a1.json", a.syncPage([coffee], first: 0, cursor: "c1")), ("a2.json", a.syncPage([onCard], first: 10, cursor: "c2"))],
            account: "Joint")
        #expect(results[1].plan.counts.new == 1 && results[1].plan.counts.linked == 0, "\(results[1].plan.counts)")
        #expect(try store.transactions(includeAll: true).count == 2)
    }

    /// Another bank's account with the same mask and type is another account.
    @Test(arguments: StoreKind.testable) func otherInstitutionWithTheSameMaskDoesNotLand(_ kind: StoreKind) throws {
        let a = Item(tag: "A")
        var b = Item(tag: "B")
        b.institutionID = "ins_999999"
        b.institutionName = "Second Wombat Credit Union"
        let (store, results) = try importInOrder(kind, itemFiles(a, history: Self.history()) + itemFiles(b, history: Self.history()))
        #expect(try store.accounts().count == 4)
        #expect(results[2].plan.statement.warnings.isEmpty)
        #expect(results[2].plan.accounts.allSatisfy { $0.accountID == nil })
        #expect(results[3].plan.counts.new == Self.history().count)
    }

    /// Without a known institution (sync pages saved without the item: only the "Plaid"
    /// fallback) nothing tells banks apart: a new account.
    @Test(arguments: StoreKind.testable) func unknownInstitutionDoesNotLand(_ kind: StoreKind) throws {
        let a = Item(tag: "A"), b = Item(tag: "B")
        let (store, _) = try importInOrder(
            kind,
            itemFiles(a, history: Self.history()) + [("b1.json", b.syncPage(Self.newer, first: 0, cursor: "c"))])
        #expect(try store.accounts().count == 4)
    }

    /// Two store accounts the new account could be: not guessed, a warning names both.
    @Test(arguments: StoreKind.testable) func ambiguousStoreAccountsWarnAndCreate(_ kind: StoreKind) throws {
        var a = Item(tag: "A")
        a.accounts = [Self.checking, Acct(suffix: "chk2", name: "Plaid Saving", mask: "0000", type: "depository", subtype: "checking")]
        let b = Item(tag: "B")
        let (store, results) = try importInOrder(kind, [("a.json", a.accountsGet()), ("b.json", b.accountsGet())])
        #expect(try store.accounts().count == 4, "b's checking and card are new accounts")
        let w = results[1].plan.statement.warnings.map(\.message)
        #expect(w.count == 1)
        #expect(w.first?.contains("\"Plaid Checking 0000\", \"Plaid Saving 0000\"") == true, "\(w)")
        #expect(w.first?.contains("ambiguous") == true && w.first?.contains("moneyflow accounts link ACCOUNT plaid:Bacctchk") == true)
        #expect(results[1].plan.accounts[0].accountID == nil && results[1].plan.accounts[0].name == "Plaid Checking 0000 (2)")
    }

    /// Two accounts of the new item claiming one store account: not guessed either.
    @Test(arguments: StoreKind.testable) func twoIncomingAccountsClaimingOneWarnAndCreate(_ kind: StoreKind) throws {
        let a = Item(tag: "A")
        var b = Item(tag: "B")
        b.accounts = [Self.checking, Acct(suffix: "chk2", name: "Plaid Checking", mask: "0000", type: "depository", subtype: "checking")]
        let (store, results) = try importInOrder(kind, [("a.json", a.accountsGet()), ("b.json", b.accountsGet())])
        #expect(try store.accounts().count == 4)
        let w = results[1].plan.statement.warnings.map(\.message)
        #expect(w.count == 2 && w.allSatisfy { $0.contains("plaid:Bacctchk, plaid:Bacctchk2") && $0.contains("ambiguous") }, "\(w)")
    }

    /// The old item reported a transaction as pending; the new item reports it pending again
    /// (it links), then posted (the posted record replaces the new item's pending one): one
    /// transaction, posted.
    @Test(arguments: StoreKind.testable) func pendingReportedByBothItemsThenPosted(_ kind: StoreKind) throws {
        let a = Item(tag: "A"), b = Item(tag: "B")
        let history = Self.history()
        var hold = Txn(account: 0, date: "2024-03-29", amount: "42.10", name: "SHELL OIL 5744", merchant: "Shell", pending: true)
        var files = itemFiles(a, history: history + [hold])
        files.append(("B-accounts.json", b.accountsGet()))
        files.append(("B-sync1.json", b.syncPage(history + [hold], first: 0, cursor: "Bc1")))
        hold.pending = false
        hold.date = "2024-03-31"
        hold.replaces = history.count
        files.append(("B-sync2.json", b.syncPage([hold], first: 1000, cursor: "Bc2")))
        let (store, results) = try importInOrder(kind, files)
        #expect(results[3].plan.counts.linked == history.count + 1 && results[3].plan.counts.new == 0, "\(results[3].plan.counts)")
        #expect(results[4].plan.counts.linked == 1 && results[4].plan.counts.new == 0, "\(results[4].plan.counts)")
        let txs = try store.transactions(includeAll: true).filter { $0.status == "active" }
        #expect(txs.count == history.count + 1)
        let t = try #require(txs.first { $0.amount.minorUnits == -4210 })
        #expect(!t.pending && t.date.iso == "2024-03-31")
        let states = t.sources.map { "\($0.externalID ?? ""):\($0.state)" }.sorted()
        #expect(states == ["Atx\(history.count):active", "Btx1000:active", "Btx\(history.count):superseded"], "\(states)")
    }
}
