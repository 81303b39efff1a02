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
            try BatchTable.seenAgain(db, earlier, at: Self.timestamp(importedAt))
            return earlier
        }
        let batchID = try BatchTable.insert(
            db, fileName: plan.fileName, sha256: plan.fileSHA256, importer: plan.statement.importerID, at: Self.timestamp(importedAt),
            counts: plan.counts)
        for (i, w) in plan.statement.warnings.enumerated() {
            try db.execute(
                sql: "INSERT INTO batch_warning(batch_id, seq, message) VALUES (?, ?, ?)", arguments: [batchID, i, w.description])
        }
        let accountIDs = try resolveAccounts(batchID: batchID)
        try StatementFacts.write(db, batchID: batchID, accounts: plan.statement.accounts, accountIDs: accountIDs)

        let records = plan.statement.records
        // Entry index -> id; 0 = none (SQLite rowids of these tables start at 1).
        var createdTransactions = [Int64](repeating: 0, count: records.count)
        // Transactions created by this plan show their only record; the write's passes
        // (``WritePasses``) merge again every transaction whose records this plan changes.
        var recordIDs = [Int64](repeating: 0, count: records.count)
        for entry in plan.entries {
            let rec = records[entry.index]
            guard let accountID = accountIDs[rec.accountKey] else {
                throw StoreError("plan has no account for \(rec.accountKey)")
            }
            let sortKey = TransactionTable.sortKey(batchID: batchID, fileSeq: Int64(entry.index))
            switch entry.decision {
            case .alreadyPresent(let recordID):
                try confirm(recordID, entryIndex: entry.index, batchID: batchID)
                continue
            case .update(let recordID):
                try rows.flush()
                let before = try RecordSnapshot.capture(db, recordID: recordID)
                try saveChange(batchID, .recordRow(recordID: recordID, before: before))
                try RecordSnapshot(rec, state: "active").write(db, recordID: recordID)
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
            case .linkToIncoming(let other, let score, let reasons):
                guard createdTransactions.indices.contains(other), case let t = createdTransactions[other], t != 0 else {
                    throw StoreError("plan links entry \(entry.index) to entry \(other) that creates no transaction")
                }
                recordIDs[entry.index] = try insertRecord(
                    rec, entry: entry, accountID: accountID, batchID: batchID, transactionID: t, score: score, reasons: reasons)
            case .supersede(let pendingRecordID, let t, let reasons):
                recordIDs[entry.index] = try insertRecord(
                    rec, entry: entry, accountID: accountID, batchID: batchID, transactionID: t, score: 1, reasons: reasons,
                    decidedBy: "provider")
                try rows.flush()
                try setState(batchID, recordID: pendingRecordID, state: "superseded")
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
                try RecordTable.setState(db, recordID: pendingRecord, "superseded")
            case .needsReview(let candidates):
                let t = try insertTransaction(entry.index, accountID: accountID, batchID: batchID, sortKey: sortKey, needsReview: true)
                createdTransactions[entry.index] = t
                let rid = try insertRecord(
                    rec, entry: entry, accountID: accountID, batchID: batchID, transactionID: t, score: 0,
                    reasons: Self.reviewReasons(candidates))
                recordIDs[entry.index] = rid
                let resolved = Self.resolve(candidates, createdTransactions: createdTransactions)
                let json = String(decoding: try JSONEncoder().encode(resolved), as: UTF8.self)
                try rows.flush()
                try ReviewTable.insert(db, recordID: rid, candidatesJSON: json)
            }
        }
        try rows.flush()
        for relink in plan.relinks {
            try applyRelink(relink, batchID: batchID, createdTransactions: createdTransactions)
        }
        for removal in plan.removals {
            guard let rid = removal.recordID else { continue }
            let state = removal.supersededInThisUpdate ? "superseded" : "removed"
            try setState(batchID, recordID: rid, state: state)
        }
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
            let at = Self.timestamp(importedAt)
            try saveChange(batchID, .syncProgress(scope: sync.scope, before: try SyncCursorTable.progress.cursor(db, scope: sync.scope)))
            if sync.complete {
                try saveChange(batchID, .syncCursor(scope: sync.scope, before: try SyncCursorTable.state.cursor(db, scope: sync.scope)))
                try SyncCursorTable.state.save(db, scope: sync.scope, cursor: sync.nextCursor, at: at, batchID: batchID)
                try SyncCursorTable.progress.delete(db, scope: sync.scope)
            } else {
                try SyncCursorTable.progress.save(db, scope: sync.scope, cursor: sync.nextCursor, at: at, batchID: batchID)
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
                INSERT OR IGNORE INTO record_confirmation(record_id, batch_id, \(RecordTable.placeColumns.joined(separator: ", ")))
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [recordID, batchID, r.locator.line, r.locator.page, r.locator.row, r.raw, entryIndex])
    }

    /// Moves a stored record as the plan re-decided it (after this plan's own rows are written,
    /// so a relink may join a transaction they created). The old link and review row are kept
    /// in the batch's changes for undo.
    private mutating func applyRelink(_ relink: RelinkEffect, batchID: Int64, createdTransactions: [Int64]) throws {
        let id = relink.recordID
        guard let snapshot = try LinkTable.snapshot(db, recordID: id), snapshot.transactionID == relink.fromTransactionID,
            snapshot.decidedBy == "auto"
        else {
            throw StoreError("record \(id) changed since this import was planned")
        }
        try saveChange(batchID, .linkMoved(recordID: id, before: snapshot))
        let target: Int64, score: Double, reasonsJSON: String
        var review: [ReviewCandidate]? = nil
        var evidence: LinkEvidence? = nil
        switch relink.decision {
        case .link(let t, let sc, let reasons, let e):
            evidence = e
            (target, score, reasonsJSON) = (t, sc, try MatchReasonsJSON.encode(reasons, encoder: reasonsEncoder))
        case .linkToIncoming(let i, let sc, let reasons):
            guard createdTransactions.indices.contains(i), createdTransactions[i] != 0 else {
                throw StoreError("plan relinks record \(id) to entry \(i) that creates no transaction")
            }
            (target, score, reasonsJSON) = (createdTransactions[i], sc, try MatchReasonsJSON.encode(reasons, encoder: reasonsEncoder))
        case .new:
            (target, score, reasonsJSON) = (
                try insertTransaction(forRecord: id, batchID: batchID, needsReview: false), 1, Self.newReasonJSON
            )
        case .needsReview(let candidates):
            let reasons = Self.reviewReasons(candidates)
            (target, score, reasonsJSON) = (
                try insertTransaction(forRecord: id, batchID: batchID, needsReview: true), 0,
                try MatchReasonsJSON.encode(reasons, encoder: reasonsEncoder)
            )
            review = Self.resolve(candidates, createdTransactions: createdTransactions)
        default:
            throw StoreError("plan relinks record \(id) with an unsupported decision (\(relink.decision.label))")
        }
        try LinkTable.move(
            db, recordID: id, to: target, score: score, reasonsJSON: reasonsJSON, decidedBy: "auto", evidence: evidence?.rawValue)
        try ReviewTable.delete(db, recordID: id)
        if let review {
            try ReviewTable.insert(db, recordID: id, candidatesJSON: String(decoding: try JSONEncoder().encode(review), as: UTF8.self))
        }
        try Self.moveEditsIfEmptied(db, from: relink.fromTransactionID, to: target)
    }

    /// When `from` has lost its last record to `to`, its user edits go with that record (a
    /// field the user already edited on `to` wins): an edit survives relinks of its records.
    static func moveEditsIfEmptied(_ db: Database, from: Int64, to: Int64) throws {
        guard from != to, try LinkTable.recordCount(ofTransaction: from, db) == 0 else { return }
        try CategoryTable.moveDecision(db, from: from, to: to)
        guard let edits = try TransactionTable.userFields(db, from) else { return }
        try TransactionTable.fillUserFields(db, to, edits)
        try TransactionTable.clearUserFields(db, from)
    }

    /// A transaction of its own for stored record `recordID`, created by this batch (so undo
    /// removes it). Written after every row of the plan, so SQLite picks the next id.
    private func insertTransaction(forRecord recordID: Int64, batchID: Int64, needsReview: Bool) throws -> Int64 {
        try TransactionTable.insertStandalone(db, forRecord: recordID, createdBatch: batchID, needsReview: needsReview)
    }

    private mutating func resolveAccounts(batchID: Int64) throws -> [String: Int64] {
        var ids: [String: Int64] = [:]
        for res in plan.accounts {
            var id = res.accountID
            if id == nil {
                id = try AccountTable.id(named: res.name, db)
            }
            if id == nil {
                id = try AccountTable.insert(db, name: res.name, facts: res.facts, at: Self.timestamp(importedAt))
                try saveChange(batchID, .accountCreated(accountID: id!))
            }
            let accountID = id!
            if res.adoptsFacts == true { try adoptFacts(res, accountID: accountID, batchID: batchID) }
            if try Int64.fetchOne(db, sql: "SELECT account_id FROM account_key WHERE key = ?", arguments: [res.key]) == nil {
                try db.execute(sql: "INSERT INTO account_key(key, account_id) VALUES (?, ?)", arguments: [res.key, accountID])
                try saveChange(batchID, .accountKey(res.key))
            }
            for c in res.facts.currencies {
                try db.execute(
                    sql: "INSERT OR IGNORE INTO account_currency(account_id, currency) VALUES (?, ?)", arguments: [accountID, c])
                if db.changesCount > 0 { try saveChange(batchID, .accountCurrency(accountID: accountID, currency: c)) }
            }
            if let cur = res.facts.currentBalance {
                let before = try AccountTable.balance(db, accountID) ?? BatchChange.AccountBalance()
                try saveChange(batchID, .accountBalance(accountID: accountID, before: before))
                try AccountTable.setBalance(
                    db, accountID,
                    BatchChange.AccountBalance(
                        current: cur.minorUnits, available: res.facts.availableBalance?.minorUnits, currency: cur.currency))
            }
            ids[res.key] = accountID
        }
        return ids
    }

    /// Appends `change` to this batch's undo log.
    mutating func saveChange(_ batchID: Int64, _ change: BatchChange) throws {
        changeSeq += 1
        try BatchChangeTable.append(db, batchID: batchID, seq: changeSeq, change)
    }

    private mutating func setState(_ batchID: Int64, recordID: Int64, state: String) throws {
        let old = try RecordTable.state(db, recordID: recordID)
        guard old != state else { return }
        try saveChange(batchID, .recordState(recordID: recordID, before: old))
        try RecordTable.setState(db, recordID: recordID, state)
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
        let reasonsJSON = try MatchReasonsJSON.encode(reasons, encoder: reasonsEncoder)
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
