import GRDB

/// Where a bank's printed running balance does not chain within one imported file: per batch,
/// account and currency, the bank's (not a feed's) live records that print a balance, in file
/// order, reversed when the file lists newest first; a record whose printed balance is not the
/// previous one plus its amount (or where that sum is too large to hold) is a break.
///
/// The one implementation of the check: ``SummaryPass`` keeps its outcome in `balance_break`
/// for the batches a write touched, and a store read before its v15 upgrade (opened read-only,
/// so it cannot be upgraded) is checked in full when it is asked for its breaks.
enum BalanceBreakScan {
    struct Found: Equatable {
        var recordID: Int64
        var batchID: Int64
        /// The break's place among its run's breaks, in the file's chronology.
        var position: Int
        var expected: Int64?
        var printed: Int64
    }

    /// The breaks of the records `records` names (an SQL FROM clause binding `record` as `r`).
    static func scan(_ db: Database, records: String) throws -> [Found] {
        // Read by column position (no GRDB row copied out of a cursor per record): a first import
        // of a million rows passes every one of them through here. Read in the index's order
        // (batch, record id), not sorted by SQLite: an import writes a file's records in file
        // order, so they almost always arrive in (batch, account, currency, file order) already,
        // and are sorted here only when they do not.
        let rows = try RawStatement(
            db,
            sql: """
                SELECT r.batch_id, r.account_id, r.currency, r.date, r.id, r.amount_minor, r.balance_minor, r.file_seq
                FROM \(records)
                WHERE r.balance_minor IS NOT NULL AND r.state = 'active' AND r.source_kind NOT IN \(SourceKindSQL.feeds)
                """)
        var all: [RunRow] = []
        var ordered = true
        while try rows.step() {
            let row = RunRow(
                batch: rows.int64(0), account: rows.int64(1), currency: rows.string(2), date: rows.string(3), recordID: rows.int64(4),
                amount: rows.int64(5), balance: rows.int64(6), fileSeq: rows.int64(7))
            if ordered, let last = all.last, !last.precedes(row) { ordered = false }
            all.append(row)
        }
        if !ordered { all.sort { $0.precedes($1) } }
        var found: [Found] = []
        var start = 0
        while start < all.count {
            var end = start + 1
            while end < all.count, all[end].sameRun(as: all[start]) { end += 1 }
            let run = all[start..<end]
            start = end
            let chronological = run[run.startIndex].date > run[end - 1].date ? Array(run.reversed()) : Array(run)
            for (position, (prev, cur)) in zip(chronological, chronological.dropFirst()).enumerated() {
                let (sum, overflow) = prev.balance.addingReportingOverflow(cur.amount)
                guard overflow || sum != cur.balance else { continue }
                found.append(
                    Found(
                        recordID: cur.recordID, batchID: cur.batch, position: position, expected: overflow ? nil : sum, printed: cur.balance
                    ))
            }
        }
        return found
    }

    private struct RunRow {
        var batch: Int64
        var account: Int64
        var currency: String
        var date: String
        var recordID: Int64
        var amount: Int64
        var balance: Int64
        var fileSeq: Int64

        func sameRun(as o: RunRow) -> Bool { batch == o.batch && account == o.account && currency == o.currency }

        /// The order of a run's rows: (batch, account, currency, file order), the currency by
        /// its bytes as SQLite's BINARY collation compares it; the record id last, for a total order.
        func precedes(_ o: RunRow) -> Bool {
            if batch != o.batch { return batch < o.batch }
            if account != o.account { return account < o.account }
            if !currency.utf8.elementsEqual(o.currency.utf8) { return currency.utf8.lexicographicallyPrecedes(o.currency.utf8) }
            if fileSeq != o.fileSeq { return fileSeq < o.fileSeq }
            return recordID < o.recordID
        }
    }
}
