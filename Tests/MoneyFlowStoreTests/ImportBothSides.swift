import MoneyFlowCore
import MoneyFlowPipeline
import MoneyFlowStore

/// Imports a feed and a bank statement into `store`, the statement first or second: the rules
/// the store-path tests check must decide the same whichever side the store already holds.
func importBothSides(into store: LedgerStore, feed: ImportedStatement, statement: ImportedStatement, statementSecond: Bool) throws {
    let service = ImportService(store: store)
    let files = statementSecond ? [("feed.json", feed), ("stmt.csv", statement)] : [("stmt.csv", statement), ("feed.json", feed)]
    for (name, st) in files { _ = try service.apply(st, fileName: name, sha256: "sha-\(name)", options: FileImportOptions()) }
}
