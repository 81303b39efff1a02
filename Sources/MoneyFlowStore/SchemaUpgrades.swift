import GRDB

/// Migrations after v2 (never edit a shipped migration; add a new one).
enum SchemaUpgrades {
    static func register(_ m: inout DatabaseMigrator) {
        // Ids are never reused: an old export or a script that wrote an id down must never
        // point at another row after an undo deleted the one it meant. SQLite hands out
        // max(id) + 1 unless the key is AUTOINCREMENT (which remembers the largest id ever
        // used in sqlite_sequence), and a key cannot be altered in place: the four tables
        // whose ids users see or that other rows point at are rebuilt with the same columns.
        // (Ids deleted before this migration ran, above today's largest, cannot be known.)
        m.registerMigration("v3-never-reuse-ids") { db in
            try rebuild(db, "account", "id INTEGER PRIMARY KEY AUTOINCREMENT,\n" + AccountTable.createdColumns, indexes: [])
            try rebuild(db, "batch", "id INTEGER PRIMARY KEY AUTOINCREMENT,\n" + BatchTable.createdColumns, indexes: [])
            try rebuild(
                db, "txn", "id INTEGER PRIMARY KEY AUTOINCREMENT,\n" + TransactionTable.createdColumns, indexes: TransactionTable.indexes)
            try rebuild(db, "record", "id INTEGER PRIMARY KEY AUTOINCREMENT,\n" + RecordTable.createdColumns, indexes: RecordTable.indexes)
        }
        // Which later batches confirmed a stored record ("already present" or a provider
        // update), with where the record sits in their file: undoing the record's own batch
        // hands the record to the earliest confirming batch still active instead of deleting
        // what that batch also holds.
        m.registerMigration("v4-record-confirmation") { db in
            try db.execute(
                sql: """
                    CREATE TABLE record_confirmation (
                      record_id INTEGER NOT NULL REFERENCES record(id) ON DELETE CASCADE,
                      batch_id INTEGER NOT NULL REFERENCES batch(id),
                      line INTEGER, page INTEGER, row INTEGER, raw TEXT NOT NULL, file_seq INTEGER NOT NULL,
                      PRIMARY KEY (record_id, batch_id)) WITHOUT ROWID;
                    CREATE INDEX record_confirmation_by_batch ON record_confirmation(batch_id);
                    """)
        }
        // User edits of a transaction that an undo removed, keyed by the identity of its
        // records, so importing those rows again brings the edit back. The account is named by
        // its import key, not its id: the undo may remove the account too, and the import
        // that brings the rows back creates it again under a new id.
        m.registerMigration("v5-kept-edits") { db in
            try db.execute(
                sql: """
                    CREATE TABLE kept_edit (
                      account_key TEXT NOT NULL, source_kind TEXT NOT NULL, fingerprint TEXT NOT NULL,
                      user_description TEXT, user_counterparty TEXT, user_note TEXT,
                      kept_at TEXT NOT NULL,
                      PRIMARY KEY (account_key, source_kind, fingerprint)) WITHOUT ROWID;
                    """)
        }
        // A re-import of the same bytes that changed nothing is counted on the batch that
        // imported them (see PlanApplier.identicalEarlierBatch) instead of as a new row.
        m.registerMigration("v6-batch-seen") { db in
            try db.execute(
                sql: """
                    ALTER TABLE batch ADD COLUMN seen_count INTEGER NOT NULL DEFAULT 0;
                    ALTER TABLE batch ADD COLUMN last_seen_at TEXT;
                    """)
        }
        m.registerMigration("v7-plaid-items") { db in try PlaidItemTable.create(db) }
        m.registerMigration("v8-transfers") { db in try TransferTables.create(db) }
        // The facts a statement prints about its account (a card bill's 账单日, 本期还款总额 ...),
        // per import: shown by `batches` and, for the newest bill, by `accounts`; removed with
        // the batch on undo. Self-contained (no other table changes).
        m.registerMigration("v9-statement-facts") { db in
            try db.execute(
                sql: """
                    CREATE TABLE statement_fact (
                      batch_id INTEGER NOT NULL REFERENCES batch(id),
                      account_id INTEGER NOT NULL,
                      key TEXT NOT NULL, value TEXT NOT NULL,
                      PRIMARY KEY (batch_id, account_id, key)) WITHOUT ROWID;
                    CREATE INDEX statement_fact_by_account ON statement_fact(account_id);
                    """)
        }
        // OFX records' `external_id` is the bank's FITID, as the JSON contract promises (the
        // provider's own id). It used to carry the account's tag (`6142b9d8:FITID`) because banks
        // reuse FITIDs across accounts; the tag stays where identity lives, in the fingerprint
        // (`id:6142b9d8:FITID`, see IncomingRecord.externalIDScope), so re-importing the same
        // download still matches record for record, and uniqueness stays per account. Only ids
        // whose fingerprint is exactly that tagged id are rewritten.
        m.registerMigration("v10-ofx-fitid") { db in
            try db.execute(
                sql: """
                    UPDATE record SET external_id = substr(external_id, 10)
                    WHERE source_kind = 'ofx' AND external_id IS NOT NULL AND fingerprint = 'id:' || external_id
                      AND substr(external_id, 9, 1) = ':'
                      AND substr(external_id, 1, 8) GLOB '[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]'
                    """)
        }
        // What an engine link asserts for later imports (`LinkEvidence`: `carried`, its texts are
        // a learned alias) is a column, written from the engine's typed decision; the reasons
        // are sentences for people and may be reworded. Existing links (and the links an undo
        // puts back after a relink) take it from the reason that used to say it.
        m.registerMigration("v11-link-evidence") { db in
            try db.execute(
                sql: """
                    ALTER TABLE link ADD COLUMN evidence TEXT CHECK (evidence IN ('carried'));
                    UPDATE link SET evidence = 'carried'
                    WHERE decided_by = 'auto'
                      AND EXISTS (SELECT 1 FROM json_each(link.reasons) j WHERE json_extract(j.value, '$.factor') = 'carried');
                    UPDATE batch_change SET old_value = json_set(old_value, '$.evidence', 'carried')
                    WHERE kind = 'link_moved' AND json_extract(old_value, '$.decidedBy') = 'auto'
                      AND EXISTS (SELECT 1 FROM json_each(json_extract(batch_change.old_value, '$.reasons')) j
                                  WHERE json_extract(j.value, '$.factor') = 'carried');
                    """)
        }
        // Categories (#27): the user's decisions, the computed category of every transaction
        // (derived after every write by CategoryPass) and the rules and mapping it uses.
        // Every existing transaction is categorised once here, by the pass's own code.
        m.registerMigration("v12-categories") { db in
            try CategoryTable.create(db)
            try CategorySettingTable.create(db)
            try CategoryPass.track(db)
            try db.execute(sql: "INSERT INTO mf_category_all(one) VALUES (1)")
            try CategoryPass.settle(db)
        }
        // A user's category decision is kept like the user's text edits (v5): when an undo
        // removes the transaction, by its records' identity, and it comes back with those rows.
        m.registerMigration("v13-kept-category-decisions") { db in
            try db.execute(
                sql: """
                    ALTER TABLE kept_edit ADD COLUMN category_account TEXT;
                    ALTER TABLE kept_edit ADD COLUMN category_split TEXT;
                    """)
        }
        // A decision names the categorize batch that made it and the transaction that batch's
        // change names, also once it followed its rows to another transaction (kept by an undo,
        // restored by a re-import): undoing that batch finds it there. Existing decisions get
        // the latest active categorize batch that set them.
        m.registerMigration("v14-category-decision-origin") { db in
            try db.execute(
                sql: """
                    ALTER TABLE category_decision ADD COLUMN decided_batch INTEGER;
                    ALTER TABLE category_decision ADD COLUMN decided_txn INTEGER;
                    ALTER TABLE kept_edit ADD COLUMN category_batch INTEGER;
                    ALTER TABLE kept_edit ADD COLUMN category_txn INTEGER;
                    UPDATE category_decision SET decided_txn = transaction_id, decided_batch = (
                      SELECT max(c.batch_id) FROM batch_change c JOIN batch b ON b.id = c.batch_id
                      WHERE c.kind = 'category_decision' AND c.target = CAST(category_decision.transaction_id AS TEXT) AND b.undone_at IS NULL);
                    UPDATE category_decision SET decided_txn = NULL WHERE decided_batch IS NULL;
                    """)
        }
        // The home page's sums (#29), kept by every write (``SummaryPass``) instead of scanned
        // on every view; an existing ledger's are computed once here, by the pass's own code.
        m.registerMigration("v15-ledger-summaries") { db in
            try SummaryTables.create(db)
            try SummaryTables.fill(db)
        }
    }

    /// Recreates `table` with `columns` (same names and order), keeping every row and id.
    private static func rebuild(_ db: Database, _ table: String, _ columns: String, indexes: [String]) throws {
        try db.execute(sql: "CREATE TABLE \(table)_rebuilt (\(columns))")
        try db.execute(sql: "INSERT INTO \(table)_rebuilt SELECT * FROM \(table)")
        try db.execute(sql: "DROP TABLE \(table)")
        try db.execute(sql: "ALTER TABLE \(table)_rebuilt RENAME TO \(table)")
        for sql in indexes { try db.execute(sql: sql) }
    }
}
