import GRDB

/// Sums a person looks at first (the web app's home page), kept up to date by every write
/// (``SummaryPass``) so that showing them reads a few hundred small rows instead of the ledger.
///
/// All four tables are *derived*, like `transfer` and `txn_category`: after every write the
/// pass recomputes exactly the pieces whose inputs the write changed, from the transactions,
/// their categories and the records alone. So an undo, a relink, an account merge or a write
/// from another process on the same file can never leave a stale sum behind, and a ledger on
/// a database server keeps them like any other table.
///
/// - `month_total`: per account, currency, calendar month and category, the live transactions'
///   money in (positive amounts), money out (negative amounts, as a positive sum), how many
///   went out and how many there are. `booked` is 0 for transactions with no category row at
///   all (uncategorised), 1 for those with one; `category` is the row's account, '' when the
///   row books none (an own transfer).
/// - `month_balance`: per account, currency and month, the balance printed on the month's last
///   live transaction that carries one (absent when none does).
/// - `batch_account`: which accounts each batch stored records of (a home page's "last import").
/// - `balance_break`: where a bank's printed running balance does not chain within one imported
///   file: the record whose printed balance is not the previous one plus its amount.
///   `position` orders the breaks of a run as the file's chronology does.
enum SummaryTables {
    static let names = ["month_total", "month_balance", "batch_account", "balance_break"]

    static func create(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE month_total (
                  account_id INTEGER NOT NULL, currency TEXT NOT NULL, month TEXT NOT NULL,
                  booked INTEGER NOT NULL, category TEXT NOT NULL,
                  inflow INTEGER NOT NULL, outflow INTEGER NOT NULL, out_count INTEGER NOT NULL, count INTEGER NOT NULL,
                  PRIMARY KEY (account_id, currency, month, booked, category)) WITHOUT ROWID;
                CREATE TABLE month_balance (
                  account_id INTEGER NOT NULL, currency TEXT NOT NULL, month TEXT NOT NULL, balance_minor INTEGER NOT NULL,
                  PRIMARY KEY (account_id, currency, month)) WITHOUT ROWID;
                CREATE TABLE batch_account (
                  batch_id INTEGER NOT NULL, account_id INTEGER NOT NULL,
                  PRIMARY KEY (batch_id, account_id)) WITHOUT ROWID;
                CREATE TABLE balance_break (
                  record_id INTEGER PRIMARY KEY, batch_id INTEGER NOT NULL, position INTEGER NOT NULL,
                  expected_minor INTEGER, printed_minor INTEGER NOT NULL);
                CREATE INDEX balance_break_by_batch ON balance_break(batch_id);
                """)
    }

    /// Fills the tables from the whole ledger (a store made before they existed), by the
    /// pass's own code: every month and every batch noted, then settled.
    static func fill(_ db: Database) throws {
        try SummaryPass.track(db)
        try db.execute(
            sql: """
                INSERT INTO mf_summary_month SELECT DISTINCT account_id, currency, substr(date, 1, 7) FROM txn WHERE true
                  ON CONFLICT DO NOTHING;
                INSERT INTO mf_summary_batch SELECT id FROM batch WHERE true ON CONFLICT DO NOTHING;
                """)
        try SummaryPass.settle(db)
    }
}
