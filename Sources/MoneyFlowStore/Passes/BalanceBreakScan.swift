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
        // of a million rows passes every one of them through here.
        let rows = try RawStatement(
            db,
            sql: """
                SELECT r.batch_id, r.account_id, r.currency, r.date, r.id, r.amount_minor, r.balance_minor
                FROM \(records)
                WHERE r.balance_minor IS NOT NULL AND r.state = 'active' AND r.source_kind NOT IN \(SourceKindSQL.feeds)
                ORDER BY r.batch_id, r.account_id, r.currency, r.file_seq
                """)
        var found: [Found] = []
        var run: [RunRow] = []
        func finishRun() {
            guard let first = run.first, let last = run.last else { return }
            let chronological = first.date > last.date ? Array(run.reversed()) : run
            for (position, (prev, cur)) in zip(chronological, chronological.dropFirst()).enumerated() {
                let (sum, overflow) = prev.balance.addingReportingOverflow(cur.amount)
                guard overflow || sum != cur.balance else { continue }
                found.append(Found(recordID: cur.recordID, batchID: cur.batch, position: position, expected: overflow ? nil : sum, printed: cur.balance))
            }
        }
        while try rows.step() {
            let row = RunRow(
                batch: rows.int64(0), account: rows.int64(1), currency: rows.string(2), date: rows.string(3), recordID: rows.int64(4),
                amount: rows.int64(5), balance: rows.int64(6))
            if let last = run.last, last.batch != row.batch || last.account != row.account || last.currency != row.currency {
                finishRun()
                run.removeAll(keepingCapacity: true)
            }
            run.append(row)
        }
        finishRun()
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
    }
}
