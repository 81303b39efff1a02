import Foundation
import GRDB
import MoneyFlowCore

/// Naming accounts and attaching import identities to them (merging: `LedgerStore+Merge.swift`).
extension LedgerStore {
    /// Renames an account (also sets its ledger name for exports when `ledgerName` is given).
    public func renameAccount(_ name: String, to newName: String?, ledgerName: String? = nil) throws {
        try write { db in
            guard let id = try Int64.fetchOne(db, sql: "SELECT id FROM account WHERE name = ?", arguments: [name]) else {
                throw StoreError("no account named '\(name)'")
            }
            if let newName {
                if try Int64.fetchOne(db, sql: "SELECT id FROM account WHERE name = ? AND id <> ?", arguments: [newName, id]) != nil {
                    throw StoreError("an account named '\(newName)' already exists")
                }
                try db.execute(sql: "UPDATE account SET name = ? WHERE id = ?", arguments: [newName, id])
            }
            if let ledgerName { try db.execute(sql: "UPDATE account SET ledger_name = ? WHERE id = ?", arguments: [ledgerName, id]) }
        }
    }

    /// Attaches an import identity (e.g. `plaid:<account_id>` or `csv:chase/checking`) to an
    /// existing account so that later imports with that identity land there.
    public func linkAccountKey(_ key: String, toAccount name: String) throws {
        try write { db in
            guard let id = try Int64.fetchOne(db, sql: "SELECT id FROM account WHERE name = ?", arguments: [name]) else {
                throw StoreError("no account named '\(name)'")
            }
            if let other = try Int64.fetchOne(db, sql: "SELECT account_id FROM account_key WHERE key = ?", arguments: [key]), other != id {
                let used = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM record WHERE account_id = ?", arguments: [other]) ?? 0
                if used > 0 {
                    throw StoreError("'\(key)' already belongs to another account holding \(used) records; undo those imports first")
                }
            }
            try db.execute(
                sql:
                    "INSERT INTO account_key(key, account_id) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET account_id = excluded.account_id",
                arguments: [key, id])
        }
    }
}
