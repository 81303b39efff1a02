import GRDB
import MoneyFlowCore

/// Recomputes a transaction's shown fields from the records that currently support it, as
/// ``SourcePrecedence`` decides (statement wins date and amount, the feed merchant and
/// category, user edits lock), and voids a transaction no active record supports.
enum TransactionRefresher {
    static func refresh(_ db: Database, transactionID: Int64) throws {
        // Cached statements: an import refreshes every transaction it links to.
        let select = try db.cachedStatement(
            sql: """
                SELECT r.source_kind, r.pending, r.date, r.amount_minor, r.currency, r.description, r.counterparty, r.note,
                       r.balance_minor, r.category
                FROM link l JOIN record r ON r.id = l.record_id
                WHERE l.transaction_id = ? AND r.state = 'active' ORDER BY r.id
                """)
        var active: [SourcePrecedence.Record] = []
        let cursor = try Row.fetchCursor(select, arguments: [transactionID])
        while let row = try cursor.next() {
            active.append(
                SourcePrecedence.Record(
                    kind: row[0], pending: row[1], date: row[2], amountMinor: row[3], currency: row[4],
                    description: row[5], counterparty: row[6], note: row[7], balanceMinor: row[8], category: row[9]))
        }
        guard let m = SourcePrecedence.merge(active) else {
            try db.cachedStatement(sql: "UPDATE txn SET status = 'void' WHERE id = ?").execute(arguments: [transactionID])
            return
        }
        let primary = m.primary
        try db.cachedStatement(
            sql: """
                UPDATE txn SET date = ?, amount_minor = ?, currency = ?, description = ?, counterparty = ?, note = ?,
                               balance_minor = ?, category = ?, pending = ?, status = 'active'
                WHERE id = ?
                """
        ).execute(arguments: [
            primary.date, primary.amountMinor, primary.currency, primary.description, m.counterparty,
            m.note, primary.balanceMinor, m.category, m.pending, transactionID,
        ])
    }
}
