import GRDB

/// The home page's sums as a pass of a write (see ``WritePasses`` and ``SummaryTables``): runs
/// last, after the categories are settled, and recomputes only what the write's changes reach.
///
/// Temporary triggers note, from the write's start, the (account, currency, month) of every
/// transaction inserted, deleted or changed in a field a sum reads (old and new values), and of
/// every transaction whose category row came, went or changed; and the batch of every record
/// inserted, deleted or changed in a field a balance run reads. Settling recomputes those months
/// from the transactions of each (one range of the `txn_by_account_date` index), and those
/// batches' balance runs and accounts from their records (the `record_by_batch` index). A
/// 100,000-row import notes 24 months and one batch; a category choice notes one month.
enum SummaryPass {
    /// Before the write's own changes: starts noting what it changes.
    static func track(_ db: Database) throws {
        let month = "INSERT INTO mf_summary_month(account_id, currency, month)"
        let batch = "INSERT INTO mf_summary_batch(batch_id)"
        // The month of the transaction a category row (`NEW` or `OLD`) belongs to.
        func categoryMonth(_ row: String) -> String {
            "\(month) SELECT account_id, currency, substr(date, 1, 7) FROM main.txn WHERE id = \(row).transaction_id ON CONFLICT DO NOTHING;"
        }
        try db.execute(
            sql: """
                CREATE TEMP TABLE IF NOT EXISTS mf_summary_month (
                  account_id INTEGER NOT NULL, currency TEXT NOT NULL, month TEXT NOT NULL,
                  PRIMARY KEY (account_id, currency, month)) WITHOUT ROWID;
                CREATE TEMP TABLE IF NOT EXISTS mf_summary_batch (batch_id INTEGER PRIMARY KEY);
                CREATE TEMP TRIGGER IF NOT EXISTS mf_summary_txn_insert AFTER INSERT ON main.txn
                BEGIN \(month) VALUES (NEW.account_id, NEW.currency, substr(NEW.date, 1, 7)) ON CONFLICT DO NOTHING; END;
                CREATE TEMP TRIGGER IF NOT EXISTS mf_summary_txn_delete AFTER DELETE ON main.txn
                BEGIN \(month) VALUES (OLD.account_id, OLD.currency, substr(OLD.date, 1, 7)) ON CONFLICT DO NOTHING; END;
                CREATE TEMP TRIGGER IF NOT EXISTS mf_summary_txn_update
                AFTER UPDATE OF account_id, currency, date, amount_minor, status, balance_minor, sort_key ON main.txn
                BEGIN
                  \(month) VALUES (OLD.account_id, OLD.currency, substr(OLD.date, 1, 7)) ON CONFLICT DO NOTHING;
                  \(month) VALUES (NEW.account_id, NEW.currency, substr(NEW.date, 1, 7)) ON CONFLICT DO NOTHING;
                END;
                CREATE TEMP TRIGGER IF NOT EXISTS mf_summary_category_insert AFTER INSERT ON main.txn_category
                BEGIN \(categoryMonth("NEW")) END;
                CREATE TEMP TRIGGER IF NOT EXISTS mf_summary_category_delete AFTER DELETE ON main.txn_category
                BEGIN \(categoryMonth("OLD")) END;
                CREATE TEMP TRIGGER IF NOT EXISTS mf_summary_category_update AFTER UPDATE ON main.txn_category
                BEGIN
                  \(categoryMonth("OLD"))
                  \(categoryMonth("NEW"))
                END;
                CREATE TEMP TRIGGER IF NOT EXISTS mf_summary_record_insert AFTER INSERT ON main.record
                BEGIN \(batch) VALUES (NEW.batch_id) ON CONFLICT DO NOTHING; END;
                CREATE TEMP TRIGGER IF NOT EXISTS mf_summary_record_delete AFTER DELETE ON main.record
                BEGIN \(batch) VALUES (OLD.batch_id) ON CONFLICT DO NOTHING; END;
                CREATE TEMP TRIGGER IF NOT EXISTS mf_summary_record_update
                AFTER UPDATE OF batch_id, account_id, source_kind, date, amount_minor, currency, balance_minor, state, file_seq ON main.record
                BEGIN
                  \(batch) VALUES (OLD.batch_id) ON CONFLICT DO NOTHING;
                  \(batch) VALUES (NEW.batch_id) ON CONFLICT DO NOTHING;
                END;
                DELETE FROM mf_summary_month;
                DELETE FROM mf_summary_batch;
                """)
    }

    /// Recomputes the noted months and batches, then forgets them.
    static func settle(_ db: Database) throws {
        if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM mf_summary_month)") == true {
            try settleMonths(db)
        }
        if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM mf_summary_batch)") == true {
            try settleBatches(db)
        }
        try db.execute(sql: "DELETE FROM mf_summary_month; DELETE FROM mf_summary_batch;")
    }

    /// Each noted month from its live transactions, read through the account/date index.
    private static func settleMonths(_ db: Database) throws {
        try db.execute(
            sql: """
                DELETE FROM month_total WHERE (account_id, currency, month) IN (SELECT account_id, currency, month FROM mf_summary_month);
                DELETE FROM month_balance WHERE (account_id, currency, month) IN (SELECT account_id, currency, month FROM mf_summary_month);
                INSERT INTO month_total (account_id, currency, month, booked, category, inflow, outflow, out_count, count)
                SELECT g.account_id, g.currency, g.month, c.transaction_id IS NOT NULL, coalesce(c.account, ''),
                  sum(CASE WHEN t.amount_minor > 0 THEN t.amount_minor ELSE 0 END),
                  sum(CASE WHEN t.amount_minor < 0 THEN -t.amount_minor ELSE 0 END),
                  sum(t.amount_minor < 0), count(*)
                FROM mf_summary_month g JOIN main.txn t INDEXED BY txn_by_account_date
                  ON t.account_id = g.account_id AND t.currency = g.currency
                 AND t.date BETWEEN g.month || '-01' AND g.month || '-31'
                LEFT JOIN main.txn_category c ON c.transaction_id = t.id
                WHERE t.status = 'active'
                GROUP BY g.account_id, g.currency, g.month, c.transaction_id IS NOT NULL, coalesce(c.account, '');
                INSERT INTO month_balance (account_id, currency, month, balance_minor)
                SELECT account_id, currency, month, balance FROM (
                  SELECT g.account_id, g.currency, g.month,
                    (SELECT t.balance_minor FROM main.txn t INDEXED BY txn_by_account_date
                     WHERE t.account_id = g.account_id AND t.currency = g.currency
                       AND t.date BETWEEN g.month || '-01' AND g.month || '-31'
                       AND t.status = 'active' AND t.balance_minor IS NOT NULL
                     ORDER BY t.date DESC, t.sort_key DESC, t.id DESC LIMIT 1) AS balance
                  FROM mf_summary_month g)
                WHERE balance IS NOT NULL;
                """)
    }

    /// The noted batches' accounts, and their balance runs' breaks (``BalanceBreakScan``).
    private static func settleBatches(_ db: Database) throws {
        try db.execute(
            sql: """
                DELETE FROM batch_account WHERE batch_id IN (SELECT batch_id FROM mf_summary_batch);
                INSERT INTO batch_account (batch_id, account_id)
                SELECT DISTINCT r.batch_id, r.account_id FROM mf_summary_batch n JOIN main.record r ON r.batch_id = n.batch_id WHERE true
                  ON CONFLICT DO NOTHING;
                DELETE FROM balance_break WHERE batch_id IN (SELECT batch_id FROM mf_summary_batch);
                """)
        let insert = try db.makeStatement(
            sql: "INSERT INTO balance_break (record_id, batch_id, position, expected_minor, printed_minor) VALUES (?, ?, ?, ?, ?)")
        for b in try BalanceBreakScan.scan(db, records: "mf_summary_batch n JOIN main.record r ON r.batch_id = n.batch_id") {
            try insert.execute(arguments: [b.recordID, b.batchID, b.position, b.expected, b.printed])
        }
    }
}
