import GRDB
import MoneyFlowCore

extension PlanApplier {
    /// A card's statement arriving after its wallets' rows: the account the wallets made for the
    /// card (``AccountResolution/adoptsFacts``) takes the statement's name and facts, so the
    /// ledger is the one the statement would have made had it come first. The row as it was is
    /// kept in the batch's undo log (change kind `row`): undoing the statement gives the
    /// wallets' account back.
    mutating func adoptFacts(_ res: AccountResolution, accountID: Int64, batchID: Int64) throws {
        let key = RowImage.Key(table: "account", columns: ["id"], values: [.integer(accountID)])
        try saveChange(batchID, kind: "row", target: key.logText, old: try RowImage.capture(db, key)?.logText)
        let f = res.facts
        try db.execute(
            sql: "UPDATE account SET name = ?, institution = ?, number = ?, type = ?, subtype = ? WHERE id = ?",
            arguments: [res.name, f.institution, f.number, f.type, f.subtype, accountID])
    }
}
