import Foundation
import GRDB
import MoneyFlowCore
import MoneyFlowReconcile

/// The user's transfer decisions (`link --transfer`, `unlink --transfer`), kept under record
/// identities and resolved to today's transactions.
///
/// A decision is stored once per pair of records behind the two legs (a leg shown by a
/// statement row and a Plaid record has two), so it still finds its legs after an undo and a
/// re-import of either file; the newest decision about a leg wins.
enum TransferVerdicts {
    /// Every decision whose two legs exist today, as transaction ids.
    static func load(_ db: Database) throws -> [TransferVerdict] {
        guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM transfer_decision)") == true else { return [] }
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT lo.transaction_id AS out_txn, li.transaction_id AS in_txn, d.together
                FROM transfer_decision d
                JOIN account_key ko ON ko.key = d.out_account_key
                JOIN record ro ON ro.account_id = ko.account_id AND ro.source_kind = d.out_kind AND ro.fingerprint = d.out_fingerprint
                JOIN link lo ON lo.record_id = ro.id
                JOIN account_key ki ON ki.key = d.in_account_key
                JOIN record ri ON ri.account_id = ki.account_id AND ri.source_kind = d.in_kind AND ri.fingerprint = d.in_fingerprint
                JOIN link li ON li.record_id = ri.id
                WHERE ro.state = 'active' AND ri.state = 'active'
                ORDER BY d.decided_at DESC
                """)
        var seen = Set<[Int64]>()
        return rows.compactMap { r in
            let v = TransferVerdict(out: r["out_txn"], into: r["in_txn"], together: r["together"] as Bool)
            return seen.insert([v.out, v.into]).inserted && v.out != v.into ? v : nil
        }
    }

    /// The identities of the active records behind transaction `id`.
    static func recordKeys(_ db: Database, transaction id: Int64) throws -> [(String, String, String)] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT min(k.key) AS key, r.source_kind, r.fingerprint FROM link l JOIN record r ON r.id = l.record_id
                JOIN account_key k ON k.account_id = r.account_id
                WHERE l.transaction_id = ? AND r.state = 'active' GROUP BY r.id ORDER BY r.id
                """, arguments: [id]
        ).map { ($0["key"], $0["source_kind"], $0["fingerprint"]) }
    }

    /// Records the user's decision that `out` and `into` are (or are not) one transfer,
    /// replacing every earlier decision about either leg when they are.
    static func decide(_ db: Database, out: Int64, into: Int64, together: Bool, at date: Date) throws {
        let outKeys = try recordKeys(db, transaction: out), inKeys = try recordKeys(db, transaction: into)
        if together {
            for (side, keys) in [("out", outKeys), ("in", inKeys)] {
                for k in keys {
                    try db.execute(
                        sql:
                            "DELETE FROM transfer_decision WHERE together = 1 AND \(side)_account_key = ? AND \(side)_kind = ? AND \(side)_fingerprint = ?",
                        arguments: [k.0, k.1, k.2])
                }
            }
        }
        for o in outKeys {
            for i in inKeys {
                try db.execute(
                    sql: """
                        INSERT OR REPLACE INTO transfer_decision(out_account_key, out_kind, out_fingerprint, in_account_key, in_kind,
                                                                 in_fingerprint, together, decided_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                        """, arguments: [o.0, o.1, o.2, i.0, i.1, i.2, together, PlanApplier.timestamp(date)])
            }
        }
        try db.execute(sql: "INSERT INTO mf_touched_txn(id) VALUES (?), (?) ON CONFLICT DO NOTHING", arguments: [out, into])
    }
}
