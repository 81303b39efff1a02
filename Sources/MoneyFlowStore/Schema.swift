import GRDB

/// The store's schema, as GRDB migrations (never edit a shipped migration; add a new one).
enum Schema {
    static var migrator: DatabaseMigrator {
        var m = DatabaseMigrator()
        m.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE account (
                    id INTEGER PRIMARY KEY,
                    \(AccountTable.createdColumns));
                    CREATE TABLE account_key (
                      key TEXT PRIMARY KEY,
                      account_id INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE);
                    CREATE TABLE account_currency (
                      account_id INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                      currency TEXT NOT NULL,
                      PRIMARY KEY (account_id, currency)) WITHOUT ROWID;
                    CREATE TABLE batch (
                    id INTEGER PRIMARY KEY,
                    \(BatchTable.createdColumns));
                    CREATE TABLE batch_warning (
                      batch_id INTEGER NOT NULL REFERENCES batch(id) ON DELETE CASCADE,
                      seq INTEGER NOT NULL, message TEXT NOT NULL,
                      PRIMARY KEY (batch_id, seq)) WITHOUT ROWID;
                    CREATE TABLE txn (
                    id INTEGER PRIMARY KEY,
                    \(TransactionTable.createdColumns));
                    \(TransactionTable.indexes.joined(separator: ";\n"));
                    CREATE TABLE record (
                    id INTEGER PRIMARY KEY,
                    \(RecordTable.createdColumns));
                    \(RecordTable.indexes.joined(separator: ";\n"));
                    CREATE TABLE link (
                      record_id INTEGER PRIMARY KEY REFERENCES record(id) ON DELETE CASCADE,
                      transaction_id INTEGER NOT NULL REFERENCES txn(id),
                      score REAL NOT NULL, reasons TEXT NOT NULL,
                      decided_by TEXT NOT NULL CHECK (decided_by IN ('auto','user','provider')));
                    CREATE INDEX link_by_transaction ON link(transaction_id);
                    CREATE TABLE review (
                      record_id INTEGER PRIMARY KEY REFERENCES record(id) ON DELETE CASCADE,
                      candidates TEXT NOT NULL);
                    CREATE TABLE user_decision (
                      account_id INTEGER NOT NULL, source_kind TEXT NOT NULL, fingerprint TEXT NOT NULL,
                      transaction_id INTEGER,
                      decided_at TEXT NOT NULL,
                      PRIMARY KEY (account_id, source_kind, fingerprint)) WITHOUT ROWID;
                    CREATE TABLE sync_state (
                      scope TEXT PRIMARY KEY, cursor TEXT NOT NULL, updated_at TEXT NOT NULL,
                      batch_id INTEGER REFERENCES batch(id));
                    CREATE TABLE batch_change (
                      batch_id INTEGER NOT NULL REFERENCES batch(id) ON DELETE CASCADE,
                      seq INTEGER NOT NULL,
                      kind TEXT NOT NULL,
                      target TEXT NOT NULL,
                      old_value TEXT,
                      PRIMARY KEY (batch_id, seq)) WITHOUT ROWID;
                    """)
        }
        m.registerMigration("v2-sync-progress") { db in
            try db.execute(
                sql: """
                    CREATE TABLE sync_progress (
                      scope TEXT PRIMARY KEY, cursor TEXT NOT NULL, updated_at TEXT NOT NULL,
                      batch_id INTEGER REFERENCES batch(id));
                    CREATE TABLE sync_scope_alias (
                      account_key TEXT PRIMARY KEY, scope TEXT NOT NULL);
                    """)
        }
        SchemaUpgrades.register(&m)
        return m
    }
}
