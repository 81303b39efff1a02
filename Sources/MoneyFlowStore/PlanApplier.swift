import Foundation
import GRDB
import MoneyFlowCore

/// Writes one ``ImportPlan`` inside the caller's database transaction.
struct PlanApplier {
    let db: Database
    let plan: ImportPlan
    let importedAt: Date

    private var changeSeq = 0
    /// New transactions, records and links (the hot path), written in multi-row batches.
    private let rows: RowWriter
    private let reasonsEncoder = JSONEncoder()

    init(db: Database, plan: ImportPlan, importedAt: Date) {
        self.db = db; self.plan = plan; self.importedAt = importedAt
        self.rows = RowWriter(db: db, records: plan.statement.records)
    }

    static func timestamp(_ d: Date) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f.string(from: d)
    }

    mutating func apply() throws -> Int64 {
        if let earlier = try identicalEarlierBatch() {
            try db.execute(
                sql: "UPDATE batch SET seen_count = seen_count + 1, last_seen_at = ? WHERE id = ?",
                arguments: [Self.timestamp(importedAt), earlier])
            return earlier
        }
        let counts = plan.counts
        try db.execute(
            sql: """
                INSERT INTO batch(file_name, file_sha256, importer, imported_at, new_count, present_count, linked_count,
                                  updated_count, review_count, removed_count, warning_count)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                plan.fileName, plan.fileSHA256, plan.statement.importerID, Self.timestamp(importedAt),
                counts.new, counts.alreadyPresent, counts.linked, counts.updated, counts.needsReview,
                counts.removed, counts.warnings,
            ])
        let batchID = db.lastInsertedRowID
        for (i, w) in plan.statement.warnings.enumerated() {
            try db.execute(
                sql: "INSERT INTO batch_warning(batch_id, seq, message) VALUES (?, ?, ?)", arguments: [batchID, i, w.description])
        }
        let accountIDs = try resolveAccounts(batchID: batchID)
        try StatementFacts.write(db, batchID: batchID, accounts: plan.statement.accounts, accountIDs: accountIDs)

        let records = plan.statement.records
        // Entry index -> id; 0 = none (SQLite rowids of these tables start at 1).
        var createdTransactions = [Int64](repeating: 0, count: records.count)
        // Transactions created by this plan already show their only record: no refresh needed
        // unless another entry joins them.
        var recordIDs = [Int64](repeating: 0, count: records.count)
        var touched = Set<Int64>()
        for entry in plan.entries {
            let rec = records[entry.index]
            guard let accountID = accountIDs[rec.accountKey] else {
                throw StoreError("plan has no account for \(rec.accountKey)")
            }
            let sortKey = batchID * 10_000_000 + Int64(entry.index)
            switch entry.decision {
            case .alreadyPresent(let recordID):
                try confirm(recordID, entryIndex: entry.index, batchID: batchID)
                continue
            case .update(let recordID):
                try rows.flush()
                try saveChange(batchID, kind: "record_row", target: recordID)
                try RecordSnapshot(rec, state: "active").write(db, recordID: recordID)
                if let t = try Int64.fetchOne(db, sql: "SELECT transaction_id FROM link WHERE record_id = ?", arguments: [recordID]) {
                    touched.insert(t)
                }
                try confirm(recordID, entryIndex: entry.index, batchID: batchID)
                recordIDs[entry.index] = recordID
            case .new:
                let t = try insertTransaction(entry.index, accountID: accountID, batchID: batchID, sortKey: sortKey, needsReview: false)
                createdTransactions[entry.index] = t
                recordIDs[entry.index] = try insertRecord(
                    rec, entry: entry, accountID: accountID, batchID: batchID, transactionID: t,
                    score: 1, reasonsJSON: Self.newReasonJSON)
            case .link(let t, let score, let reasons, let evidence):
                recordIDs[entry.index] = try insertRecord(
                    rec, entry: entry, accountID: accountID, batchID: batchID, transactionID: t, score: score, reasons: reasons,
                    evidence: evidence)
                touched.insert(t)
            case .linkToIncoming(let other, let score, let reasons):
                guard createdTransactions.indices.contains(other), case let t = createdTransactions[other], t != 0 else {
                    throw StoreError("plan links entry \(entry.index) to entry \(other) that creates no transaction")
                }
                recordIDs[entry.index] = try insertRecord(
                    rec, entry: entry, accountID: accountID, batchID: batchID, transactionID: t, score: score, reasons: reasons)
                touched.insert(t)
            case .supersede(let pendingRecordID, let t, let reasons):
                recordIDs[entry.index] = try insertRecord(
                    rec, entry: entry, accountID: accountID, batchID: batchID, transactionID: t, score: 1, reasons: reasons,
                    decidedBy: "provider")
                try rows.flush()
                try setState(batchID, recordID: pendingRecordID, state: "superseded")
                touched.insert(t)
            case .supersedeIncoming(let pendingIndex, let reasons):
                guard createdTransactions.indices.contains(pendingIndex), case let t = createdTransactions[pendingIndex],
                    case let pendingRecord = recordIDs[pendingIndex], t != 0, pendingRecord != 0
                else {
                    throw StoreError("plan supersedes entry \(pendingIndex) that creates no transaction")
                }
                recordIDs[entry.index] = try insertRecord(
                    rec, entry: entry, accountID: accountID, batchID: batchID, transactionID: t, score: 1, reasons: reasons,
                    decidedBy: "provider")
                try rows.flush()
                try db.execute(sql: "UPDATE record SET state = 'superseded' WHERE id = ?", arguments: [pendingRecord])
                touched.insert(t)
            case .needsReview(let candidates):
                let t = try insertTransaction(entry.index, accountID: accountID, batchID: batchID, sortKey: sortKey, needsReview: true)
                createdTransactions[entry.index] = t
                let rid = try insertRecord(
                    rec, entry: entry, accountID: accountID, batchID: batchID, transactionID: t, score: 0,
                    reasons: Self.reviewReasons(candidates))
                recordIDs[entry.index] = rid
                touched.insert(t)
                let resolved = Self.resolve(candidates, createdTransactions: createdTransactions)
                let json = String(decoding: try JSONEncoder().encode(resolved), as: UTF8.self)
                try rows.flush()
                try db.execute(sql: "INSERT INTO review(record_id, candidates) VALUES (?, ?)", arguments: [rid, json])
            }
        }
        try rows.flush()
        for relink in plan.relinks {
            try applyRelink(relink, batchID: batchID, createdTransactions: createdTransactions, touched: &touched)
        }
        for removal in plan.removals {
            guard let rid = removal.recordID else { continue }
            let state = removal.supersededInThisUpdate ? "superseded" : "removed"
            try setState(batchID, recordID: rid, state: state)
            if let t = try Int64.fetchOne(db, sql: "SELECT transaction_id FROM link WHERE record_id = ?", arguments: [rid]) {
                touched.insert(t)
            }
        }
        for t in touched.sorted() { try MergedViewPass.refresh(db, transactionID: t) }
        try restoreKeptEdits(batchID: batchID)
        if let sync = plan.statement.sync {
            // The cursor is saved only when the whole update has been applied; until then the
            // position inside the update is kept apart, so the next page can be checked.
            if sync.isItemScope {
                for a in plan.statement.accounts where a.providerAccountID != nil {
                    try db.execute(
                        sql: "INSERT OR IGNORE INTO sync_scope_alias(account_key, scope) VALUES (?, ?)", arguments: [a.key, sync.scope])
                }
            }
            let oldProgress = try String.fetchOne(db, sql: "SELECT cursor FROM sync_progress WHERE scope = ?", arguments: [sync.scope])
            try saveChange(batchID, kind: "sync_progress", target: sync.scope, old: oldProgress)
            if sync.complete {
                let old = try String.fetchOne(db, sql: "SELECT cursor FROM sync_state WHERE scope = ?", arguments: [sync.scope])
                try saveChange(batchID, kind: "sync_cursor", target: sync.scope, old: old)
                try db.execute(
                    sql: """
                        INSERT INTO sync_state(scope, cursor, updated_at, batch_id) VALUES (?, ?, ?, ?)
                        ON CONFLICT(scope) DO UPDATE SET cursor = excluded.cursor, updated_at = excluded.updated_at, batch_id = excluded.batch_id
                        """, arguments: [sync.scope, sync.nextCursor, Self.timestamp(importedAt), batchID])
                try db.execute(sql: "DELETE FROM sync_progress WHERE scope = ?", arguments: [sync.scope])
            } else {
                try db.execute(
                    sql: """
                        INSERT INTO sync_progress(scope, cursor, updated_at, batch_id) VALUES (?, ?, ?, ?)
                        ON CONFLICT(scope) DO UPDATE SET cursor = excluded.cursor, updated_at = excluded.updated_at, batch_id = excluded.batch_id
                        """, arguments: [sync.scope, sync.nextCursor, Self.timestamp(importedAt), batchID])
            }
        }
        return batchID
    }

    /// The active batch that imported these same bytes, when this import changes nothing at
    /// all (every row already present, nothing relinked, removed or synced, no account or
    /// balance to record). Such a re-import is counted on that batch (`seen_count`,
    /// `last_seen_at`) instead of adding a batch row: the audit stays, no-op rows do not pile
    /// up, and undoing that batch undoes the file however often it was imported.
    private func identicalEarlierBatch() throws -> Int64? {
        guard plan.relinks.isEmpty, plan.removals.isEmpty, plan.statement.sync == nil,
            plan.entries.allSatisfy({ if case .alreadyPresent = $0.decision { return true } else { return false } }),
            plan.accounts.allSatisfy({ $0.accountID != nil && $0.facts.currentBalance == nil && $0.facts.availableBalance == nil })
        else { return nil }
        for a in plan.accounts {
            guard try Int64.fetchOne(db, sql: "SELECT account_id FROM account_key WHERE key = ?", arguments: [a.key]) == a.accountID else {
                return nil
            }
        }
        return try Int64.fetchOne(
            db, sql: "SELECT id FROM batch WHERE file_sha256 = ? AND undone_at IS NULL ORDER BY id DESC LIMIT 1",
            arguments: [plan.fileSHA256])
    }

    /// Remembers that this batch also holds stored record `recordID` (at this entry's place in
    /// its file), so undoing the record's own batch hands the record over instead of deleting it.
    private func confirm(_ recordID: Int64, entryIndex: Int, batchID: Int64) throws {
        let r = plan.statement.records[entryIndex]
        try db.cachedStatement(
            sql: """
                INSERT OR IGNORE INTO record_confirmation(record_id, batch_id, line, page, row, raw, file_seq) VALUES (?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [recordID, batchID, r.locator.line, r.locator.page, r.locator.row, r.raw, entryIndex])
    }

    /// Moves a stored record as the plan re-decided it (after this plan's own rows are written,
    /// so a relink may join a transaction they created). The old link and review row are kept
    /// in the batch's changes for undo.
    private mutating func applyRelink(_ relink: RelinkEffect, batchID: Int64, createdTransactions: [Int64], touched: inout Set<Int64>)
        throws
    {
        let id = relink.recordID
        guard
            let old = try Row.fetchOne(
                db,
                sql: """
                    SELECT l.transaction_id, l.score, l.reasons, l.decided_by, rv.candidates, l.evidence
                    FROM link l LEFT JOIN review rv ON rv.record_id = l.record_id WHERE l.record_id = ?
                    """, arguments: [id]),
            (old[0] as Int64) == relink.fromTransactionID, (old[3] as String) == "auto"
        else {
            throw StoreError("record \(id) changed since this import was planned")
        }
        let snapshot = LinkSnapshot(
            transactionID: old[0], score: old[1], reasons: old[2], decidedBy: old[3], reviewCandidates: old[4], evidence: old[5])
        try saveChange(
            batchID, kind: "link_moved", target: String(id), old: String(decoding: try JSONEncoder().encode(snapshot), as: UTF8.self))
        let target: Int64, score: Double, reasonsJSON: String
        var review: [ReviewCandidate]? = nil
        var evidence: LinkEvidence? = nil
        switch relink.decision {
        case .link(let t, let sc, let reasons, let e):
            evidence = e
            (target, score, reasonsJSON) = (t, sc, String(decoding: try reasonsEncoder.encode(reasons), as: UTF8.self))
        case .linkToIncoming(let i, let sc, let reasons):
            guard createdTransactions.indices.contains(i), createdTransactions[i] != 0 else {
                throw StoreError("plan relinks record \(id) to entry \(i) that creates no transaction")
            }
            (target, score, reasonsJSON) = (createdTransactions[i], sc, String(decoding: try reasonsEncoder.encode(reasons), as: UTF8.self))
        case .new:
            (target, score, reasonsJSON) = (
                try insertTransaction(forRecord: id, batchID: batchID, needsReview: false), 1, Self.newReasonJSON
            )
        case .needsReview(let candidates):
            let reasons = Self.reviewReasons(candidates)
            (target, score, reasonsJSON) = (
                try insertTransaction(forRecord: id, batchID: batchID, needsReview: true), 0,
                String(decoding: try reasonsEncoder.encode(reasons), as: UTF8.self)
            )
            review = Self.resolve(candidates, createdTransactions: createdTransactions)
        default:
            throw StoreError("plan relinks record \(id) with an unsupported decision (\(relink.decision.label))")
        }
        try db.execute(
            sql: "UPDATE link SET transaction_id = ?, score = ?, reasons = ?, decided_by = 'auto', evidence = ? WHERE record_id = ?",
            arguments: [target, score, reasonsJSON, evidence?.rawValue, id])
        try db.execute(sql: "DELETE FROM review WHERE record_id = ?", arguments: [id])
        if let review {
            try db.execute(
                sql: "INSERT INTO review(record_id, candidates) VALUES (?, ?)",
                arguments: [id, String(decoding: try JSONEncoder().encode(review), as: UTF8.self)])
        }
        try Self.moveEditsIfEmptied(db, from: relink.fromTransactionID, to: target)
        touched.insert(relink.fromTransactionID)
        touched.insert(target)
    }

    /// When `from` has lost its last record to `to`, its user edits go with that record (a
    /// field the user already edited on `to` wins): an edit survives relinks of its records.
    static func moveEditsIfEmptied(_ db: Database, from: Int64, to: Int64) throws {
        guard from != to, try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM link WHERE transaction_id = ?", arguments: [from]) == 0 else {
            return
        }
        try db.execute(
            sql: """
                UPDATE txn SET user_description = coalesce(user_description, (SELECT user_description FROM txn WHERE id = ?)),
                               user_counterparty = coalesce(user_counterparty, (SELECT user_counterparty FROM txn WHERE id = ?)),
                               user_note = coalesce(user_note, (SELECT user_note FROM txn WHERE id = ?))
                WHERE id = ?
                """, arguments: [from, from, from, to])
        try db.execute(
            sql: "UPDATE txn SET user_description = NULL, user_counterparty = NULL, user_note = NULL WHERE id = ?", arguments: [from])
    }

    /// A transaction of its own for stored record `recordID`, created by this batch (so undo
    /// removes it). Written after every row of the plan, so SQLite picks the next id.
    private func insertTransaction(forRecord recordID: Int64, batchID: Int64, needsReview: Bool) throws -> Int64 {
        try Self.insertStandaloneTransaction(db, forRecord: recordID, createdBatch: batchID, needsReview: needsReview)
    }

    /// Inserts a transaction showing stored record `recordID` alone (its place in the ledger
    /// follows the record's own batch and row); `createdBatch` nil = the record's batch.
    static func insertStandaloneTransaction(_ db: Database, forRecord recordID: Int64, createdBatch: Int64?, needsReview: Bool) throws
        -> Int64
    {
        try db.execute(
            sql: """
                INSERT INTO txn(account_id, date, amount_minor, currency, description, counterparty, pending, needs_review, created_batch_id, sort_key)
                SELECT account_id, date, amount_minor, currency, description, counterparty, pending, ?, coalesce(?, batch_id), batch_id * 10000000 + file_seq
                FROM record WHERE id = ?
                """, arguments: [needsReview, createdBatch, recordID])
        return db.lastInsertedRowID
    }

    private mutating func resolveAccounts(batchID: Int64) throws -> [String: Int64] {
        var ids: [String: Int64] = [:]
        for res in plan.accounts {
            var id = res.accountID
            if id == nil {
                id = try Int64.fetchOne(db, sql: "SELECT id FROM account WHERE name = ?", arguments: [res.name])
            }
            if id == nil {
                let f = res.facts
                try db.execute(
                    sql: """
                        INSERT INTO account(name, institution, number, type, subtype, provider, provider_account_id, created_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        res.name, f.institution, f.number, f.type, f.subtype, f.provider, f.providerAccountID, Self.timestamp(importedAt),
                    ])
                id = db.lastInsertedRowID
                try saveChange(batchID, kind: "account_created", target: String(id!))
            }
            let accountID = id!
            if res.adoptsFacts == true { try adoptFacts(res, accountID: accountID, batchID: batchID) }
            if try Int64.fetchOne(db, sql: "SELECT account_id FROM account_key WHERE key = ?", arguments: [res.key]) == nil {
                try db.execute(sql: "INSERT INTO account_key(key, account_id) VALUES (?, ?)", arguments: [res.key, accountID])
                try saveChange(batchID, kind: "account_key", target: res.key)
            }
            for c in res.facts.currencies {
                try db.execute(
                    sql: "INSERT OR IGNORE INTO account_currency(account_id, currency) VALUES (?, ?)", arguments: [accountID, c])
                if db.changesCount > 0 { try saveChange(batchID, kind: "account_currency", target: "\(accountID)|\(c)") }
            }
            if let cur = res.facts.currentBalance {
                let old = try Row.fetchOne(
                    db, sql: "SELECT current_balance_minor, available_balance_minor, balance_currency FROM account WHERE id = ?",
                    arguments: [accountID])
                let oldJSON = old.map { r in
                    "\((r[0] as Int64?).map(String.init) ?? "null")|\((r[1] as Int64?).map(String.init) ?? "null")|\((r[2] as String?) ?? "")"
                }
                try saveChange(batchID, kind: "account_balance", target: String(accountID), old: oldJSON)
                try db.execute(
                    sql: "UPDATE account SET current_balance_minor = ?, available_balance_minor = ?, balance_currency = ? WHERE id = ?",
                    arguments: [cur.minorUnits, res.facts.availableBalance?.minorUnits, cur.currency, accountID])
            }
            ids[res.key] = accountID
        }
        return ids
    }

    private mutating func saveChange(_ batchID: Int64, kind: String, target: Int64) throws {
        var old: String?
        if kind == "record_row" {
            old = try RecordSnapshot.capture(db, recordID: target)
        }
        try saveChange(batchID, kind: kind, target: String(target), old: old)
    }

    mutating func saveChange(_ batchID: Int64, kind: String, target: String, old: String? = nil) throws {
        changeSeq += 1
        try db.execute(
            sql: "INSERT INTO batch_change(batch_id, seq, kind, target, old_value) VALUES (?, ?, ?, ?, ?)",
            arguments: [batchID, changeSeq, kind, target, old])
    }

    private mutating func setState(_ batchID: Int64, recordID: Int64, state: String) throws {
        let old = try String.fetchOne(db, sql: "SELECT state FROM record WHERE id = ?", arguments: [recordID])
        guard old != state else { return }
        try saveChange(batchID, kind: "record_state", target: String(recordID), old: old)
        try db.execute(sql: "UPDATE record SET state = ? WHERE id = ?", arguments: [state, recordID])
    }

    static let newReasonJSON = #"[{"factor":"new","detail":"no matching transaction"}]"#
    private func insertTransaction(_ entryIndex: Int, accountID: Int64, batchID: Int64, sortKey: Int64, needsReview: Bool) throws -> Int64 {
        try rows.addTransaction(
            TransactionRow(entryIndex: entryIndex, accountID: accountID, batchID: batchID, sortKey: sortKey, needsReview: needsReview))
    }

    private func insertRecord(
        _ r: IncomingRecord, entry: PlanEntry, accountID: Int64, batchID: Int64, transactionID: Int64,
        score: Double, reasons: [MatchReason], decidedBy: String = "auto", evidence: LinkEvidence? = nil
    ) throws -> Int64 {
        let reasonsJSON = String(decoding: try reasonsEncoder.encode(reasons), as: UTF8.self)
        return try insertRecord(
            r, entry: entry, accountID: accountID, batchID: batchID, transactionID: transactionID,
            score: score, reasonsJSON: reasonsJSON, decidedBy: decidedBy, evidence: evidence)
    }

    private func insertRecord(
        _ r: IncomingRecord, entry: PlanEntry, accountID: Int64, batchID: Int64, transactionID: Int64,
        score: Double, reasonsJSON: String, decidedBy: String = "auto", evidence: LinkEvidence? = nil
    ) throws -> Int64 {
        try rows.addRecord(
            RecordRow(
                entryIndex: entry.index, fingerprint: entry.fingerprint, accountID: accountID, batchID: batchID,
                transactionID: transactionID, score: score, reasonsJSON: reasonsJSON, decidedBy: decidedBy, evidence: evidence))
    }
}
