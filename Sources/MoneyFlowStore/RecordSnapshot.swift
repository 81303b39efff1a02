import Foundation
import GRDB

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
        let snap = RecordSnapshot(date: r["date"], authorizedDate: r["authorized_date"], time: r["time"], amountMinor: r["amount_minor"],
                                  currency: r["currency"], description: r["description"], counterparty: r["counterparty"],
                                  note: r["note"], balanceMinor: r["balance_minor"], category: r["category"], pending: r["pending"],
                                  pendingExternalID: r["pending_external_id"], raw: r["raw"], state: r["state"])
        return String(decoding: try JSONEncoder().encode(snap), as: UTF8.self)
    }

    static func restore(_ db: Database, recordID: Int64, json: String) throws {
        let s = try JSONDecoder().decode(RecordSnapshot.self, from: Data(json.utf8))
        try db.execute(sql: """
            UPDATE record SET date = ?, authorized_date = ?, time = ?, amount_minor = ?, currency = ?, description = ?,
              counterparty = ?, note = ?, balance_minor = ?, category = ?, pending = ?, pending_external_id = ?, raw = ?, state = ?
            WHERE id = ?
            """, arguments: [s.date, s.authorizedDate, s.time, s.amountMinor, s.currency, s.description, s.counterparty, s.note,
                             s.balanceMinor, s.category, s.pending, s.pendingExternalID, s.raw, s.state, recordID])
    }
}
