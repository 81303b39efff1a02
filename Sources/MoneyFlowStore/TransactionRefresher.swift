import GRDB
import MoneyFlowCore

/// Recomputes a transaction's shown fields from the records that currently support it:
/// the bank's own record (statement or bank CSV) for date, amount, description and balance;
/// Plaid for what only it knows (merchant name as counterparty, category). User edits win.
enum TransactionRefresher {
    /// The columns of one active supporting record that the merged view uses.
    struct Source {
        var kind: String
        var pending: Bool
        var date: String
        var amountMinor: Int64
        var currency: String
        var description: String
        var counterparty: String?
        var note: String?
        var balanceMinor: Int64?
        var category: String?
    }

    /// The merged view of a transaction supported by `active` (in record id order).
    struct Merged {
        var primary: Source
        var counterparty: String?
        var category: String?
        var pending: Bool
    }

    /// The merged view, or nil when no active record supports the transaction.
    static func merge(_ active: [Source]) -> Merged? {
        guard let first = active.first else { return nil }
        let bank = active.first { SourceKind(rawValue: $0.kind)?.isBankOwn ?? false }
        let plaid =
            active.first { $0.kind == SourceKind.plaid.rawValue && !$0.pending }
            ?? active.first { $0.kind == SourceKind.plaid.rawValue }
        let primary = bank ?? plaid ?? first
        return Merged(
            primary: primary, counterparty: bank?.counterparty ?? plaid?.counterparty ?? primary.counterparty,
            category: plaid?.category ?? primary.category, pending: active.allSatisfy { $0.pending })
    }

    static func refresh(_ db: Database, transactionID: Int64) throws {
        // Cached statements: an import refreshes every transaction it links to.
        let select = try db.cachedStatement(
            sql: """
                SELECT r.source_kind, r.pending, r.date, r.amount_minor, r.currency, r.description, r.counterparty, r.note,
                       r.balance_minor, r.category
                FROM link l JOIN record r ON r.id = l.record_id
                WHERE l.transaction_id = ? AND r.state = 'active' ORDER BY r.id
                """)
        var active: [Source] = []
        let cursor = try Row.fetchCursor(select, arguments: [transactionID])
        while let row = try cursor.next() {
            active.append(
                Source(
                    kind: row[0], pending: row[1], date: row[2], amountMinor: row[3], currency: row[4],
                    description: row[5], counterparty: row[6], note: row[7], balanceMinor: row[8], category: row[9]))
        }
        guard let m = merge(active) else {
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
            primary.note, primary.balanceMinor, m.category, m.pending, transactionID,
        ])
    }
}
