import Foundation
import MoneyFlowCore
import MoneyFlowPipeline
import MoneyFlowStoreTestSupport
import MoneyFlowTestSupport
import Testing

@testable import MoneyFlowStore

/// Generated bank statements over two accounts: each account has a pool of distinct rows
/// (one per day), and a statement is a window of consecutive rows, so statements overlap the
/// way monthly and quarterly exports of one account do.
struct GeneratedStatements {
    static let accounts = [("csv:testbank/checking", "Test Checking"), ("csv:testbank/card", "Test Card")]
    static let start = LocalDate(year: 2025, month: 1, day: 1)!

    static func row(account: Int, day: Int) -> IncomingRecord {
        let amount = -Int64(1_000 + day * 37 + account * 5)
        return IncomingRecord(
            accountKey: accounts[account].0, sourceKind: .csv, date: start.adding(days: day),
            amount: Money(minorUnits: amount, currency: "USD"), description: "SHOP \(account)-\(day)",
            locator: Locator(line: 0, row: 0), raw: "{\"day\":\(day)}")
    }

    /// Rows `days` of `account`, numbered as lines of a CSV file with a header.
    static func statement(account: Int, days: Range<Int>) -> ImportedStatement {
        let records = days.enumerated().map { i, d in
            var r = row(account: account, day: d)
            r.locator = Locator(line: i + 2, row: i + 1)
            return r
        }
        let facts = AccountFacts(
            key: accounts[account].0, suggestedName: accounts[account].1, institution: "Test Bank", currencies: ["USD"])
        return ImportedStatement(importerID: "csv", accounts: [facts], records: records)
    }
}

/// The ledger's content without ids: every transaction (void ones too) with its shown fields
/// and its records' files and places, in the ledger's order; and every account with its keys.
/// Two stores are "equal" when these are equal: ids differ between stores built separately
/// (they are never reused, so a store that lived through undos has gaps) and are left out.
func ledgerContent(_ store: LedgerStore) throws -> [String] {
    let txs = try store.transactions(includeAll: true).map { t in
        "\(t.account)|\(t.date.iso)|\(t.amount.minorUnits)|\(t.description)|\(t.counterparty ?? "")|\(t.note ?? "")|\(t.status)|review=\(t.needsReview)|"
            + t.sources.map { "\($0.kind.rawValue)@\($0.file):\($0.line ?? -1)/\($0.row ?? -1)/\($0.state)" }.joined(separator: ",")
    }
    let accounts = try store.accounts().map {
        "account \($0.name)|\($0.keys.joined(separator: ","))|\($0.currencies.joined(separator: ","))"
    }
    return txs + accounts
}

@Suite struct UndoLedgerTests {
    func apply(_ service: ImportService, _ st: ImportedStatement, name: String, sha: String) throws -> FileImportResult {
        try service.apply(st, fileName: name, sha256: sha, options: FileImportOptions())
    }

    @Test(arguments: StoreKind.testable) func undoingTheFirstOfTwoIdenticalImportsKeepsEverything(_ kind: StoreKind) throws {
        let (store, _) = try freshStore(kind)
        let service = ImportService(store: store)
        let st = GeneratedStatements.statement(account: 0, days: 0..<35)
        let first = try apply(service, st, name: "march.csv", sha: "a")
        let second = try apply(service, st, name: "march.zip", sha: "b")
        #expect(first.plan.counts.new == 35)
        #expect(second.plan.counts.new == 0 && second.plan.counts.alreadyPresent == 35)
        let before = try store.transactions()
        let result = try store.undo(batchID: try #require(first.batchID))
        #expect(result.recordsKept == 35 && result.recordsRemoved == 0 && result.transactionsRemoved == 0)
        let after = try store.transactions()
        #expect(after.count == 35)
        #expect(after.map(\.id) == before.map(\.id), "the same transactions, same ids")
        #expect(after.allSatisfy { $0.sources.count == 1 && $0.sources[0].file == "march.zip" })
        // Undoing the second too empties the ledger.
        try store.undo(batchID: try #require(second.batchID))
        #expect(try store.transactions(includeAll: true).isEmpty)
        #expect(try store.accounts().isEmpty)
    }

    @Test(arguments: StoreKind.testable) func undoingAnOverlappedQuarterLeavesWhatTheNextQuarterHolds(_ kind: StoreKind) throws {
        let (store, _) = try freshStore(kind)
        let service = ImportService(store: store)
        let q1 = try apply(service, GeneratedStatements.statement(account: 0, days: 0..<73), name: "q1.csv", sha: "q1")
        _ = try apply(service, GeneratedStatements.statement(account: 0, days: 27..<100), name: "q2.csv", sha: "q2")
        try store.undo(batchID: try #require(q1.batchID))
        let (alone, _) = try freshStore(kind)
        _ = try apply(ImportService(store: alone), GeneratedStatements.statement(account: 0, days: 27..<100), name: "q2.csv", sha: "q2")
        #expect(try store.transactions().count == 73)
        #expect(try ledgerContent(store) == ledgerContent(alone))
    }

    /// After every undo, the ledger equals the one built from the remaining active batches
    /// alone (in their order), over random sequences of overlapping imports and undos. Now and
    /// then the user adds a note to a transaction: the note stays on the row's transaction
    /// whatever is undone, and comes back with the row when an undo had removed it.
    @Test(arguments: StoreKind.testable, 0..<25)
    func undoLeavesTheLedgerOfTheRemainingBatches(_ kind: StoreKind, seed: Int) throws {
        var rng = SplitMix64(seed: UInt64(seed) &* 0x2545_F491_4F6C_DD1D &+ 17)
        let (store, _) = try freshStore(kind)
        let service = ImportService(store: store)
        var active: [(batch: Int64, statement: ImportedStatement, name: String)] = []
        var notes: [String: String] = [:] // row description -> the user's note
        /// Undoes a random active batch and compares with a store built from the others.
        func undoOne(_ step: Int) throws {
            let victim = active.remove(at: rng.int(0...(active.count - 1)))
            try store.undo(batchID: victim.batch)
            // The reference is built on SQLite: on PostgreSQL this compares the two stores too.
            let (rebuilt, _) = try freshStore(.sqlite)
            let again = ImportService(store: rebuilt)
            for a in active { _ = try apply(again, a.statement, name: a.name, sha: a.name) }
            for t in try rebuilt.transactions() { if let n = notes[t.description] { try rebuilt.editTransaction(t.id, note: n) } }
            let expected = try ledgerContent(rebuilt)
            let got = try ledgerContent(store)
            let diff = got.filter { !expected.contains($0) } + ["--- expected:"] + expected.filter { !got.contains($0) }
            #expect(got == expected, "seed \(seed) step \(step): undo of \(victim.name)\n\(diff.joined(separator: "\n"))")
        }
        for step in 0..<12 {
            if !active.isEmpty && rng.int(0...2) == 0 {
                try undoOne(step)
            } else {
                let account = rng.int(0...1)
                let from = rng.int(0...30)
                let length = rng.int(3...25)
                // Now and then the same rows again under another name (a ZIP of the same export).
                let again = !active.isEmpty && rng.int(0...4) == 0 ? active[rng.int(0...(active.count - 1))].statement : nil
                let st = again ?? GeneratedStatements.statement(account: account, days: from..<(from + length))
                let name = again == nil ? "s\(step)-a\(account)-\(from)-\(from + length).csv" : "s\(step)-again.csv"
                let r = try apply(service, st, name: name, sha: name)
                active.append((try #require(r.batchID), st, name))
                let shown = try store.transactions()
                for t in shown { #expect(t.note == notes[t.description], "seed \(seed) step \(step): note of \(t.description)") }
                if rng.int(0...1) == 0, !shown.isEmpty {
                    let t = shown[rng.int(0...(shown.count - 1))]
                    notes[t.description] = "note \(step)"
                    try store.editTransaction(t.id, note: "note \(step)")
                }
            }
        }
        // Then every remaining batch, in random order, down to an empty ledger.
        var step = 12
        while !active.isEmpty { try undoOne(step); step += 1 }
        #expect(try store.transactions(includeAll: true).isEmpty && store.accounts().isEmpty)
        #expect(try store.integrityCheck() == "ok")
    }

    @Test(arguments: StoreKind.testable) func undoingTheBatchThatCreatedAnAccountKeepsItsKeyWhileTheAccountLives(_ kind: StoreKind) throws {
        let (store, _) = try freshStore(kind)
        let service = ImportService(store: store)
        let first = try apply(service, GeneratedStatements.statement(account: 0, days: 0..<10), name: "jan.csv", sha: "jan")
        _ = try apply(service, GeneratedStatements.statement(account: 0, days: 10..<20), name: "feb.csv", sha: "feb")
        try store.undo(batchID: try #require(first.batchID))
        let accounts = try store.accounts()
        #expect(accounts.count == 1)
        #expect(accounts.first?.keys == [GeneratedStatements.accounts[0].0])
        let again = try apply(service, GeneratedStatements.statement(account: 0, days: 0..<20), name: "jan-feb.csv", sha: "janfeb")
        #expect(again.plan.counts.new == 10 && again.plan.counts.alreadyPresent == 10)
        #expect(try store.accounts().map(\.name) == ["Test Checking"])
        #expect(try store.transactions().count == 20)
        // With its last batch undone, the account goes, and its key with it.
        for b in try store.batches() where b.undoneAt == nil { try store.undo(batchID: b.id) }
        #expect(try store.accounts().isEmpty)
        let fresh = try apply(service, GeneratedStatements.statement(account: 0, days: 0..<5), name: "x.csv", sha: "x")
        #expect(fresh.plan.counts.new == 5)
        #expect(try store.accounts().map(\.name) == ["Test Checking"])
    }

    @Test(arguments: StoreKind.testable) func idsOfAnUndoneBatchAreNeverHandedOutAgain(_ kind: StoreKind) throws {
        let (store, location) = try freshStore(kind)
        let service = ImportService(store: store)
        _ = try apply(service, GeneratedStatements.statement(account: 0, days: 0..<5), name: "a.csv", sha: "a")
        let b = try apply(service, GeneratedStatements.statement(account: 1, days: 0..<8), name: "b.csv", sha: "b")
        let undoneTxns = Set(try store.transactions().filter { $0.account == "Test Card" }.map(\.id))
        let undoneRecords = Set(try store.transactions().filter { $0.account == "Test Card" }.flatMap { $0.sources.map(\.id) })
        let undoneAccount = try #require(try store.accounts().first { $0.name == "Test Card" }).id
        try store.undo(batchID: try #require(b.batchID))
        _ = try apply(service, GeneratedStatements.statement(account: 1, days: 20..<30), name: "c.csv", sha: "c")
        // A second process opening the store (the ids come from the store, not from memory).
        let reopened = try reopenTestStore(location)
        _ = try apply(ImportService(store: reopened), GeneratedStatements.statement(account: 0, days: 30..<33), name: "d.csv", sha: "d")
        let now = try reopened.transactions()
        #expect(undoneTxns.count == 8 && undoneRecords.count == 8)
        #expect(Set(now.map(\.id)).isDisjoint(with: undoneTxns))
        #expect(Set(now.flatMap { $0.sources.map(\.id) }).isDisjoint(with: undoneRecords))
        #expect(try reopened.accounts().allSatisfy { $0.id != undoneAccount })
        #expect(try reopened.batches().map(\.id) == [1, 2, 3, 4])
    }

    /// Importing the same bytes again when nothing changes is counted on the batch that holds
    /// them; anything new in the file makes it a batch of its own.
    @Test(arguments: StoreKind.testable) func aNoOpReimportOfTheSameBytesIsCountedOnItsBatch(_ kind: StoreKind) throws {
        let (store, _) = try freshStore(kind)
        let service = ImportService(store: store)
        let st = GeneratedStatements.statement(account: 0, days: 0..<6)
        let first = try apply(service, st, name: "jan.csv", sha: "same")
        let again = try apply(service, st, name: "jan.csv", sha: "same")
        let third = try apply(service, st, name: "jan-copy.csv", sha: "same")
        #expect(again.batchID == first.batchID && third.batchID == first.batchID)
        #expect(again.plan.counts.alreadyPresent == 6)
        var batches = try store.batches()
        #expect(batches.count == 1)
        #expect(batches[0].seenAgain == 2 && batches[0].lastSeenAt != nil)
        // Other bytes with the same rows: a batch of its own (it confirms the rows).
        let other = try apply(service, st, name: "jan.zip", sha: "other")
        #expect(other.batchID != first.batchID)
        // New rows under the same bytes' hash would not be a no-op: never folded.
        let grown = try apply(service, GeneratedStatements.statement(account: 0, days: 0..<7), name: "jan.csv", sha: "same")
        #expect(grown.batchID != first.batchID && grown.plan.counts.new == 1)
        batches = try store.batches()
        #expect(batches.map(\.seenAgain) == [2, 0, 0])
        // Undoing the batch undoes the file however often it was seen; the rest stays.
        try store.undo(batchID: try #require(first.batchID))
        #expect(try store.transactions().count == 7)
    }

    /// The user's link between two rows survives the undo of the batch that brought them when
    /// a later batch holds them too, and so does the transaction's edit.
    @Test(arguments: StoreKind.testable) func userDecisionsOnKeptRecordsStay(_ kind: StoreKind) throws {
        let (store, _) = try freshStore(kind)
        let service = ImportService(store: store)
        let first = try apply(service, GeneratedStatements.statement(account: 0, days: 0..<4), name: "a.csv", sha: "a")
        let txs = try store.transactions()
        let r1 = try #require(txs[1].sources.first).id
        try store.userLink(recordID: r1, transactionID: txs[0].id)
        try store.editTransaction(txs[0].id, note: "one purchase, two rows")
        _ = try apply(service, GeneratedStatements.statement(account: 0, days: 0..<4), name: "a.zip", sha: "b")
        let before = try ledgerContent(store)
        let result = try store.undo(batchID: try #require(first.batchID))
        #expect(result.recordsKept == 4 && result.transactionsRemoved == 0 && result.editedTransactionsRemoved == 0)
        #expect(try ledgerContent(store) == before.map { $0.replacingOccurrences(of: "csv@a.csv:", with: "csv@a.zip:") })
        let merged = try #require(try store.transactions().first { $0.id == txs[0].id })
        #expect(merged.sources.map(\.id).sorted() == [txs[0].sources[0].id, r1].sorted())
        #expect(merged.note == "one purchase, two rows")
    }

    /// A provider update of a stored record confirms it too: undoing the batch that first
    /// brought the record keeps it, as the update shows it.
    @Test(arguments: StoreKind.testable) func aProviderUpdateKeepsTheRecordItUpdated(_ kind: StoreKind) throws {
        let (store, _) = try freshStore(kind)
        let service = ImportService(store: store)
        let facts = AccountFacts(key: "plaid:acc-1", suggestedName: "Plaid Checking", institution: "Test Bank", currencies: ["USD"])
        func page(_ amount: Int64, _ text: String, modified: Bool) -> ImportedStatement {
            let r = IncomingRecord(
                accountKey: "plaid:acc-1", sourceKind: .plaid, date: GeneratedStatements.start,
                amount: Money(minorUnits: amount, currency: "USD"), description: text, externalID: "tx-1",
                locator: Locator(page: 1, row: 1), raw: "{\"amount\":\(amount)}")
            return ImportedStatement(importerID: "plaid", accounts: [facts], records: [r], modifiedExternalIDs: modified ? ["tx-1"] : [])
        }
        let first = try apply(service, page(-1_000, "COFFEE", modified: false), name: "p1.json", sha: "p1")
        let update = try apply(service, page(-1_250, "COFFEE + TIP", modified: true), name: "p2.json", sha: "p2")
        #expect(update.plan.counts.updated == 1)
        let result = try store.undo(batchID: try #require(first.batchID))
        #expect(result.recordsKept == 1 && result.transactionsRemoved == 0)
        let (alone, _) = try freshStore(kind)
        _ = try apply(ImportService(store: alone), page(-1_250, "COFFEE + TIP", modified: true), name: "p2.json", sha: "p2")
        #expect(try ledgerContent(store) == ledgerContent(alone))
        #expect(try store.transactions().map(\.amount.minorUnits) == [-1_250])
        // Undoing the update too leaves nothing.
        try store.undo(batchID: try #require(update.batchID))
        #expect(try store.transactions(includeAll: true).isEmpty)
    }
}
