import Foundation
import GRDB
import MoneyFlowCore

/// The mutable columns of a record, saved before a provider update so `undo` can restore them.
struct RecordSnapshot: Codable {
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

    static func capture(_ db: Database, recordID: Int64) throws -> String {
        guard let r = try Row.fetchOne(db, sql: "SELECT * FROM record WHERE id = ?", arguments: [recordID]) else {
            throw StoreError("record \(recordID) not found")
        }
        let snap = RecordSnapshot(
            date: r["date"], authorizedDate: r["authorized_date"], time: r["time"], amountMinor: r["amount_minor"],
            currency: r["currency"], description: r["description"], counterparty: r["counterparty"],
            note: r["note"], balanceMinor: r["balance_minor"], category: r["category"], pending: r["pending"],
            pendingExternalID: r["pending_external_id"], raw: r["raw"], state: r["state"])
        return String(decoding: try JSONEncoder().encode(snap), as: UTF8.self)
    }

    static func restore(_ db: Database, recordID: Int64, json: String) throws {
        try JSONDecoder().decode(RecordSnapshot.self, from: Data(json.utf8)).write(db, recordID: recordID)
    }

    /// The one UPDATE of a record's mutable columns (a provider update, and its undo).
    func write(_ db: Database, recordID: Int64) throws {
        try db.execute(
            sql: """
                UPDATE record SET date = ?, authorized_date = ?, time = ?, amount_minor = ?, currency = ?, description = ?,
                  counterparty = ?, note = ?, balance_minor = ?, category = ?, pending = ?, pending_external_id = ?, raw = ?, state = ?
                WHERE id = ?
                """,
            arguments: [
                date, authorizedDate, time, amountMinor, currency, description, counterparty, note,
                balanceMinor, category, pending, pendingExternalID, raw, state, recordID,
            ])
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
