import GRDB
import MoneyFlowCore

/// The `account` table's one owner: a ledger account, with what its imports said about it
/// and the balances its provider last reported.
enum AccountTable {
    /// The columns after `id` as migration v1 created the table (v3 rebuilt it with the same
    /// columns and an AUTOINCREMENT id). Frozen: migrations replay it.
    static let createdColumns = """
        name TEXT NOT NULL UNIQUE,
        institution TEXT, number TEXT, type TEXT, subtype TEXT,
        provider TEXT, provider_account_id TEXT,
        current_balance_minor INTEGER, available_balance_minor INTEGER, balance_currency TEXT,
        ledger_name TEXT,
        created_at TEXT NOT NULL
        """

    /// Inserts an account as an import first describes it and returns its id.
    static func insert(_ db: Database, name: String, facts f: AccountFacts, at timestamp: String) throws -> Int64 {
        try db.execute(
            sql: """
                INSERT INTO account(name, institution, number, type, subtype, provider, provider_account_id, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [name, f.institution, f.number, f.type, f.subtype, f.provider, f.providerAccountID, timestamp])
        return db.lastInsertedRowID
    }

    /// The id of the account named `name`.
    static func id(named name: String, _ db: Database) throws -> Int64? {
        try Int64.fetchOne(db, sql: "SELECT id FROM account WHERE name = ?", arguments: [name])
    }

    /// Sets account `id`'s name (unique) or its ledger name for exports.
    /// An account made from a wallet's card takes the name and facts of the card's own statement.
    static func adopt(_ db: Database, _ id: Int64, name: String, facts f: AccountFacts) throws {
        try db.execute(
            sql: "UPDATE account SET name = ?, institution = ?, number = ?, type = ?, subtype = ? WHERE id = ?",
            arguments: [name, f.institution, f.number, f.type, f.subtype, id])
    }

    static func set(_ db: Database, _ id: Int64, name: String? = nil, ledgerName: String? = nil) throws {
        if let name { try db.execute(sql: "UPDATE account SET name = ? WHERE id = ?", arguments: [name, id]) }
        if let ledgerName { try db.execute(sql: "UPDATE account SET ledger_name = ? WHERE id = ?", arguments: [ledgerName, id]) }
    }

    /// The balance columns an import sets and its undo puts back
    /// (``BatchChange/AccountBalance``'s values, in this order).
    static let balanceColumns = ["current_balance_minor", "available_balance_minor", "balance_currency"]

    /// Account `id`'s ``balanceColumns``, nil when there is no such account.
    static func balance(_ db: Database, _ id: Int64) throws -> BatchChange.AccountBalance? {
        try Row.fetchOne(db, sql: "SELECT \(balanceColumns.joined(separator: ", ")) FROM account WHERE id = ?", arguments: [id]).map {
            BatchChange.AccountBalance(current: $0[0], available: $0[1], currency: $0[2])
        }
    }

    /// Sets account `id`'s ``balanceColumns``.
    static func setBalance(_ db: Database, _ id: Int64, _ b: BatchChange.AccountBalance) throws {
        try db.execute(
            sql: "UPDATE account SET \(balanceColumns.map { "\($0) = ?" }.joined(separator: ", ")) WHERE id = ?",
            arguments: [b.current, b.available, b.currency, id])
    }
}
