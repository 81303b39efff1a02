import GRDB
import MoneyFlowCore

/// The facts a statement prints about its account (``AccountFacts/detailsAreStatementFacts``),
/// kept per import in `statement_fact` (migration `v9-statement-facts`): values as the importer
/// normalised them (money as exact decimal text, dates ISO), never re-parsed here.
enum StatementFacts {
    /// Writes the statement facts of every account of the plan that has some.
    static func write(_ db: Database, batchID: Int64, accounts: [AccountFacts], accountIDs: [String: Int64]) throws {
        for facts in accounts where facts.detailsAreStatementFacts == true {
            guard let accountID = accountIDs[facts.key] else { continue }
            for (key, value) in facts.details.sorted(by: { $0.key < $1.key }) {
                try db.execute(
                    sql: "INSERT INTO statement_fact(batch_id, account_id, key, value) VALUES (?, ?, ?, ?)",
                    arguments: [batchID, accountID, key, value])
            }
        }
    }

    /// A store that a read-only command did not upgrade has no table yet: no facts.
    static func available(_ db: Database) throws -> Bool { try db.tableExists("statement_fact") }

    /// Facts stored by each batch, by account name.
    static func byBatch(_ db: Database) throws -> [Int64: [String: [String: String]]] {
        guard try available(db) else { return [:] }
        var out: [Int64: [String: [String: String]]] = [:]
        let rows = try Row.fetchAll(
            db,
            sql: "SELECT f.batch_id, a.name, f.key, f.value FROM statement_fact f JOIN account a ON a.id = f.account_id ORDER BY f.batch_id")
        for r in rows { out[r[0], default: [:]][r[1] as String, default: [:]][r[2] as String] = r[3] as String }
        return out
    }

    /// The facts of the account's newest bill still imported: the latest statement month
    /// (`statementMonth`, then `statementDate`), and of those the latest import (a re-sent copy
    /// imported later wins). An older bill imported after a newer one does not hide the newer.
    static func newest(_ db: Database, accountID: Int64) throws -> [String: String]? {
        guard try available(db) else { return nil }
        var perBatch: [Int64: [String: String]] = [:]
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT f.batch_id, f.key, f.value FROM statement_fact f JOIN batch b ON b.id = f.batch_id
                WHERE f.account_id = ? AND b.undone_at IS NULL
                """, arguments: [accountID])
        for r in rows { perBatch[r[0], default: [:]][r[1] as String] = r[2] as String }
        return perBatch.max { a, b in
            (a.value["statementMonth"] ?? "", a.value["statementDate"] ?? "", a.key)
                < (b.value["statementMonth"] ?? "", b.value["statementDate"] ?? "", b.key)
        }?.value
    }
}
