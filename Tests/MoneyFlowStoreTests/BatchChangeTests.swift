import Foundation
import GRDB
import MoneyFlowCore
import MoneyFlowPipeline
import MoneyFlowStoreTestSupport
import Testing

@testable import MoneyFlowStore

/// The undo log's kinds of change (``BatchChange``) keep the stored shape every existing store
/// holds, so batches written by earlier versions are still undone.
@Suite struct BatchChangeTests {
    /// One row of each kind, exactly as earlier versions wrote it (kind, target, old_value).
    static let storedRows: [(String, String, String?)] = [
        (
            "record_row", "12",
            #"{"date":"2026-01-02","amountMinor":-1250,"currency":"USD","description":"SHOP","pending":false,"raw":"{}","state":"active"}"#
        ),
        ("record_state", "12", "active"),
        (
            "link_moved", "12",
            #"{"transactionID":7,"score":0.9,"reasons":"[]","decidedBy":"auto","reviewCandidates":"[]","evidence":"carried"}"#
        ),
        ("link_moved", "13", #"{"transactionID":7,"score":1,"reasons":"[]","decidedBy":"auto"}"#),
        ("sync_cursor", "plaid:item-1", "cursor-1"), ("sync_cursor", "plaid:item-1", nil),
        ("sync_progress", "plaid:item-1", "cursor-2"), ("sync_progress", "plaid:item-1", nil),
        ("row", #"{"table":"txn","columns":["id"],"values":[7]}"#, #"{"columns":["id","note"],"values":[7,null]}"#),
        ("row", #"{"table":"review","columns":["record_id"],"values":[12]}"#, nil),
        ("merge_into", "3", nil), ("merge_from", "4", nil), ("account_created", "3", nil), ("account_key", "csv:bank/checking", nil),
        ("account_currency", "3|USD", nil), ("account_balance", "3", "12345|null|USD"), ("account_balance", "3", "null|null|"),
        ("category_decision", "7", #"{"account":"Expenses:Food"}"#),
        ("category_decision", "7", #"{"account":"Expenses:Food","split":"[[\"Expenses:Food\",\"-400\"],[\"Expenses:Home\",\"-799\"]]"}"#),
        ("category_decision", "8", nil),
    ]

    /// Every kind reads back from its stored text and writes the same text again.
    @Test func everyKindKeepsItsStoredShape() throws {
        var kinds = Set<String>()
        for (kind, target, old) in Self.storedRows {
            let change = try BatchChange(kind: kind, target: target, old: old, batchID: 1)
            #expect(change.kind.rawValue == kind)
            let stored = try change.stored()
            #expect(stored.target == target, "\(kind)")
            // JSON snapshots are written by JSONEncoder: compare their values, not key order.
            if let old, old.hasPrefix("{"), kind != "row" {
                #expect(try BatchChange(kind: kind, target: stored.target, old: stored.old, batchID: 1) == change)
            } else {
                #expect(stored.old == old, "\(kind)")
            }
            kinds.insert(kind)
        }
        #expect(kinds == Set(BatchChange.Kind.allCases.map(\.rawValue)))
    }

    /// A batch whose log an earlier version wrote (balances as `current|available|currency`,
    /// a record's state as its text) is undone: the balance and the state come back.
    @Test(arguments: StoreKind.testable) func aBatchLoggedByAnEarlierVersionIsUndone(_ kind: StoreKind) throws {
        let (store, _) = try freshStore(kind)
        let service = ImportService(store: store)
        var first = GeneratedStatements.statement(account: 0, days: 0..<3)
        first.accounts[0].currentBalance = Money(minorUnits: 4_200, currency: "USD")
        _ = try service.apply(first, fileName: "a.csv", sha256: "a", options: FileImportOptions())
        var second = GeneratedStatements.statement(account: 0, days: 2..<4)
        second.accounts[0].currentBalance = Money(minorUnits: 9_900, currency: "USD")
        let applied = try service.apply(second, fileName: "b.csv", sha256: "b", options: FileImportOptions())
        let batch = try #require(applied.batchID)
        let record = try #require(store.transactions().first?.sources.first).id
        // The log rows as the earlier version wrote them, by hand.
        try store.write { db in
            try db.execute(sql: "DELETE FROM batch_change WHERE batch_id = ?", arguments: [batch])
            let accountID = try #require(try Int64.fetchOne(db, sql: "SELECT id FROM account"))
            try db.execute(
                sql: """
                    INSERT INTO batch_change(batch_id, seq, kind, target, old_value) VALUES
                      (?, 1, 'account_balance', ?, '4200|null|USD'), (?, 2, 'record_state', ?, 'active')
                    """, arguments: [batch, String(accountID), batch, String(record)])
            try db.execute(sql: "UPDATE record SET state = 'removed' WHERE id = ?", arguments: [record])
        }
        _ = try store.undo(batchID: batch)
        #expect(try store.accounts().first?.currentBalance == Money(minorUnits: 4_200, currency: "USD"))
        let restored = try #require(store.transactions(includeAll: true).flatMap(\.sources).first { $0.id == record })
        #expect(restored.state == "active")
    }

    /// A kind this version does not know (a log from a newer MoneyFlow) refuses the undo,
    /// naming the kind and the batch, and changes nothing.
    @Test func anUnknownKindRefusesTheUndo() throws {
        let (store, _) = try freshStore(.sqlite)
        let applied = try ImportService(store: store).apply(
            GeneratedStatements.statement(account: 0, days: 0..<2), fileName: "a.csv", sha256: "a", options: FileImportOptions())
        let batch = try #require(applied.batchID)
        try store.write { db in
            try db.execute(
                sql: "INSERT INTO batch_change(batch_id, seq, kind, target) VALUES (?, 99, 'category_set', '1')", arguments: [batch])
        }
        let before = try store.contentDigest()
        #expect {
            try store.undo(batchID: batch)
        } throws: { e in
            "\(e)".contains("unknown change kind category_set in batch \(batch)")
        }
        #expect(try store.contentDigest() == before)
    }
}
