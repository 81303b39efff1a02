import Foundation
import GRDB
import MoneyFlowCore

/// The mutable columns of a record (``RecordTable/mutableColumns``), saved before a provider update so `undo` can restore them.
struct RecordSnapshot: Codable, Equatable {
    var date: String
    var authorizedDate: String?
    var time: String?
    var amountMinor: Int64
    var currency: String
    var description: String
    var counterparty: String?
    var note: String?
    var balanceMinor: Int64?
    var category: String?
    var pending: Bool
    var pendingExternalID: String?
    var raw: String
    var state: String

    /// Record `recordID`'s mutable columns as they are now.
    static func capture(_ db: Database, recordID: Int64) throws -> RecordSnapshot {
        guard let r = try Row.fetchOne(db.cachedStatement(sql: RecordTable.selectMutable), arguments: [recordID]) else {
            throw StoreError("record \(recordID) not found")
        }
        return RecordSnapshot(
            date: r[0], authorizedDate: r[1], time: r[2], amountMinor: r[3], currency: r[4], description: r[5], counterparty: r[6],
            note: r[7], balanceMinor: r[8], category: r[9], pending: r[10], pendingExternalID: r[11], raw: r[12], state: r[13])
    }

    /// The values of ``RecordTable/mutableColumns``, in their order.
    var values: [(any DatabaseValueConvertible)?] {
        [
            date, authorizedDate, time, amountMinor, currency, description, counterparty, note, balanceMinor, category, pending,
            pendingExternalID, raw, state,
        ]
    }

    /// The one UPDATE of a record's mutable columns (a provider update, and its undo).
    func write(_ db: Database, recordID: Int64) throws {
        try db.cachedStatement(sql: RecordTable.updateMutable).execute(arguments: StatementArguments(values + [recordID]))
    }
}

extension RecordSnapshot {
    /// The columns of `record` as an import writes them, in `state`.
    init(_ record: IncomingRecord, state: String) {
        self.init(
            date: record.date.iso, authorizedDate: record.authorizedDate?.iso, time: record.time,
            amountMinor: record.amount.minorUnits, currency: record.amount.currency, description: record.description,
            counterparty: record.counterparty, note: record.note, balanceMinor: record.balance?.minorUnits,
            category: record.category, pending: record.pending, pendingExternalID: record.pendingExternalID,
            raw: record.raw, state: state)
    }
}
