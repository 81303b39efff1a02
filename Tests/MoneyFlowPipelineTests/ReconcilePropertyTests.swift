import Foundation
import MoneyFlowCore
import MoneyFlowPipeline
import MoneyFlowStore
import MoneyFlowStoreTestSupport
import MoneyFlowTestSupport
import Testing

/// Small seeded ledgers (20 real transactions over 10 days) with the same ingredients as the
/// full scenario: identical twins, same amount at different merchants on adjacent days, refunds,
/// pending->posted, tips, holds, records missing on either side. Kept small because the engine
/// costs about 3 ms per record in a debug build and every property builds several ledgers.
func smallScenario(_ seed: Int, postedOnly: Bool = false) -> Scenario {
    ScenarioGenerator.make(
        ScenarioConfig(
            seed: UInt64(seed) &* 7919, flavor: seed % 2 == 0 ? .us : .cmb,
            count: 20, days: 10, twinGroups: 1, sameAmountPairs: 1, refunds: 1, holds: 1,
            trickyHolds: postedOnly ? 0 : 1, missingRate: 0.05, plaidPostedOnly: postedOnly, pageDays: 4))
}

/// A ledger built by importing files in order into a fresh store, with the decisions taken.
struct BuiltLedger {
    var store: LedgerStore
    var log: DecisionLog
    var transactions: [LedgerTransaction]
}

func ledger(_ kind: StoreKind, _ files: [(String, ImportedStatement)]) throws -> BuiltLedger {
    let store = try freshReconcileStore(kind)
    let service = ImportService(store: store)
    var log = DecisionLog()
    for (name, st) in files { try importFile(service, st, name: name, log: &log) }
    return BuiltLedger(store: store, log: log, transactions: try store.transactions())
}

func plaidFiles(_ s: Scenario) -> [(String, ImportedStatement)] {
    s.plaidPages.enumerated().map { ("plaid-page-\($0.offset + 1).json", $0.element) }
}

/// The scenario's statement rows and Plaid pages (named as ``plaidFiles(_:)`` names them),
/// shuffled with `rng` in a fixed order: the rows, then each page's records and, with
/// `removals`, its removals (so a seed always gives the same files).
func shuffled(_ s: Scenario, _ rng: inout SplitMix64, removals: Bool) -> ([IncomingRecord], [(String, ImportedStatement)]) {
    var rows = s.statementRows
    rng.shuffle(&rows)
    let pages = s.plaidPages.enumerated().map { k, page -> (String, ImportedStatement) in
        var p = page
        rng.shuffle(&p.records)
        if removals { rng.shuffle(&p.removals) }
        return ("plaid-page-\(k + 1).json", p)
    }
    return (rows, pages)
}

func statementFile(_ s: Scenario, _ st: ImportedStatement? = nil, prefix: String = "") -> (String, ImportedStatement) {
    (prefix + s.config.flavor.statementFile, st ?? s.statement())
}

/// Explains a canonical mismatch: the transactions of each ledger that the other lacks, with
/// their ground truth and decisions.
func explain(
    _ s: Scenario, _ la: String, _ a: BuiltLedger, _ lb: String, _ b: BuiltLedger,
    key: ([LedgerTransaction]) -> [String] = { canonical($0) }
) -> String {
    let ka = Dictionary(grouping: a.transactions, by: { key([$0]).first! })
    let kb = Dictionary(grouping: b.transactions, by: { key([$0]).first! })
    var out = ""
    for k in ka.keys.sorted() where (kb[k]?.count ?? 0) < ka[k]!.count {
        for t in ka[k]! { out += "only in \(la):\n" + describeTransaction(t, s, log: a.log) + "\n" }
    }
    var amounts = Set<Int64>(), shown = Set<Int64>()
    for k in kb.keys.sorted() where (ka[k]?.count ?? 0) < kb[k]!.count {
        for t in kb[k]! { out += "only in \(lb):\n" + describeTransaction(t, s, log: b.log) + "\n"; amounts.insert(t.amount.minorUnits) }
    }
    for k in ka.keys where (kb[k]?.count ?? 0) < ka[k]!.count {
        for t in ka[k]! { amounts.insert(t.amount.minorUnits); shown.insert(t.id) }
    }
    // Context: the other transactions of the same amounts (the competitors), as in ledger A.
    for t in a.transactions where amounts.contains(t.amount.minorUnits) && !shown.contains(t.id) {
        out += "same amount in both (\(la)):\n" + describeTransaction(t, s, log: a.log) + "\n"
    }
    return out
}

let propertySeeds = Array(1...25)
let heavyPropertySeeds = Array(1...10)

@Suite struct ReconcilePropertyTests {
    /// import(A) twice == import(A), and shuffling the rows inside every file changes nothing.
    ///
    /// Replays every file (all Plaid pages and the statement) as the same bytes (even seeds) or
    /// as a re-download with another SHA-256 (odd seeds): the ledger JSON, including void
    /// transactions and superseded/removed records, stays byte-identical and the replay plans
    /// nothing but "already present". Then a second ledger from the same files with their rows
    /// shuffled (records keep their own locators, as a re-sorted export would) must have the
    /// same canonical content.
    @Test(arguments: StoreKind.testable, propertySeeds)
    func reimportIsIdempotentAndRowOrderDoesNotMatter(_ kind: StoreKind, seed: Int) throws {
        let s = smallScenario(seed)
        let files = plaidFiles(s) + [statementFile(s)]
        let built = try ledger(kind, files)
        let store = built.store
        let service = ImportService(store: store)
        let once = Contracts.transactions(try store.transactions(includeAll: true), includeState: true).render()
        let sameBytes = seed % 2 == 0
        for (name, st) in files {
            let r = try service.apply(st, fileName: name, sha256: sameBytes ? "sha-\(name)" : "sha2-\(name)", options: FileImportOptions())
            let c = r.plan.counts
            #expect(
                c.new == 0 && c.linked == 0 && c.needsReview == 0 && c.updated == 0 && c.alreadyPresent == r.plan.statement.records.count,
                "seed \(seed) \(sameBytes ? "same bytes" : "re-downloaded") \(name): \(c)")
        }
        let again = Contracts.transactions(try store.transactions(includeAll: true), includeState: true).render()
        #expect(Bool(again == once), "seed \(seed): re-import changed the ledger")

        var rng = SplitMix64(scenarioSeed: UInt64(seed) &+ 99)
        let (rows, shuffledPages) = shuffled(s, &rng, removals: true)
        let shuffled = try ledger(kind, shuffledPages + [statementFile(s, s.statement(rows: rows))])
        let base = canonical(built.transactions, s), shuf = canonical(shuffled.transactions, s)
        #expect(
            Bool(shuf == base),
            "seed \(seed): shuffled rows changed the outcome\n\(diff(base, shuf))\n\(explain(s, "in order", built, "shuffled", shuffled, key: { canonical($0, s) }))"
        )
    }

    /// The same with the statement imported before the Plaid feed.
    @Test(arguments: StoreKind.testable, heavyPropertySeeds)
    func rowOrderDoesNotMatterStatementFirst(_ kind: StoreKind, seed: Int) throws {
        let s = smallScenario(seed)
        var rng = SplitMix64(scenarioSeed: UInt64(seed) &+ 7)
        let (rows, shuffledPages) = shuffled(s, &rng, removals: false)
        let a = try ledger(kind, [statementFile(s)] + plaidFiles(s))
        let b = try ledger(kind, [statementFile(s, s.statement(rows: rows))] + shuffledPages)
        let ca = canonical(a.transactions, s), cb = canonical(b.transactions, s)
        #expect(
            Bool(ca == cb),
            "seed \(seed): shuffled rows changed the outcome (statement first)\n\(diff(ca, cb))\n\(explain(s, "in order", a, "shuffled", b, key: { canonical($0, s) }))"
        )
    }

    /// import(A then B) == import(B then A) == import(A+B) for two overlapping statements of the
    /// same account (days 0-6 and 3-9, sharing the overlap rows byte for byte as re-downloaded
    /// statements do), each time on top of the same Plaid feed; and for the statements alone.
    @Test(arguments: StoreKind.testable, Array(1...60))
    func overlappingStatementsInAnyOrder(_ kind: StoreKind, seed: Int) throws {
        let s = smallScenario(seed)
        let a = statementFile(s, s.statement(days: 0...6), prefix: "a-")
        let b = statementFile(s, s.statement(days: 3...9), prefix: "b-")
        let ab = statementFile(s, prefix: "ab-")
        let feed = plaidFiles(s)
        let together = try ledger(kind, feed + [ab])
        let aThenB = try ledger(kind, feed + [a, b])
        let bThenA = try ledger(kind, feed + [b, a])
        let key: ([LedgerTransaction]) -> [String] = { canonical($0, s) }
        let ct = key(together.transactions), cab = key(aThenB.transactions), cba = key(bThenA.transactions)
        // Each later file re-plans the earlier file's engine decisions near its rows, so the
        // order of arrival does not change the outcome.
        #expect(
            Bool(cab == ct),
            "seed \(seed): A then B differs from A+B\n\(diff(ct, cab))\n\(explain(s, "A+B", together, "A then B", aThenB, key: key))")
        #expect(
            Bool(cba == ct),
            "seed \(seed): B then A differs from A+B\n\(diff(ct, cba))\n\(explain(s, "A+B", together, "B then A", bThenA, key: key))")
        // Whatever the order, no row is lost or duplicated, and no transaction ever merges two
        // rows of one source.
        for run in [aThenB, bThenA] {
            #expect(run.transactions.flatMap(\.sources).count == together.transactions.flatMap(\.sources).count)
            #expect(run.transactions.allSatisfy { t in Set(t.sources.map(\.kind)).count == t.sources.count })
        }
        // Statements alone: pure fingerprint de-duplication.
        let alone = try ledger(kind, [b, a]).transactions
        #expect(Bool(key(alone) == key(try ledger(kind, [ab]).transactions)), "seed \(seed): statements alone")
        #expect(alone.count == s.statementRows.count)
    }

    /// Plaid (all posted, one export) then statement == statement then Plaid: the same records
    /// end up together. Which side of an abstained pair carries the review flag follows the
    /// arrival order, so the flag is compared as a count and the grouping exactly.
    @Test(arguments: StoreKind.testable, heavyPropertySeeds)
    func plaidAndStatementInEitherOrder(_ kind: StoreKind, seed: Int) throws {
        let s = smallScenario(seed, postedOnly: true)
        let p = ("plaid.json", s.plaidFinalExport())
        let st = statementFile(s)
        let grouping: ([LedgerTransaction]) -> [String] = { txs in
            canonical(txs, s).map {
                $0.replacingOccurrences(of: "|review=true|", with: "|").replacingOccurrences(of: "|review=false|", with: "|")
            }.sorted()
        }
        let pFirst = try ledger(kind, [p, st]), sFirst = try ledger(kind, [st, p])
        let gp = grouping(pFirst.transactions), gs = grouping(sFirst.transactions)
        #expect(
            Bool(gp == gs),
            "seed \(seed): plaid-first vs statement-first\n\(diff(gp, gs))\n\(explain(s, "plaid first", pFirst, "statement first", sFirst, key: grouping))"
        )
        let rp = pFirst.transactions.filter(\.needsReview).count, rs = sFirst.transactions.filter(\.needsReview).count
        #expect(rp == rs, "seed \(seed): reviews \(rp) vs \(rs)")
    }

    /// Several Plaid pages concatenated into one file: a pending record and its posted version
    /// (pending_transaction_id), with or without the pending's removal, in either record order.
    /// Every variant gives one transaction holding the posted record.
    @Test(arguments: StoreKind.testable) func pendingAndPostedInOneFileInEitherOrder(_ kind: StoreKind) throws {
        let d = LocalDate(year: 2025, month: 3, day: 3)!
        let facts = AccountFacts(key: "acct", suggestedName: "Checking 1234", currencies: ["USD"])
        let pending = IncomingRecord(
            accountKey: "acct", sourceKind: .plaid, date: d, amount: Money(minorUnits: -4210, currency: "USD"),
            description: "Blue Moon Cafe", counterparty: "Blue Moon Cafe", pending: true, externalID: "pend-1",
            authorizedDate: d, locator: Locator(page: 1, row: 1))
        let posted = IncomingRecord(
            accountKey: "acct", sourceKind: .plaid, date: d.adding(days: 1), amount: Money(minorUnits: -4210, currency: "USD"),
            description: "Blue Moon Cafe", counterparty: "Blue Moon Cafe", pending: false, externalID: "post-1",
            pendingExternalID: "pend-1", authorizedDate: d, locator: Locator(page: 2, row: 1))
        var outcomes = Set<String>()
        for (k, recs) in [[pending, posted], [posted, pending]].enumerated() {
            for withRemoval in [true, false] {
                let st = ImportedStatement(
                    importerID: "plaid", accounts: [facts], records: recs,
                    removals: withRemoval ? [ExternalRemoval(externalID: "pend-1", accountKey: "acct")] : [])
                let txs = try ledger(kind, [("plaid-\(k)-\(withRemoval).json", st)]).transactions
                let label = "\(k == 0 ? "pending first" : "posted first"), \(withRemoval ? "with" : "without") removal"
                #expect(
                    txs.count == 1,
                    "\(label): \(txs.count) transactions: \(txs.map { ($0.amount.decimalString, $0.pending, $0.sources.map { $0.externalID ?? "" }) })"
                )
                #expect(txs.first?.sources.map(\.externalID) == ["post-1"], "\(label)")
                outcomes.insert(canonical(txs).joined(separator: "\n"))
            }
        }
        #expect(outcomes.count == 1)
    }
}
