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
        try saveChange(batchID, .row(key, before: try RowImage.capture(db, key)))
        try AccountTable.adopt(db, accountID, name: res.name, facts: res.facts)
    }
}
