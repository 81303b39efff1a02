-- The schema of a MoneyFlow store after every migration (Schema.swift, SchemaUpgrades.swift,
-- TransferTables.swift, PlaidItemStore.swift), as GRDB's dumpSchema writes it. Generated:
-- never edit by hand; after adding a migration run
-- MONEYFLOW_WRITE_SCHEMA=1 swift test --skip-build --disable-xctest --filter SchemaFileTests
-- (SchemaFileTests fails until this file matches a freshly migrated store).
-- sqlite_master
CREATE TABLE "account" (id INTEGER PRIMARY KEY AUTOINCREMENT,
name TEXT NOT NULL UNIQUE,
institution TEXT, number TEXT, type TEXT, subtype TEXT,
provider TEXT, provider_account_id TEXT,
current_balance_minor INTEGER, available_balance_minor INTEGER, balance_currency TEXT,
ledger_name TEXT,
created_at TEXT NOT NULL);
CREATE TABLE account_currency (
  account_id INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE,
  currency TEXT NOT NULL,
  PRIMARY KEY (account_id, currency)) WITHOUT ROWID;
CREATE TABLE account_key (
  key TEXT PRIMARY KEY,
  account_id INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE);
CREATE TABLE account_pair (
  account_key TEXT NOT NULL, other_account_key TEXT NOT NULL, paired_at TEXT NOT NULL,
  PRIMARY KEY (account_key, other_account_key)) WITHOUT ROWID;
CREATE TABLE balance_break (
  record_id INTEGER PRIMARY KEY, batch_id INTEGER NOT NULL, position INTEGER NOT NULL,
  expected_minor INTEGER, printed_minor INTEGER NOT NULL);
CREATE INDEX balance_break_by_batch ON balance_break(batch_id);
CREATE TABLE "batch" (id INTEGER PRIMARY KEY AUTOINCREMENT,
file_name TEXT NOT NULL, file_sha256 TEXT NOT NULL, importer TEXT NOT NULL,
imported_at TEXT NOT NULL,
new_count INTEGER NOT NULL DEFAULT 0, present_count INTEGER NOT NULL DEFAULT 0,
linked_count INTEGER NOT NULL DEFAULT 0, updated_count INTEGER NOT NULL DEFAULT 0,
review_count INTEGER NOT NULL DEFAULT 0, removed_count INTEGER NOT NULL DEFAULT 0,
warning_count INTEGER NOT NULL DEFAULT 0,
undone_at TEXT, seen_count INTEGER NOT NULL DEFAULT 0, last_seen_at TEXT);
CREATE TABLE batch_account (
  batch_id INTEGER NOT NULL, account_id INTEGER NOT NULL,
  PRIMARY KEY (batch_id, account_id)) WITHOUT ROWID;
CREATE TABLE batch_change (
  batch_id INTEGER NOT NULL REFERENCES batch(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  kind TEXT NOT NULL,
  target TEXT NOT NULL,
  old_value TEXT,
  PRIMARY KEY (batch_id, seq)) WITHOUT ROWID;
CREATE TABLE batch_warning (
  batch_id INTEGER NOT NULL REFERENCES batch(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL, message TEXT NOT NULL,
  PRIMARY KEY (batch_id, seq)) WITHOUT ROWID;
CREATE TABLE category_decision (
  transaction_id INTEGER PRIMARY KEY,
  account TEXT NOT NULL, split TEXT, decided_at TEXT NOT NULL, decided_batch INTEGER, decided_txn INTEGER);
CREATE TABLE category_setting (name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE kept_edit (
  account_key TEXT NOT NULL, source_kind TEXT NOT NULL, fingerprint TEXT NOT NULL,
  user_description TEXT, user_counterparty TEXT, user_note TEXT,
  kept_at TEXT NOT NULL, category_account TEXT, category_split TEXT, category_batch INTEGER, category_txn INTEGER,
  PRIMARY KEY (account_key, source_kind, fingerprint)) WITHOUT ROWID;
CREATE TABLE link (
  record_id INTEGER PRIMARY KEY REFERENCES record(id) ON DELETE CASCADE,
  transaction_id INTEGER NOT NULL REFERENCES txn(id),
  score REAL NOT NULL, reasons TEXT NOT NULL,
  decided_by TEXT NOT NULL CHECK (decided_by IN ('auto','user','provider')), evidence TEXT CHECK (evidence IN ('carried')));
CREATE INDEX link_by_transaction ON link(transaction_id);
CREATE TABLE month_balance (
  account_id INTEGER NOT NULL, currency TEXT NOT NULL, month TEXT NOT NULL, balance_minor INTEGER NOT NULL,
  PRIMARY KEY (account_id, currency, month)) WITHOUT ROWID;
CREATE TABLE month_total (
  account_id INTEGER NOT NULL, currency TEXT NOT NULL, month TEXT NOT NULL,
  booked INTEGER NOT NULL, category TEXT NOT NULL,
  inflow INTEGER NOT NULL, outflow INTEGER NOT NULL, out_count INTEGER NOT NULL, count INTEGER NOT NULL,
  PRIMARY KEY (account_id, currency, month, booked, category)) WITHOUT ROWID;
CREATE TABLE plaid_item (
  item_id TEXT PRIMARY KEY,
  institution_id TEXT, institution_name TEXT,
  sealed_token BLOB, key_id TEXT,
  status TEXT NOT NULL DEFAULT 'active'
    CHECK (status IN ('active','needs_user','error','removed','retired')),
  error_code TEXT, error_message TEXT,
  linked_at TEXT NOT NULL,
  last_sync_at TEXT, last_success_at TEXT, plaid_last_update TEXT,
  replaced_by TEXT,
  account_ids TEXT NOT NULL DEFAULT '[]');
CREATE TABLE "record" (id INTEGER PRIMARY KEY AUTOINCREMENT,
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
CREATE INDEX record_by_batch ON record(batch_id);
CREATE INDEX record_by_external_id ON record(source_kind, external_id) WHERE external_id IS NOT NULL;
CREATE UNIQUE INDEX record_by_fingerprint ON record(account_id, source_kind, fingerprint);
CREATE TABLE record_confirmation (
  record_id INTEGER NOT NULL REFERENCES record(id) ON DELETE CASCADE,
  batch_id INTEGER NOT NULL REFERENCES batch(id),
  line INTEGER, page INTEGER, row INTEGER, raw TEXT NOT NULL, file_seq INTEGER NOT NULL,
  PRIMARY KEY (record_id, batch_id)) WITHOUT ROWID;
CREATE INDEX record_confirmation_by_batch ON record_confirmation(batch_id);
CREATE TABLE review (
  record_id INTEGER PRIMARY KEY REFERENCES record(id) ON DELETE CASCADE,
  candidates TEXT NOT NULL);
CREATE TABLE statement_fact (
  batch_id INTEGER NOT NULL REFERENCES batch(id),
  account_id INTEGER NOT NULL,
  key TEXT NOT NULL, value TEXT NOT NULL,
  PRIMARY KEY (batch_id, account_id, key)) WITHOUT ROWID;
CREATE INDEX statement_fact_by_account ON statement_fact(account_id);
CREATE TABLE sync_progress (
  scope TEXT PRIMARY KEY, cursor TEXT NOT NULL, updated_at TEXT NOT NULL,
  batch_id INTEGER REFERENCES batch(id));
CREATE TABLE sync_scope_alias (
  account_key TEXT PRIMARY KEY, scope TEXT NOT NULL);
CREATE TABLE sync_state (
  scope TEXT PRIMARY KEY, cursor TEXT NOT NULL, updated_at TEXT NOT NULL,
  batch_id INTEGER REFERENCES batch(id));
CREATE TABLE transfer (
  out_txn INTEGER PRIMARY KEY,
  in_txn INTEGER NOT NULL,
  score REAL NOT NULL, reasons TEXT NOT NULL,
  decided_by TEXT NOT NULL CHECK (decided_by IN ('auto','user')));
CREATE INDEX transfer_by_in ON transfer(in_txn);
CREATE TABLE transfer_decision (
  out_account_key TEXT NOT NULL, out_kind TEXT NOT NULL, out_fingerprint TEXT NOT NULL,
  in_account_key TEXT NOT NULL, in_kind TEXT NOT NULL, in_fingerprint TEXT NOT NULL,
  together INTEGER NOT NULL, decided_at TEXT NOT NULL,
  PRIMARY KEY (out_account_key, out_kind, out_fingerprint, in_account_key, in_kind, in_fingerprint)) WITHOUT ROWID;
CREATE TABLE transfer_review (
  out_txn INTEGER NOT NULL, in_txn INTEGER NOT NULL,
  score REAL NOT NULL, reasons TEXT NOT NULL,
  PRIMARY KEY (out_txn, in_txn)) WITHOUT ROWID;
CREATE INDEX transfer_review_by_in ON transfer_review(in_txn);
CREATE TABLE "txn" (id INTEGER PRIMARY KEY AUTOINCREMENT,
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
CREATE TABLE txn_category (
  transaction_id INTEGER PRIMARY KEY,
  account TEXT, source TEXT NOT NULL, reason TEXT NOT NULL, split TEXT);
CREATE TABLE user_decision (
  account_id INTEGER NOT NULL, source_kind TEXT NOT NULL, fingerprint TEXT NOT NULL,
  transaction_id INTEGER,
  decided_at TEXT NOT NULL,
  PRIMARY KEY (account_id, source_kind, fingerprint)) WITHOUT ROWID;
