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
                      name TEXT NOT NULL UNIQUE,
                      institution TEXT, number TEXT, type TEXT, subtype TEXT,
                      provider TEXT, provider_account_id TEXT,
                      current_balance_minor INTEGER, available_balance_minor INTEGER, balance_currency TEXT,
                      ledger_name TEXT,
                      created_at TEXT NOT NULL);
                    CREATE TABLE account_key (
                      key TEXT PRIMARY KEY,
                      account_id INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE);
                    CREATE TABLE account_currency (
                      account_id INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                      currency TEXT NOT NULL,
                      PRIMARY KEY (account_id, currency)) WITHOUT ROWID;
                    CREATE TABLE batch (
                      id INTEGER PRIMARY KEY,
                      file_name TEXT NOT NULL, file_sha256 TEXT NOT NULL, importer TEXT NOT NULL,
                      imported_at TEXT NOT NULL,
                      new_count INTEGER NOT NULL DEFAULT 0, present_count INTEGER NOT NULL DEFAULT 0,
                      linked_count INTEGER NOT NULL DEFAULT 0, updated_count INTEGER NOT NULL DEFAULT 0,
                      review_count INTEGER NOT NULL DEFAULT 0, removed_count INTEGER NOT NULL DEFAULT 0,
                      warning_count INTEGER NOT NULL DEFAULT 0,
                      undone_at TEXT);
                    CREATE TABLE batch_warning (
                      batch_id INTEGER NOT NULL REFERENCES batch(id) ON DELETE CASCADE,
                      seq INTEGER NOT NULL, message TEXT NOT NULL,
                      PRIMARY KEY (batch_id, seq)) WITHOUT ROWID;
                    CREATE TABLE txn (
                      id INTEGER PRIMARY KEY,
                      account_id INTEGER NOT NULL REFERENCES account(id),
                      date TEXT NOT NULL, amount_minor INTEGER NOT NULL, currency TEXT NOT NULL,
                      description TEXT NOT NULL, counterparty TEXT, note TEXT, balance_minor INTEGER,
                      category TEXT, pending INTEGER NOT NULL DEFAULT 0,
                      status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active','void')),
                      needs_review INTEGER NOT NULL DEFAULT 0,
                      user_description TEXT, user_counterparty TEXT, user_note TEXT,
                      created_batch_id INTEGER NOT NULL REFERENCES batch(id),
                      sort_key INTEGER NOT NULL);
                    CREATE INDEX txn_by_account_date ON txn(account_id, currency, date);
                    CREATE TABLE record (
                      id INTEGER PRIMARY KEY,
                      batch_id INTEGER NOT NULL REFERENCES batch(id),
                      account_id INTEGER NOT NULL REFERENCES account(id),
                      source_kind TEXT NOT NULL, fingerprint TEXT NOT NULL,
                      external_id TEXT, pending_external_id TEXT,
                      date TEXT NOT NULL, authorized_date TEXT, time TEXT,
                      amount_minor INTEGER NOT NULL, currency TEXT NOT NULL,
                      description TEXT NOT NULL, counterparty TEXT, note TEXT,
                      balance_minor INTEGER, category TEXT, pending INTEGER NOT NULL DEFAULT 0,
                      state TEXT NOT NULL DEFAULT 'active' CHECK (state IN ('active','superseded','removed')),
                      line INTEGER, page INTEGER, row INTEGER, raw TEXT NOT NULL,
                      file_seq INTEGER NOT NULL);
                    CREATE UNIQUE INDEX record_by_fingerprint ON record(account_id, source_kind, fingerprint);
                    CREATE INDEX record_by_external_id ON record(source_kind, external_id) WHERE external_id IS NOT NULL;
                    CREATE INDEX record_by_batch ON record(batch_id);
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
