import GRDB

/// Where transfers between a ledger's own accounts live.
///
/// `transfer` and `transfer_review` are *derived*: after every write they are recomputed for
/// the transactions that write touched (``TransferRefresher``), from the transactions and the
/// user's verdicts alone. So an undo, a relink or a re-import can never leave a stale transfer
/// behind, and the outcome does not depend on the order files came in.
///
/// A leg is in at most one transfer (the engine guarantees it); `in_txn` is deliberately not a
/// UNIQUE key: a copy that follows a server's changes applies rows in key order, and a leg
/// passing from one pair to another would collide in between.
///
/// `account_pair` is the user's word that two accounts move money between them (evidence for
/// their transfers), kept by account keys, which outlive an undo that removes an account.
///
/// `transfer_decision` is the user's word, kept under the identities of the records behind
/// each leg (account key, source kind, fingerprint) rather than transaction ids: those survive
/// an undo and a re-import of the same statement, which makes new transaction ids.
enum TransferTables {
    static func create(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE transfer (
                  out_txn INTEGER PRIMARY KEY,
                  in_txn INTEGER NOT NULL,
                  score REAL NOT NULL, reasons TEXT NOT NULL,
                  decided_by TEXT NOT NULL CHECK (decided_by IN ('auto','user')));
                CREATE INDEX transfer_by_in ON transfer(in_txn);
                CREATE TABLE transfer_review (
                  out_txn INTEGER NOT NULL, in_txn INTEGER NOT NULL,
                  score REAL NOT NULL, reasons TEXT NOT NULL,
                  PRIMARY KEY (out_txn, in_txn)) WITHOUT ROWID;
                CREATE INDEX transfer_review_by_in ON transfer_review(in_txn);
                CREATE TABLE transfer_decision (
                  out_account_key TEXT NOT NULL, out_kind TEXT NOT NULL, out_fingerprint TEXT NOT NULL,
                  in_account_key TEXT NOT NULL, in_kind TEXT NOT NULL, in_fingerprint TEXT NOT NULL,
                  together INTEGER NOT NULL, decided_at TEXT NOT NULL,
                  PRIMARY KEY (out_account_key, out_kind, out_fingerprint, in_account_key, in_kind, in_fingerprint)) WITHOUT ROWID;
                CREATE TABLE account_pair (
                  account_key TEXT NOT NULL, other_account_key TEXT NOT NULL, paired_at TEXT NOT NULL,
                  PRIMARY KEY (account_key, other_account_key)) WITHOUT ROWID;
                """)
    }

    /// Notes, on the writing connection, every transaction a write inserts, deletes or changes
    /// in a way that matters to transfers, so the write can settle them before it commits.
    /// Temporary (per connection, rolled back with the write); `mf_` tables are never copied
    /// to a server. Starts each write empty: rows a working copy fetched from the server before
    /// the write (another process's writes, settled there) are not this write's business.
    /// `ON CONFLICT DO NOTHING` rather than `INSERT OR IGNORE`: an outer upsert's conflict
    /// policy overrides a trigger's `OR` (the working copy applies server rows by upsert), not
    /// its upsert clause.
    static func track(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TEMP TABLE IF NOT EXISTS mf_touched_txn (id INTEGER PRIMARY KEY);
                CREATE TEMP TRIGGER IF NOT EXISTS mf_touched_txn_insert AFTER INSERT ON main.txn
                BEGIN INSERT INTO mf_touched_txn(id) VALUES (NEW.id) ON CONFLICT DO NOTHING; END;
                CREATE TEMP TRIGGER IF NOT EXISTS mf_touched_txn_delete AFTER DELETE ON main.txn
                BEGIN INSERT INTO mf_touched_txn(id) VALUES (OLD.id) ON CONFLICT DO NOTHING; END;
                CREATE TEMP TRIGGER IF NOT EXISTS mf_touched_txn_update
                AFTER UPDATE OF account_id, date, amount_minor, currency, description, counterparty, note, category,
                                user_description, user_counterparty, user_note, status ON main.txn
                BEGIN INSERT INTO mf_touched_txn(id) VALUES (NEW.id) ON CONFLICT DO NOTHING; END;
                DELETE FROM mf_touched_txn;
                """)
    }
}
