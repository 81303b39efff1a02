import GRDB
import MoneyFlowCore

/// Recomputes a transaction's shown fields from the records that currently support it:
/// the bank's own record (statement or bank CSV) for date, amount, description and balance;
/// Plaid for what only it knows (merchant name as counterparty, category). User edits win.
enum TransactionRefresher {
    static func refresh(_ db: Database, transactionID: Int64) throws {
        let rows = try Row.fetchAll(db, sql: """
            SELECT r.* FROM record r JOIN link l ON l.record_id = r.id
            WHERE l.transaction_id = ? ORDER BY r.id
            """, arguments: [transactionID])
        let active = rows.filter { ($0["state"] as String) == "active" }
        guard !active.isEmpty else {
            try db.execute(sql: "UPDATE txn SET status = 'void' WHERE id = ?", arguments: [transactionID])
            return
        }
        let bank = active.first { SourceKind(rawValue: $0["source_kind"])?.isBankOwn ?? false }
        let plaid = active.first { ($0["source_kind"] as String) == SourceKind.plaid.rawValue && !($0["pending"] as Bool) }
            ?? active.first { ($0["source_kind"] as String) == SourceKind.plaid.rawValue }
        let primary = bank ?? plaid ?? active[0]
        let counterparty: String? = (bank?["counterparty"] as String?) ?? (plaid?["counterparty"] as String?) ?? (primary["counterparty"] as String?)
        let category: String? = (plaid?["category"] as String?) ?? (primary["category"] as String?)
        let pending = active.allSatisfy { $0["pending"] as Bool }
        try db.execute(sql: """
            UPDATE txn SET date = ?, amount_minor = ?, currency = ?, description = ?, counterparty = ?, note = ?,
                           balance_minor = ?, category = ?, pending = ?, status = 'active'
            WHERE id = ?
            """, arguments: [primary["date"] as String, primary["amount_minor"] as Int64, primary["currency"] as String,
                             primary["description"] as String, counterparty, primary["note"] as String?,
                             primary["balance_minor"] as Int64?, category, pending, transactionID])
    }
}
