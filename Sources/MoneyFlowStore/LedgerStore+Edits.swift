import Foundation
import GRDB
import MoneyFlowCore

/// The user's own fields of a transaction.
extension LedgerStore {
    /// Sets a user's own description, counterparty or note on a transaction (an empty string
    /// clears that edit). User edits win over every source and survive provider updates.
    public func editTransaction(_ id: Int64, description: String? = nil, counterparty: String? = nil, note: String? = nil) throws {
        try write { db in
            guard try Int64.fetchOne(db, sql: "SELECT id FROM txn WHERE id = ?", arguments: [id]) != nil else {
                throw StoreError("no transaction \(id)")
            }
            for (column, value) in zip(TransactionTable.userColumns, [description, counterparty, note]) {
                guard let value else { continue }
                try TransactionTable.setUserField(db, id, column, value.isEmpty ? nil : value)
            }
        }
    }
}
