import Foundation
import GRDB
import MoneyFlowCore

enum Queries {
    static func accounts(_ db: Database) throws -> [LedgerAccount] {
        let rows = try Row.fetchAll(db, sql: "SELECT * FROM account ORDER BY name")
        return try rows.map { r in
            let id: Int64 = r["id"]
            let currencies = try String.fetchAll(
                db, sql: "SELECT currency FROM account_currency WHERE account_id = ? ORDER BY currency", arguments: [id])
            let keys = try String.fetchAll(db, sql: "SELECT key FROM account_key WHERE account_id = ? ORDER BY key", arguments: [id])
            let bc: String? = r["balance_currency"]
            var account = LedgerAccount(
                id: id, name: r["name"], institution: r["institution"], number: r["number"], type: r["type"],
                subtype: r["subtype"], currencies: currencies, provider: r["provider"],
                providerAccountID: r["provider_account_id"],
                currentBalance: (r["current_balance_minor"] as Int64?).flatMap { m in bc.map { Money(minorUnits: m, currency: $0) } },
                availableBalance: (r["available_balance_minor"] as Int64?).flatMap { m in bc.map { Money(minorUnits: m, currency: $0) } },
                ledgerName: r["ledger_name"], keys: keys)
            account.statement = try StatementFacts.newest(db, accountID: id)
            return account
        }
    }

    static func source(_ r: Row) -> LedgerSource {
        var s = LedgerSource(
            id: r["rid"], kind: SourceKind(rawValue: r["source_kind"]) ?? .csv, externalID: r["external_id"],
            file: r["file_name"], line: r["line"], page: r["page"], row: r["row"], state: r["state"],
            date: LocalDate(iso: r["rdate"] as String, .lenient)!, amount: Money(minorUnits: r["ramount"], currency: r["rcurrency"]),
            description: r["rdescription"], counterparty: r["rcounterparty"], pending: r["rpending"])
        s.batchID = r["rbatch"]
        return s
    }

    static func transactions(
        _ db: Database, account: String?, from: LocalDate?, through: LocalDate?, includeAll: Bool,
        ids: [Int64]? = nil
    ) throws -> [LedgerTransaction] {
        var out: [LedgerTransaction] = []
        try forEachTransaction(db, account: account, from: from, through: through, includeAll: includeAll, ids: ids) { out.append($0) }
        return out
    }

    /// Calls `body` with each transaction ordered by account name, date, source order and id,
    /// its active sources (all with `includeAll`) ordered by record id. Rows are read with two
    /// database cursors walked in step (the transactions, and their sources sorted the same
    /// way), so memory stays bounded by one transaction and SQLite's sorter: `transactions
    /// --format json` streams millions of rows through this.
    static func forEachTransaction(
        _ db: Database, account: String?, from: LocalDate?, through: LocalDate?, includeAll: Bool,
        ids: [Int64]? = nil, _ body: (LedgerTransaction) throws -> Void
    ) throws {
        var conditions: [String] = []
        var args: [any DatabaseValueConvertible] = []
        if !includeAll { conditions.append("t.status = 'active'") }
        if let account { conditions.append("a.name = ?"); args.append(account) }
        if let from { conditions.append("t.date >= ?"); args.append(from.iso) }
        if let through { conditions.append("t.date <= ?"); args.append(through.iso) }
        if let ids { conditions.append("t.id IN (\(ids.map(String.init).joined(separator: ",")))") }
        let whereClause = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        let order = "ORDER BY a.name, t.date, t.sort_key, t.id"
        let txs = try Row.fetchCursor(
            db,
            sql: """
                SELECT t.*, a.name AS account_name FROM txn t JOIN account a ON a.id = t.account_id
                \(whereClause) \(order)
                """, arguments: StatementArguments(args))
        let srcs = try Row.fetchCursor(
            db,
            sql: """
                SELECT l.transaction_id, r.id AS rid, r.batch_id AS rbatch, r.source_kind, r.external_id, b.file_name, r.line, r.page, r.row, r.state,
                       r.date AS rdate, r.amount_minor AS ramount, r.currency AS rcurrency, r.description AS rdescription,
                       r.counterparty AS rcounterparty, r.pending AS rpending
                FROM link l JOIN record r ON r.id = l.record_id JOIN batch b ON b.id = r.batch_id
                JOIN txn t ON t.id = l.transaction_id JOIN account a ON a.id = t.account_id
                \(whereClause) \(includeAll ? "" : (whereClause.isEmpty ? "WHERE" : "AND") + " r.state = 'active'")
                \(order), r.id
                """, arguments: StatementArguments(args))
        let transfers = try TransferQueries.links(db)
        // Rows are copied out of the cursor: a cursor reuses its row between steps.
        var pending: (id: Int64, source: LedgerSource)?
        if let r = try srcs.next() { pending = (r["transaction_id"], source(r)) }
        while let r = try txs.next() {
            let id: Int64 = r["id"]
            var sources: [LedgerSource] = []
            while let p = pending, p.id == id {
                sources.append(p.source)
                pending = try srcs.next().map { ($0["transaction_id"], source($0)) }
            }
            let currency: String = r["currency"]
            var t = LedgerTransaction(
                id: id, accountID: r["account_id"], account: r["account_name"], date: LocalDate(iso: r["date"] as String, .lenient)!,
                amount: Money(minorUnits: r["amount_minor"], currency: currency),
                description: (r["user_description"] as String?) ?? r["description"],
                counterparty: (r["user_counterparty"] as String?) ?? r["counterparty"],
                note: (r["user_note"] as String?) ?? r["note"],
                balance: (r["balance_minor"] as Int64?).map { Money(minorUnits: $0, currency: currency) },
                category: r["category"], pending: r["pending"], status: r["status"], needsReview: r["needs_review"],
                sources: sources)
            t.transfer = transfers.linked[id]
            t.transferCandidates = transfers.review[id] ?? []
            try body(t)
        }
    }

    static func batches(_ db: Database) throws -> [LedgerBatch] {
        let facts = try StatementFacts.byBatch(db)
        return try Row.fetchAll(db, sql: "SELECT * FROM batch ORDER BY id").map { r in
            var c = ImportCounts()
            c.new = r["new_count"]; c.alreadyPresent = r["present_count"]; c.linked = r["linked_count"]
            c.updated = r["updated_count"]; c.needsReview = r["review_count"]; c.removed = r["removed_count"]
            c.warnings = r["warning_count"]
            var b = LedgerBatch(
                id: r["id"], fileName: r["file_name"], fileSHA256: r["file_sha256"], importer: r["importer"],
                importedAt: r["imported_at"], counts: c, undoneAt: r["undone_at"])
            // Absent in a store older than v6-batch-seen that a read-only command did not upgrade.
            b.seenAgain = (r["seen_count"] as Int?) ?? 0
            b.lastSeenAt = r["last_seen_at"]
            b.facts = facts[b.id] ?? [:]
            return b
        }
    }

    static func pendingReviews(_ db: Database) throws -> [PendingReview] {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT rv.candidates, l.transaction_id, a.name AS account_name, r.id AS rid, r.batch_id AS rbatch, r.source_kind, r.external_id, b.file_name,
                       r.line, r.page, r.row, r.state, r.date AS rdate, r.amount_minor AS ramount, r.currency AS rcurrency,
                       r.description AS rdescription, r.counterparty AS rcounterparty, r.pending AS rpending
                FROM review rv JOIN record r ON r.id = rv.record_id JOIN link l ON l.record_id = r.id
                JOIN batch b ON b.id = r.batch_id JOIN account a ON a.id = r.account_id
                ORDER BY r.id
                """)
        return try rows.map { r in
            var candidates = try JSONDecoder().decode([ReviewCandidate].self, from: Data((r["candidates"] as String).utf8))
            // Stores written before the engine named each candidate once may repeat a
            // transaction with another record's reasons; the first entry is this record's own.
            var seen = Set<Int64>()
            candidates = candidates.filter { c in c.transactionID.map { seen.insert($0).inserted } ?? true }
            return PendingReview(
                recordID: r["rid"], transactionID: r["transaction_id"], record: source(r), account: r["account_name"],
                candidates: candidates)
        }
    }
}

/// Applies a user's link / unlink decisions and remembers them.
struct UserDecisions {
    let db: Database

    func recordRow(_ recordID: Int64) throws -> Row {
        guard
            let r = try Row.fetchOne(
                db, sql: "SELECT r.*, l.transaction_id FROM record r LEFT JOIN link l ON l.record_id = r.id WHERE r.id = ?",
                arguments: [recordID])
        else {
            throw StoreError.notFound("no record \(recordID)")
        }
        return r
    }

    func link(recordID: Int64, transactionID: Int64) throws {
        let r = try recordRow(recordID)
        guard let t = try Row.fetchOne(db, sql: "SELECT account_id, currency FROM txn WHERE id = ?", arguments: [transactionID]) else {
            throw StoreError.notFound("no transaction \(transactionID)")
        }
        guard (t["account_id"] as Int64) == (r["account_id"] as Int64) else {
            throw StoreError("record \(recordID) and transaction \(transactionID) belong to different accounts")
        }
        guard (t["currency"] as String) == (r["currency"] as String) else {
            throw StoreError("record \(recordID) and transaction \(transactionID) have different currencies")
        }
        let old: Int64? = r["transaction_id"]
        try db.execute(
            sql: """
                INSERT INTO link(record_id, transaction_id, score, reasons, decided_by) VALUES (?, ?, 1, '[{"factor":"user","detail":"linked by user"}]', 'user')
                ON CONFLICT(record_id) DO UPDATE SET transaction_id = excluded.transaction_id, score = 1, reasons = excluded.reasons, decided_by = 'user', evidence = NULL
                """, arguments: [recordID, transactionID])
        try db.execute(sql: "DELETE FROM review WHERE record_id = ?", arguments: [recordID])
        try remember(r, transactionID: transactionID)
        try settle(old: old, new: transactionID)
    }

    /// Gives the record its own transaction. A record already alone in its transaction keeps
    /// it (same id, with its edits): unlinking it again changes nothing but remembering the
    /// decision, so a later import does not attach it elsewhere.
    func unlink(recordID: Int64) throws -> UnlinkResult {
        let r = try recordRow(recordID)
        let old: Int64? = r["transaction_id"]
        if let old, try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM link WHERE transaction_id = ?", arguments: [old]) == 1 {
            try db.execute(sql: "DELETE FROM review WHERE record_id = ?", arguments: [recordID])
            try remember(r, transactionID: nil)
            try settle(old: nil, new: old)
            return UnlinkResult(transactionID: old, alreadyAlone: true)
        }
        let t = try PlanApplier.insertStandaloneTransaction(db, forRecord: recordID, createdBatch: nil, needsReview: false)
        try db.execute(
            sql: """
                INSERT INTO link(record_id, transaction_id, score, reasons, decided_by) VALUES (?, ?, 1, '[{"factor":"user","detail":"unlinked by user"}]', 'user')
                ON CONFLICT(record_id) DO UPDATE SET transaction_id = excluded.transaction_id, score = 1, reasons = excluded.reasons, decided_by = 'user', evidence = NULL
                """, arguments: [recordID, t])
        try db.execute(sql: "DELETE FROM review WHERE record_id = ?", arguments: [recordID])
        try remember(r, transactionID: nil)
        try settle(old: old, new: t)
        return UnlinkResult(transactionID: t, alreadyAlone: false)
    }

    private func remember(_ r: Row, transactionID: Int64?) throws {
        try db.execute(
            sql: """
                INSERT INTO user_decision(account_id, source_kind, fingerprint, transaction_id, decided_at) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT(account_id, source_kind, fingerprint) DO UPDATE SET transaction_id = excluded.transaction_id, decided_at = excluded.decided_at
                """,
            arguments: [
                r["account_id"] as Int64, r["source_kind"] as String, r["fingerprint"] as String, transactionID,
                PlanApplier.timestamp(Date()),
            ])
    }

    /// Refreshes both transactions; one left with no records at all is deleted, and a
    /// transaction that lost a competitor leaves review.
    private func settle(old: Int64?, new: Int64) throws {
        try MergedViewPass.refresh(db, transactionID: new)
        try db.execute(
            sql:
                "UPDATE txn SET needs_review = 0 WHERE id = ? AND NOT EXISTS (SELECT 1 FROM review rv JOIN link l ON l.record_id = rv.record_id WHERE l.transaction_id = ?)",
            arguments: [new, new])
        guard let old, old != new else { return }
        let remaining = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM link WHERE transaction_id = ?", arguments: [old]) ?? 0
        if remaining == 0 {
            try PlanApplier.moveEditsIfEmptied(db, from: old, to: new)
            try db.execute(sql: "UPDATE user_decision SET transaction_id = ? WHERE transaction_id = ?", arguments: [new, old])
            try db.execute(sql: "DELETE FROM txn WHERE id = ?", arguments: [old])
        } else {
            try MergedViewPass.refresh(db, transactionID: old)
            try db.execute(
                sql:
                    "UPDATE txn SET needs_review = 0 WHERE id = ? AND NOT EXISTS (SELECT 1 FROM review rv JOIN link l ON l.record_id = rv.record_id WHERE l.transaction_id = ?)",
                arguments: [old, old])
        }
    }
}

/// What `unlink` did.
public struct UnlinkResult: Sendable, Equatable {
    /// The record's transaction now.
    public var transactionID: Int64
    /// True when the record was already alone in that transaction: nothing moved.
    public var alreadyAlone: Bool
}
