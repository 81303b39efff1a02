import Foundation
import GRDB
import MoneyFlowCore

/// Naming accounts and attaching import identities to them (merging: `LedgerStore+Merge.swift`).
extension LedgerStore {
    /// Renames an account (also sets its ledger name for exports when `ledgerName` is given).
    public func renameAccount(_ name: String, to newName: String?, ledgerName: String? = nil) throws {
        try write { db in
            guard let id = try AccountTable.id(named: name, db) else { throw StoreError("no account named '\(name)'") }
            if let newName, let other = try AccountTable.id(named: newName, db), other != id {
                throw StoreError("an account named '\(newName)' already exists")
            }
            try AccountTable.set(db, id, name: newName, ledgerName: ledgerName)
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
