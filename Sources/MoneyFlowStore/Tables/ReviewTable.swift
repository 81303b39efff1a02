import GRDB

/// The `review` table's one owner: a record waiting for the user's decision, with the
/// candidates (JSON of ``ReviewCandidate``) it might belong to.
enum ReviewTable {
    static func insert(_ db: Database, recordID: Int64, candidatesJSON: String, replacing: Bool = false) throws {
        try db.cachedStatement(sql: "INSERT \(replacing ? "OR REPLACE " : "")INTO review(record_id, candidates) VALUES (?, ?)")
            .execute(arguments: [recordID, candidatesJSON])
    }

    static func delete(_ db: Database, recordID: Int64) throws {
        try db.cachedStatement(sql: "DELETE FROM review WHERE record_id = ?").execute(arguments: [recordID])
    }
}
