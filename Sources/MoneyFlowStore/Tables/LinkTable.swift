import GRDB
import MoneyFlowCore

/// The `link` table's one owner: which transaction each record supports, who decided it
/// (`auto`, `user`, `provider`), with the engine's score and reasons and the typed evidence
/// the link asserts for later imports (``LinkEvidence``). Every writer, snapshot and query of
/// the store takes its columns and INSERT/UPDATE statements from here.
enum LinkTable {
    /// The columns a new link is written with, in ``bindNew(_:_:recordID:transactionID:score:reasonsJSON:decidedBy:evidence:)`` order.
    static let insertColumns = ["record_id", "transaction_id", "score", "reasons", "decided_by", "evidence"]

    /// Binds one new link's ``insertColumns`` from parameter `p` on.
    static func bindNew(
        _ s: RawStatement, _ p: Int32, recordID: Int64, transactionID: Int64, score: Double, reasonsJSON: String, decidedBy: String,
        evidence: LinkEvidence?
    ) {
        s.bind(p, recordID); s.bind(p + 1, transactionID); s.bind(p + 2, score); s.bind(p + 3, reasonsJSON)
        s.bind(p + 4, decidedBy); s.bind(p + 5, evidence?.rawValue)
    }

    /// The transaction record `recordID` supports, nil when it has no link.
    static func transaction(ofRecord recordID: Int64, _ db: Database) throws -> Int64? {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT transaction_id FROM link WHERE record_id = ?"), arguments: [recordID])
    }

    /// How many records (of any state) support transaction `transactionID`.
    static func recordCount(ofTransaction transactionID: Int64, _ db: Database) throws -> Int {
        try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM link WHERE transaction_id = ?"), arguments: [transactionID]) ?? 0
    }

    /// Moves record `recordID`'s link to `transactionID` with a new decision (an engine relink,
    /// a merge joining a record, an undo putting a relink back).
    static func move(
        _ db: Database, recordID: Int64, to transactionID: Int64, score: Double, reasonsJSON: String, decidedBy: String,
        evidence: String?
    ) throws {
        try db.cachedStatement(
            sql: "UPDATE link SET transaction_id = ?, score = ?, reasons = ?, decided_by = ?, evidence = ? WHERE record_id = ?"
        ).execute(arguments: [transactionID, score, reasonsJSON, decidedBy, evidence, recordID])
    }

    /// The user's decision: record `recordID` supports `transactionID` (score 1, the user's
    /// reason, no engine evidence), whether or not it had a link.
    static func setByUser(_ db: Database, recordID: Int64, to transactionID: Int64, reasonsJSON: String) throws {
        try db.execute(
            sql: """
                INSERT INTO link(record_id, transaction_id, score, reasons, decided_by) VALUES (?, ?, 1, ?, 'user')
                ON CONFLICT(record_id) DO UPDATE SET transaction_id = excluded.transaction_id, score = 1, reasons = excluded.reasons, decided_by = 'user', evidence = NULL
                """, arguments: [recordID, transactionID, reasonsJSON])
    }

    /// Record `recordID`'s link and review row as a ``LinkSnapshot`` (kept before a relink).
    static func snapshot(_ db: Database, recordID: Int64) throws -> LinkSnapshot? {
        try Row.fetchOne(
            db,
            sql: """
                SELECT l.transaction_id, l.score, l.reasons, l.decided_by, rv.candidates, l.evidence
                FROM link l LEFT JOIN review rv ON rv.record_id = l.record_id WHERE l.record_id = ?
                """, arguments: [recordID]
        ).map { r in
            LinkSnapshot(transactionID: r[0], score: r[1], reasons: r[2], decidedBy: r[3], reviewCandidates: r[4], evidence: r[5])
        }
    }
}
