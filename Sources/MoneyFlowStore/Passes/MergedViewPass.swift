import GRDB

/// The merged view of transactions, as a pass of a write (see ``WritePasses``): which
/// source's date, amount, merchant and category each transaction shows. The outcome is a
/// ``SourcePrecedence/Merged`` per transaction (``SourcePrecedence/merge(_:)`` over its active
/// records; nil: none left, the transaction is voided), computed for every transaction whose
/// records changed during the write, then written. The one place the merged fields are
/// computed and stored.
///
/// Which transactions: temporary triggers note, from the write's start (``track(_:)``), every
/// transaction a link leaves or joins and every transaction whose record changed a column the
/// view reads, whichever code made the change (import, relink, undo, user link or unlink,
/// account merge). A link inserted into a transaction with no other link (a new transaction
/// with its first record, written with that record's fields) is not noted: the merged view
/// of one record is that record.
enum MergedViewPass {
    /// Before the write's own changes: starts noting the transactions whose records change.
    /// Temporary (per connection, rolled back with the write); `mf_` tables are never copied to
    /// a server. Starts each write empty, as ``TransferTables/track(_:)`` does.
    static func track(_ db: Database) throws {
        let note = "INSERT INTO mf_merge_txn(id)"
        let changed = RecordTable.precedenceColumns.joined(separator: ", ") + ", state"
        try db.execute(
            sql: """
                CREATE TEMP TABLE IF NOT EXISTS mf_merge_txn (id INTEGER PRIMARY KEY);
                CREATE TEMP TRIGGER IF NOT EXISTS mf_merge_link_insert AFTER INSERT ON main.link
                WHEN EXISTS (SELECT 1 FROM main.link o WHERE o.transaction_id = NEW.transaction_id AND o.record_id <> NEW.record_id)
                BEGIN \(note) VALUES (NEW.transaction_id) ON CONFLICT DO NOTHING; END;
                CREATE TEMP TRIGGER IF NOT EXISTS mf_merge_link_update AFTER UPDATE OF transaction_id, record_id ON main.link
                BEGIN \(note) VALUES (OLD.transaction_id) ON CONFLICT DO NOTHING;
                      \(note) VALUES (NEW.transaction_id) ON CONFLICT DO NOTHING; END;
                CREATE TEMP TRIGGER IF NOT EXISTS mf_merge_link_delete AFTER DELETE ON main.link
                BEGIN \(note) VALUES (OLD.transaction_id) ON CONFLICT DO NOTHING; END;
                CREATE TEMP TRIGGER IF NOT EXISTS mf_merge_record_update AFTER UPDATE OF \(changed) ON main.record
                BEGIN \(note) SELECT transaction_id FROM main.link WHERE record_id = NEW.id ON CONFLICT DO NOTHING; END;
                DELETE FROM mf_merge_txn;
                """)
    }

    /// Computes and writes the merged view of every transaction noted during this write, then
    /// forgets them. A noted transaction the write deleted is skipped.
    ///
    /// The active records of all of them are read in one walk, in (transaction, record id)
    /// order: `CROSS JOIN` drives it from the noted ids, and `link_by_transaction` holds each
    /// transaction's links in record id order (a link's rowid is its record's id), so nothing
    /// is sorted. The walk reads only the temporary ids, `link` and `record`; the writes go to
    /// `txn`.
    static func settle(_ db: Database) throws {
        guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM mf_merge_txn)") == true else { return }
        let ids = try Int64.fetchAll(
            db, sql: "SELECT id FROM mf_merge_txn m WHERE EXISTS (SELECT 1 FROM txn t WHERE t.id = m.id) ORDER BY id")
        let records = try RawStatement(
            db,
            sql: """
                SELECT l.transaction_id, \(RecordTable.precedenceSelect("r"))
                FROM temp.mf_merge_txn m CROSS JOIN link l ON l.transaction_id = m.id CROSS JOIN record r ON r.id = l.record_id
                WHERE r.state = 'active' ORDER BY m.id, l.record_id
                """)
        let writer = try TransactionTable.MergedWriter(db)
        var more = try records.step()
        var active: [SourcePrecedence.Record] = []
        for id in ids {
            active.removeAll(keepingCapacity: true)
            while more, records.int64(0) <= id {
                if records.int64(0) == id { active.append(RecordTable.precedenceRecord(records, at: 1)) }
                more = try records.step()
            }
            if let merged = SourcePrecedence.merge(active) {
                try writer.write(id, merged)
            } else {
                try TransactionTable.void(db, id)
            }
        }
        try db.execute(sql: "DELETE FROM mf_merge_txn")
    }
}
