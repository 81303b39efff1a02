import Foundation
import GRDB
import Testing

@testable import MoneyFlowStore

/// Each table's owner (`Sources/MoneyFlowStore/Tables/`) names the table's columns as the
/// migrated schema has them: a migration that adds a column fails here until the owner's
/// INSERT writes it (or says why it keeps its default).
@Suite struct TableOwnerTests {
    func columns(_ table: String) throws -> Set<String> {
        let db = try DatabaseQueue()
        try Schema.migrator.migrate(db)
        return try db.read { db in Set(try Row.fetchAll(db, sql: "PRAGMA table_info(\(table))").map { $0["name"] as String }) }
    }

    @Test func theOwnersInsertsWriteEveryColumn() throws {
        // `state` and `status` start at their defaults (active); the user's fields are the user's.
        #expect(Set(RecordTable.insertColumns + ["state"]) == (try columns("record")))
        #expect(Set(TransactionTable.insertColumns + ["status"] + TransactionTable.userColumns) == (try columns("txn")))
        #expect(Set(LinkTable.insertColumns) == (try columns("link")))
    }

    @Test func theOwnersNameOnlyColumnsTheTablesHave() throws {
        let record = try columns("record")
        for list in [RecordTable.mutableColumns, RecordTable.precedenceColumns, RecordTable.placeColumns] {
            #expect(Set(list).isSubset(of: record), "\(list)")
        }
        #expect(Set(RecordTable.placeColumns).isSubset(of: try columns("record_confirmation")))
        #expect(Set(TransactionTable.userColumns + CategoryTable.keptColumns).isSubset(of: try columns("kept_edit")))
        #expect(Set(AccountTable.balanceColumns).isSubset(of: try columns("account")))
    }
}
