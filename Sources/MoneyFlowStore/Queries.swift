import Foundation
import GRDB
import MoneyFlowCore

/// The store's reads for listings and outputs (nothing here writes).
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
                SELECT l.transaction_id, \(RecordTable.sourceSelect)
                FROM link l JOIN record r ON r.id = l.record_id JOIN batch b ON b.id = r.batch_id
                JOIN txn t ON t.id = l.transaction_id JOIN account a ON a.id = t.account_id
                \(whereClause) \(includeAll ? "" : (whereClause.isEmpty ? "WHERE" : "AND") + " r.state = 'active'")
                \(order), r.id
                """, arguments: StatementArguments(args))
        let transfers = try TransferQueries.links(db)
        var categories = try CategoryTable.Reader(db)
        // Rows are copied out of the cursor: a cursor reuses its row between steps.
        var pending: (id: Int64, source: LedgerSource)?
        if let r = try srcs.next() { pending = (r["transaction_id"], RecordTable.source(r)) }
        while let r = try txs.next() {
            let id: Int64 = r["id"]
            var sources: [LedgerSource] = []
            while let p = pending, p.id == id {
                sources.append(p.source)
                pending = try srcs.next().map { ($0["transaction_id"], RecordTable.source($0)) }
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
            t.assignedCategory = try categories.category(id, currency: currency)
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

    /// Ordered by the review's own key (the record's id): SQLite then walks the few review rows
    /// instead of every record of the ledger in id order.
    static func pendingReviews(_ db: Database) throws -> [PendingReview] {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT rv.candidates, l.transaction_id, a.name AS account_name, \(RecordTable.sourceSelect)
                FROM review rv JOIN record r ON r.id = rv.record_id JOIN link l ON l.record_id = r.id
                JOIN batch b ON b.id = r.batch_id JOIN account a ON a.id = r.account_id
                ORDER BY rv.record_id
                """)
        return try rows.map { r in
            var candidates = try JSONDecoder().decode([ReviewCandidate].self, from: Data((r["candidates"] as String).utf8))
            // Stores written before the engine named each candidate once may repeat a
            // transaction with another record's reasons; the first entry is this record's own.
            var seen = Set<Int64>()
            candidates = candidates.filter { c in c.transactionID.map { seen.insert($0).inserted } ?? true }
            return PendingReview(
                recordID: r["rid"], transactionID: r["transaction_id"], record: RecordTable.source(r), account: r["account_name"],
                candidates: candidates)
        }
    }
}
