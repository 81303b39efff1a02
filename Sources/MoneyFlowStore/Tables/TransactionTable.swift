import GRDB
import MoneyFlowCore

/// The `txn` table's one owner: a transaction as the ledger shows it. Its shown fields are
/// derived from the records linked to it (``MergedViewPass``), except the user's own
/// (`user_*`), which nothing but the user writes. Every writer and query of the store takes
/// the table's columns and INSERT/UPDATE statements from here.
enum TransactionTable {
    /// The columns after `id` as migration v1 created the table (v3 rebuilt it with the same
    /// columns and an AUTOINCREMENT id). Frozen: migrations replay it.
    static let createdColumns = """
        account_id INTEGER NOT NULL REFERENCES account(id),
        date TEXT NOT NULL, amount_minor INTEGER NOT NULL, currency TEXT NOT NULL,
        description TEXT NOT NULL, counterparty TEXT, note TEXT, balance_minor INTEGER,
        category TEXT, pending INTEGER NOT NULL DEFAULT 0,
        status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active','void')),
        needs_review INTEGER NOT NULL DEFAULT 0,
        user_description TEXT, user_counterparty TEXT, user_note TEXT,
        created_batch_id INTEGER NOT NULL REFERENCES batch(id),
        sort_key INTEGER NOT NULL
        """

    /// The table's indexes (frozen like ``createdColumns``).
    static let indexes = ["CREATE INDEX txn_by_account_date ON txn(account_id, currency, date)"]

    /// A transaction's place in the ledger's order among those of one day: its first record's
    /// batch, then that record's place in the batch's file.
    static func sortKey(batchID: Int64, fileSeq: Int64) -> Int64 { batchID * sortKeyBatchFactor + fileSeq }
    static let sortKeyBatchFactor: Int64 = 10_000_000

    // MARK: A new transaction

    /// The columns an import writes for a new transaction, in ``bindNew(_:_:id:accountID:record:needsReview:batchID:sortKey:)`` order.
    static let insertColumns = [
        "id", "account_id", "date", "amount_minor", "currency", "description", "counterparty", "note",
        "balance_minor", "category", "pending", "needs_review", "created_batch_id", "sort_key",
    ]

    /// Binds one new transaction's ``insertColumns`` from parameter `p` on (`id` 0: SQLite
    /// picks it). Its shown fields are those of `record`, its only record so far: the merged
    /// view of one record is that record (``SourcePrecedence/merge(_:)``), and a transaction
    /// another record joins in the same write is merged again by ``MergedViewPass``.
    static func bindNew(
        _ s: RawStatement, _ p: Int32, id: Int64, accountID: Int64, record r: IncomingRecord, needsReview: Bool, batchID: Int64,
        sortKey: Int64
    ) {
        if id == 0 { s.bindNull(p) } else { s.bind(p, id) }
        s.bind(p + 1, accountID); s.bind(p + 2, r.date.iso); s.bind(p + 3, r.amount.minorUnits); s.bind(p + 4, r.amount.currency)
        s.bind(p + 5, r.description); s.bind(p + 6, r.counterparty); s.bind(p + 7, r.note); s.bind(p + 8, r.balance?.minorUnits)
        s.bind(p + 9, r.category); s.bind(p + 10, r.pending); s.bind(p + 11, needsReview); s.bind(p + 12, batchID)
        s.bind(p + 13, sortKey)
    }

    /// Inserts a transaction for stored record `recordID` alone (its place in the ledger
    /// follows the record's own batch and row); `createdBatch` nil = the record's batch. Its
    /// shown fields are settled by ``MergedViewPass`` when the record's link moves to it.
    static func insertStandalone(_ db: Database, forRecord recordID: Int64, createdBatch: Int64?, needsReview: Bool) throws -> Int64 {
        try db.execute(
            sql: """
                INSERT INTO txn(account_id, date, amount_minor, currency, description, counterparty, pending, needs_review, created_batch_id, sort_key)
                SELECT account_id, date, amount_minor, currency, description, counterparty, pending, ?, coalesce(?, batch_id), batch_id * \(sortKeyBatchFactor) + file_seq
                FROM record WHERE id = ?
                """, arguments: [needsReview, createdBatch, recordID])
        return db.lastInsertedRowID
    }

    // MARK: The merged view

    /// Writes merged views ``SourcePrecedence/Merged`` on transactions (live again if they were
    /// void): one statement prepared for a whole pass and bound by position, since the merged
    /// view pass writes one per transaction whose records changed (90,000 when a statement
    /// joins the Plaid side).
    struct MergedWriter {
        private let update: RawStatement

        init(_ db: Database) throws {
            update = try RawStatement(
                db,
                sql: """
                    UPDATE txn SET date = ?, amount_minor = ?, currency = ?, description = ?, counterparty = ?, note = ?,
                                   balance_minor = ?, category = ?, pending = ?, status = 'active'
                    WHERE id = ?
                    """)
        }

        /// Writes the merged view `m` on transaction `id`.
        func write(_ id: Int64, _ m: SourcePrecedence.Merged) throws {
            let p = m.primary, s = update
            s.bind(1, p.date); s.bind(2, p.amountMinor); s.bind(3, p.currency); s.bind(4, p.description); s.bind(5, m.counterparty)
            s.bind(6, m.note); s.bind(7, p.balanceMinor); s.bind(8, m.category); s.bind(9, m.pending); s.bind(10, id)
            try s.execute()
        }
    }

    /// Voids transaction `id` (no active record supports it).
    static func void(_ db: Database, _ id: Int64) throws {
        try db.cachedStatement(sql: "UPDATE txn SET status = 'void' WHERE id = ?").execute(arguments: [id])
    }

    static func delete(_ db: Database, _ id: Int64) throws {
        try db.cachedStatement(sql: "DELETE FROM txn WHERE id = ?").execute(arguments: [id])
    }

    /// Sets whether transaction `id` waits for review (`needs_review`).
    static func setNeedsReview(_ db: Database, _ id: Int64, _ needsReview: Bool) throws {
        try db.cachedStatement(sql: "UPDATE txn SET needs_review = ? WHERE id = ?").execute(arguments: [needsReview, id])
    }

    // MARK: The user's own fields

    /// The user's own fields, shown over the merged ones (`coalesce(user_description, description)` …).
    static let userColumns = ["user_description", "user_counterparty", "user_note"]

    /// Fills the user's fields of transaction `id` that are still empty with `values` (in
    /// ``userColumns`` order): an edit the user made since is never overwritten.
    static func fillUserFields(_ db: Database, _ id: Int64, _ values: [String?]) throws {
        var arguments = StatementArguments(values)
        arguments += [id]
        try db.cachedStatement(
            sql: "UPDATE txn SET \(userColumns.map { "\($0) = coalesce(\($0), ?)" }.joined(separator: ", ")) WHERE id = ?"
        ).execute(arguments: arguments)
    }

    /// The user's fields of transaction `id` (in ``userColumns`` order), nil when it has none set.
    static func userFields(_ db: Database, _ id: Int64) throws -> [String?]? {
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT \(userColumns.joined(separator: ", ")) FROM txn
                        WHERE id = ? AND (\(userColumns.map { "\($0) IS NOT NULL" }.joined(separator: " OR ")))
                        """), arguments: [id])
        else { return nil }
        return userColumns.indices.map { row[$0] }
    }

    /// Clears the user's fields of transaction `id`.
    static func clearUserFields(_ db: Database, _ id: Int64) throws {
        try db.execute(sql: "UPDATE txn SET \(userColumns.map { "\($0) = NULL" }.joined(separator: ", ")) WHERE id = ?", arguments: [id])
    }

    /// Sets one user field (`user_description`, …) of transaction `id`; nil clears it.
    static func setUserField(_ db: Database, _ id: Int64, _ column: String, _ value: String?) throws {
        precondition(userColumns.contains(column), "\(column) is not a user field of txn")
        try db.execute(sql: "UPDATE txn SET \(column) = ? WHERE id = ?", arguments: [value, id])
    }
}
