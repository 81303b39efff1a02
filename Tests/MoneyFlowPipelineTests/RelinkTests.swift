import Foundation
import MoneyFlowCore
import MoneyFlowPipeline
import MoneyFlowStore
import MoneyFlowStoreTestSupport
import Testing

/// A later overlapping file re-plans the engine decisions an earlier file made near its rows:
/// the moves are planned (and shown by a dry run), applied in the import's transaction, undone
/// with the import, and never touch a record a user decided.
@Suite struct RelinkTests {
    /// Plaid feed, then one of two overlapping statements (days 0-6 and 3-9; the parity of
    /// `run` picks which comes first, `run / 2` the scenario seed); the store as it stands, and the other statement.
    func afterFirst(_ kind: StoreKind, _ run: Int) throws -> (store: LedgerStore, service: ImportService, b: ImportedStatement) {
        let s = smallScenario(run / 2)
        let store = try freshReconcileStore(kind)
        let service = ImportService(store: store)
        let (first, second) = run % 2 == 0 ? (0...6, 3...9) : (3...9, 0...6)
        for (name, st) in plaidFiles(s) + [statementFile(s, s.statement(days: first), prefix: "first-")] {
            try importFile(service, st, name: name)
        }
        return (store, service, s.statement(days: second))
    }

    func ledgerJSON(_ store: LedgerStore) throws -> String {
        Contracts.transactions(try store.transactions(includeAll: true), includeState: true).render()
    }

    @Test(arguments: StoreKind.testable) func relinksArePlannedAppliedAndUndone(_ kind: StoreKind) throws {
        var moved = 0
        for seed in 2...81 {
            let (store, service, b) = try afterFirst(kind, seed)
            let before = try ledgerJSON(store)
            var dry = FileImportOptions()
            dry.dryRun = true
            let planned = try service.apply(b, fileName: "b.csv", sha256: "sha-b", options: dry)
            #expect(try ledgerJSON(store) == before, "seed \(seed): a dry run wrote")
            let applied = try service.apply(b, fileName: "b.csv", sha256: "sha-b", options: FileImportOptions())
            #expect(applied.plan.relinks == planned.plan.relinks, "seed \(seed): the dry run showed other relinks than were applied")
            #expect(applied.plan.counts.relinked == applied.plan.relinks.count)
            let txs = try store.transactions(includeAll: true)
            let home = Dictionary(uniqueKeysWithValues: txs.filter { $0.status == "active" }.flatMap { t in t.sources.map { ($0.id, t) } })
            for x in applied.plan.relinks {
                moved += 1
                let t = try #require(home[x.recordID], "seed \(seed): relinked record \(x.recordID) is in no live transaction")
                switch x.decision {
                case .link(let target, _, _, _):
                    #expect(t.id == target, "seed \(seed): record \(x.recordID) should have moved to \(target)")
                    #expect(t.sources.count > 1)
                case .new, .needsReview:
                    #expect(t.sources.map(\.id) == [x.recordID], "seed \(seed): record \(x.recordID) should stand alone")
                    #expect(t.needsReview == (x.decision.label == "needs review"))
                default:
                    Issue.record("seed \(seed): unexpected relink decision \(x.decision.label)")
                }
                #expect(t.id != x.fromTransactionID || x.from == .linked)
            }
            // Undoing B puts every moved record back: the ledger is byte for byte what A left.
            _ = try store.undo(batchID: try #require(applied.batchID))
            #expect(try ledgerJSON(store) == before, "seed \(seed): undo did not restore the ledger")
        }
        print("[relink] 80 imports of a second overlapping statement moved \(moved) earlier records")
        // The scenario seeds are built with ambiguous clusters, so some seeds must move records.
        #expect(moved > 0, "no seed exercised a relink")
    }

    /// Every seed makes user decisions before the second statement arrives: the records the
    /// engine would move are pinned where they stand (few seeds plan a move), and in every seed the
    /// user splits one engine link the second statement re-covers (its days overlap the first).
    /// Neither kind of decision may be reopened.
    @Test(arguments: StoreKind.testable) func userDecisionsAreNeverReopened(_ kind: StoreKind) throws {
        var pinned = 0, split = 0
        for seed in 2...81 {
            let (store, service, b) = try afterFirst(kind, seed)
            var dry = FileImportOptions()
            dry.dryRun = true
            let planned = try service.apply(b, fileName: "b.csv", sha256: "sha-b", options: dry).plan.relinks
            // The user confirms where each of these records stands now.
            for x in planned { try store.userLink(recordID: x.recordID, transactionID: x.fromTransactionID); pinned += 1 }
            // The user says one linked statement row in the overlap is not the Plaid record it was linked to.
            let overlap = Set(b.records.map(\.date))
            let linked = try store.transactions().filter { t in
                t.sources.count > 1 && t.sources.contains { $0.kind != .plaid && overlap.contains($0.date) }
                    && !t.sources.contains { s in planned.contains { $0.recordID == s.id } }
            }
            let target = try #require(linked.first, "seed \(seed): no engine link in the overlap to split")
            let row = try #require(target.sources.first { $0.kind != .plaid && overlap.contains($0.date) })
            let partners = Set(target.sources.map(\.id)).subtracting([row.id])
            _ = try store.userUnlink(recordID: row.id)
            split += 1

            let applied = try service.apply(b, fileName: "b.csv", sha256: "sha-b", options: FileImportOptions())
            let touched = Set(planned.map(\.recordID)).union([row.id]).union(partners)
            #expect(!applied.plan.relinks.contains { touched.contains($0.recordID) }, "seed \(seed): a user decision was reopened")
            let txs = try store.transactions()
            for x in planned {
                #expect(
                    txs.contains { $0.id == x.fromTransactionID && $0.sources.contains { $0.id == x.recordID } },
                    "seed \(seed): record \(x.recordID) left the transaction the user chose")
            }
            let home = try #require(txs.first { $0.sources.contains { $0.id == row.id } }, "seed \(seed): split row lost")
            #expect(
                partners.isDisjoint(with: home.sources.map(\.id)), "seed \(seed): the row the user split off was linked back to \(partners)"
            )
        }
        print("[relink] user decisions before a second statement: \(pinned) pinned records, \(split) split links (80 seeds)")
        #expect(pinned > 0, "no seed exercised a relink")
        #expect(split == 80)
    }

    /// A statement row linked to the only Plaid record it could match; a later file brings a
    /// row of the same merchant and amount dated exactly on the Plaid date. With both rows in
    /// view the pairing is a near tie, which one combined file would not guess: the earlier
    /// link is taken back, and the ledger is the one the combined file gives.
    @Test(arguments: StoreKind.testable) func aCloserRowTakesBackAnEarlierGuess(_ kind: StoreKind) throws {
        let day = LocalDate(year: 2025, month: 4, day: 7)!
        let facts = AccountFacts(key: "acct", suggestedName: "Checking 1234", currencies: ["USD"])
        func row(_ d: Int, line: Int) -> IncomingRecord {
            IncomingRecord(
                accountKey: "acct", sourceKind: .csv, date: day.adding(days: d), amount: Money(minorUnits: -450, currency: "USD"),
                description: "BLUE BOTTLE COFFEE SAN FRANCISCO CA", locator: Locator(line: line))
        }
        let plaid = ImportedStatement(
            importerID: "plaid", accounts: [facts],
            records: [
                IncomingRecord(
                    accountKey: "acct", sourceKind: .plaid, date: day, amount: Money(minorUnits: -450, currency: "USD"),
                    description: "Blue Bottle Coffee", counterparty: "Blue Bottle Coffee", externalID: "p-1", locator: Locator(row: 1))
            ])
        let a = ImportedStatement(importerID: "csv", accounts: [facts], records: [row(1, line: 2)])
        let b = ImportedStatement(importerID: "csv", accounts: [facts], records: [row(0, line: 3)])
        let ab = ImportedStatement(importerID: "csv", accounts: [facts], records: [row(1, line: 2), row(0, line: 3)])
        let together = try ledger(kind, [("plaid.json", plaid), ("ab.csv", ab)])
        let store = try freshReconcileStore(kind)
        let service = ImportService(store: store)
        try importFile(service, plaid, name: "plaid.json")
        try importFile(service, a, name: "a.csv")
        #expect(try store.transactions().count == 1, "the first row links the Plaid record")
        let afterA = try ledgerJSON(store)
        let r = try service.apply(b, fileName: "b.csv", sha256: "sha-b", options: FileImportOptions())
        #expect(r.plan.relinks.count == 1)
        #expect(r.plan.relinks.first?.from == .linked)
        let key: ([LedgerTransaction]) -> [String] = { canonical($0) }
        let now = try store.transactions()
        #expect(key(now) == key(together.transactions), "\(key(now))\n\(key(together.transactions))\n\(r.plan.relinks)\n\(r.plan.entries)")
        #expect(now.count == 3 - together.transactions.filter { $0.sources.count == 2 }.count)
        _ = try store.undo(batchID: try #require(r.batchID))
        #expect(try ledgerJSON(store) == afterA, "undo puts the first row back on the Plaid record")
    }
}
