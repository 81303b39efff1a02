import Foundation
import GRDB
import MoneyFlowCore

/// What merging one account into another did (or, for a dry run, would do).
public struct MergeResult: Sendable, Equatable, Codable {
    /// The account that stays.
    public var into: String
    /// The account that is merged into it (gone afterwards).
    public var from: String
    /// The merge's batch (`moneyflow undo` takes it back); nil for a dry run.
    public var batchID: Int64?
    /// Records of the merged account, all in `into` afterwards.
    public var records = 0
    /// Records the engine linked to a transaction of `into` (the overlap).
    public var linked = 0
    /// Records whose very row `into` already holds (same source and identity): dropped, `into`'s copy stays.
    public var alreadyPresent = 0
    /// Records that keep their transaction, which moves into `into`.
    public var kept = 0
    /// Of those, records now waiting for a review decision.
    public var needsReview = 0
    /// Transactions of the merged account that move into `into`.
    public var transactionsMoved = 0
    /// Transactions of the merged account whose records all joined transactions of `into` (removed).
    public var transactionsJoined = 0
}

/// Merges account `from` into account `into` inside one write: the records of `from` move to
/// `into` and reconcile there by the import engine's plan (the caller's, over the records as
/// an importer would deliver them), so the overlap of two downloads of one bank account becomes
/// links instead of every transaction twice. Records the engine may not re-plan (a user's link
/// or unlink, a provider's link, superseded rows, void transactions) keep their transaction,
/// which moves along. `from`'s import keys move too, so its files land in `into` later.
///
/// The merge is a batch: every row it changes is kept whole in its undo log (``RowImageLog``),
/// so `moneyflow undo` gives back both accounts exactly, with their ids.
struct AccountMerge {
    let db: Database
    let intoID: Int64, fromID: Int64
    let intoName: String, fromName: String

    /// Where each re-planned record goes.
    enum Move {
        /// Joins transaction `transactionID` (of `into`, or one of `from`'s that stays).
        case join(transactionID: Int64, score: Double, reasons: [MatchReason], evidence: LinkEvidence?)
        /// `into` holds the same row already (record id); the record is dropped.
        case duplicate(transactionID: Int64)
        /// Stays on its transaction, waiting for review between these candidates.
        case review([ReviewCandidate])
    }

    struct Decisions {
        var moves: [Int64: Move] = [:]
        /// `from`'s transactions left with no record, and where their user edits go.
        var emptied: [Int64: Int64?] = [:]
        var result: MergeResult
    }

    init(db: Database, into: String, from: String) throws {
        guard let i = try Int64.fetchOne(db, sql: "SELECT id FROM account WHERE name = ?", arguments: [into]) else {
            throw StoreError("no account named '\(into)'")
        }
        guard let f = try Int64.fetchOne(db, sql: "SELECT id FROM account WHERE name = ?", arguments: [from]) else {
            throw StoreError("no account named '\(from)'")
        }
        guard i != f else { throw StoreError("cannot merge account '\(into)' into itself") }
        self.db = db; self.intoID = i; self.fromID = f; self.intoName = into; self.fromName = from
    }

    /// The records of `from` the engine may plan again, as an importer would deliver them into
    /// `into` (each reopened record at the same index as its incoming record).
    func incoming() throws -> (statement: ImportedStatement, reopened: [ReopenedRecord]) {
        guard
            let key = try String.fetchOne(
                db, sql: "SELECT key FROM account_key WHERE account_id = ? ORDER BY key LIMIT 1", arguments: [intoID])
        else { throw StoreError("account '\(intoName)' has no import identity to plan the merge with") }
        let kinds = Set(
            try String.fetchAll(db, sql: "SELECT DISTINCT source_kind FROM record WHERE account_id = ?", arguments: [fromID])
                .compactMap(SourceKind.init(rawValue:)))
        let plaidIDs = Set(
            try String.fetchAll(
                db,
                sql: """
                    SELECT DISTINCT json_extract(raw, '$.account_id') FROM record
                    WHERE account_id = ? AND source_kind IN \(SourceKindSQL.providerAccountIDs) AND json_extract(raw, '$.account_id') IS NOT NULL
                    """, arguments: [fromID]))
        var reopened: [ReopenedRecord] = []
        let view = StoreLedgerView(db: db)
        for row in try Row.fetchAll(
            db, sql: "SELECT currency, min(date), max(date) FROM record WHERE account_id = ? AND state = 'active' GROUP BY currency",
            arguments: [fromID])
        {
            guard let first = LocalDate(iso: row[1] as String, .lenient), let last = LocalDate(iso: row[2] as String, .lenient) else {
                throw StoreError("account '\(fromName)' has a record with an unreadable date")
            }
            reopened += try view.reopenable(
                accountID: fromID, currency: row[0], kinds: kinds, from: first, through: last, except: [], plaidAccountIDs: plaidIDs,
                editedToo: true
            ).records
        }
        // A record the user linked or unlinked keeps that decision (an unlink of a record that
        // was alone already leaves its link to the engine, and only remembers the decision).
        let decided = Set(
            try Int64.fetchAll(
                db,
                sql: """
                    SELECT r.id FROM record r
                    JOIN user_decision u ON u.account_id = r.account_id AND u.source_kind = r.source_kind AND u.fingerprint = r.fingerprint
                    WHERE r.account_id = ?
                    """, arguments: [fromID]))
        reopened = reopened.filter { !decided.contains($0.recordID) }.sorted { $0.recordID < $1.recordID }
        let records = reopened.map { r -> IncomingRecord in
            var rec = r.record
            rec.accountKey = key
            return rec
        }
        let statement = ImportedStatement(
            importerID: "merge", accounts: [AccountFacts(key: key, suggestedName: intoName)], records: records)
        return (statement, reopened)
    }

    /// Where each record of `from` goes under `plan` (planned over ``incoming()``), and what
    /// that does to `from`'s transactions.
    func decide(_ plan: ImportPlan, reopened: [ReopenedRecord]) throws -> Decisions {
        var d = Decisions(result: MergeResult(into: intoName, from: fromName))
        // Record -> its transaction, for every record of `from`.
        var txnOf: [Int64: Int64] = [:]
        for r in try Row.fetchAll(
            db, sql: "SELECT r.id, l.transaction_id FROM record r JOIN link l ON l.record_id = r.id WHERE r.account_id = ?",
            arguments: [fromID])
        { txnOf[r[0]] = r[1] }
        d.result.records = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM record WHERE account_id = ?", arguments: [fromID]) ?? 0
        // The same row in both accounts (one file imported into each): `into`'s copy stays.
        for r in try Row.fetchAll(
            db,
            sql: """
                SELECT r.id, lx.transaction_id FROM record r
                JOIN record x ON x.account_id = ? AND x.source_kind = r.source_kind AND x.fingerprint = r.fingerprint
                JOIN link lx ON lx.record_id = x.id
                WHERE r.account_id = ?
                """, arguments: [intoID, fromID])
        { d.moves[r[0]] = .duplicate(transactionID: r[1]) }
        func linkOf(_ recordID: Int64) throws -> Int64 {
            guard let t = try Int64.fetchOne(db, sql: "SELECT transaction_id FROM link WHERE record_id = ?", arguments: [recordID]) else {
                throw StoreError("record \(recordID) has no transaction")
            }
            return t
        }
        // Engine decisions naming another incoming record resolve after the others.
        var toIncoming: [(Int64, Int, Double, [MatchReason])] = []
        for entry in plan.entries {
            let rid = reopened[entry.index].recordID
            guard d.moves[rid] == nil else { continue }
            switch entry.decision {
            case .alreadyPresent(let x), .update(let x): d.moves[rid] = .duplicate(transactionID: try linkOf(x))
            case .link(let t, let score, let reasons, let evidence):
                d.moves[rid] = .join(transactionID: t, score: score, reasons: reasons, evidence: evidence)
            case .supersede(_, let t, let reasons): d.moves[rid] = .join(transactionID: t, score: 1, reasons: reasons, evidence: nil)
            case .linkToIncoming(let j, let score, let reasons): toIncoming.append((rid, j, score, reasons))
            case .supersedeIncoming(let j, let reasons): toIncoming.append((rid, j, 1, reasons))
            case .new: break
            case .needsReview(let candidates):
                d.moves[rid] = .review(
                    candidates.map { c in
                        var c = c
                        if c.transactionID == nil, let i = c.incomingIndex, reopened.indices.contains(i) {
                            c.transactionID = reopened[i].transactionID
                        }
                        return c
                    })
            }
        }
        for (rid, j, score, reasons) in toIncoming {
            guard reopened.indices.contains(j) else { throw StoreError("merge plan links to a record it does not hold") }
            let other = reopened[j].recordID
            let target: Int64
            switch d.moves[other] {
            case .join(let t, _, _, _)?, .duplicate(let t)?: target = t
            case .review?, nil: target = reopened[j].transactionID
            }
            if target != txnOf[rid] { d.moves[rid] = .join(transactionID: target, score: score, reasons: reasons, evidence: nil) }
        }
        // Counts, and which of `from`'s transactions lose every record.
        var staying: [Int64: Int] = [:]
        var firstTarget: [Int64: Int64] = [:]
        for (rid, t) in txnOf.sorted(by: { $0.key < $1.key }) {
            switch d.moves[rid] {
            case .join(let target, _, _, _)?:
                d.result.linked += 1
                if target == t { staying[t, default: 0] += 1 } else if firstTarget[t] == nil { firstTarget[t] = target }
            case .duplicate(let target)?:
                d.result.alreadyPresent += 1
                if firstTarget[t] == nil { firstTarget[t] = target }
            case .review?:
                d.result.kept += 1
                d.result.needsReview += 1
                staying[t, default: 0] += 1
            case nil:
                d.result.kept += 1
                staying[t, default: 0] += 1
            }
        }
        let all = try Int64.fetchAll(db, sql: "SELECT id FROM txn WHERE account_id = ? ORDER BY id", arguments: [fromID])
        for t in all where staying[t, default: 0] == 0 { d.emptied[t] = .some(firstTarget[t]) }
        d.result.transactionsJoined = d.emptied.count
        d.result.transactionsMoved = all.count - d.emptied.count
        return d
    }
}
