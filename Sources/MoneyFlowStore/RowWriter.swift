import Foundation
import GRDB
import MoneyFlowCore

struct TransactionRow {
    var entryIndex: Int
    var accountID: Int64
    var batchID: Int64
    var sortKey: Int64
    var needsReview: Bool
    var id: Int64 = 0
}

struct RecordRow {
    var entryIndex: Int
    var fingerprint: String
    var accountID: Int64
    var batchID: Int64
    var transactionID: Int64
    var score: Double
    var reasonsJSON: String
    var decidedBy: String
    /// ``LinkEvidence`` the link asserts (`link.evidence`), nil for none.
    var evidence: LinkEvidence? = nil
    var id: Int64 = 0
}

/// Writes new `txn`, `record` and `link` rows in multi-row INSERTs of up to ``batchSize`` rows
/// (each statement execution costs SQLite a statement journal and, for the CHECK (x IN (...))
/// constraints, an ephemeral table: per batch instead of per row).
///
/// Ids are assigned here exactly as SQLite would assign them row by row (AUTOINCREMENT: one past
/// the largest id ever used, see ``largestIDEverUsed(_:table:)``; the import holds the write
/// lock and nothing else inserts into these tables meanwhile), so the
/// caller gets each id at once and the stored rows are the same. Pending rows are written by
/// ``flush()``, which the applier calls before any other statement and at the end; txn rows
/// go first, then records, then links (their foreign keys point at both).
final class RowWriter {
    static let batchSize = 64
    let db: Database
    let records: [IncomingRecord]
    private var nextTransactionID: Int64 = 0
    private var nextRecordID: Int64 = 0
    /// False when ids are near Int64.max (SQLite then picks random free ids): rows are written
    /// one at a time with SQLite choosing the id.
    private var explicitIDs: Bool?
    private var pendingTransactions: [TransactionRow] = []
    private var pendingRecords: [RecordRow] = []
    private var statements: [String: RawStatement] = [:]

    init(db: Database, records: [IncomingRecord]) {
        self.db = db; self.records = records
    }

    private func prepareIDs() throws {
        guard explicitIDs == nil else { return }
        let maxTxn = try Self.largestIDEverUsed(db, table: "txn")
        let maxRecord = try Self.largestIDEverUsed(db, table: "record")
        let room = Int64.max - Int64(records.count) - 1
        explicitIDs = maxTxn < room && maxRecord < room && maxTxn >= 0 && maxRecord >= 0
        nextTransactionID = maxTxn + 1
        nextRecordID = maxRecord + 1
    }

    /// The id SQLite's AUTOINCREMENT would start after: the larger of the largest id in the
    /// table and the largest ever handed out (`sqlite_sequence`; rows inserted here with
    /// explicit ids raise it too, as SQLite does for any insert into an AUTOINCREMENT table).
    static func largestIDEverUsed(_ db: Database, table: String) throws -> Int64 {
        try Int64.fetchOne(
            db,
            sql: """
                SELECT max(coalesce((SELECT max(id) FROM \(table)), 0), coalesce((SELECT seq FROM sqlite_sequence WHERE name = ?), 0))
                """, arguments: [table]) ?? 0
    }

    func addTransaction(_ row: TransactionRow) throws -> Int64 {
        try prepareIDs()
        var row = row
        guard explicitIDs == true else {
            try writeTransactions([row])
            return db.lastInsertedRowID
        }
        row.id = nextTransactionID
        nextTransactionID += 1
        pendingTransactions.append(row)
        return row.id
    }

    func addRecord(_ row: RecordRow) throws -> Int64 {
        try prepareIDs()
        var row = row
        guard explicitIDs == true else {
            try writeRecords([row])
            row.id = db.lastInsertedRowID
            try writeLinks([row])
            return row.id
        }
        row.id = nextRecordID
        nextRecordID += 1
        pendingRecords.append(row)
        if pendingRecords.count >= Self.batchSize { try flush() }
        return row.id
    }

    /// Writes everything pending.
    func flush() throws {
        if !pendingTransactions.isEmpty { try writeTransactions(pendingTransactions); pendingTransactions.removeAll(keepingCapacity: true) }
        if !pendingRecords.isEmpty {
            try writeRecords(pendingRecords)
            try writeLinks(pendingRecords)
            pendingRecords.removeAll(keepingCapacity: true)
        }
    }

    private func statement(_ table: String, columns: [String], rows: Int) throws -> RawStatement {
        let key = "\(table)/\(rows)"
        if let s = statements[key] { return s }
        let tuple = "(" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
        let sql =
            "INSERT INTO \(table)(\(columns.joined(separator: ", "))) VALUES "
            + Array(repeating: tuple, count: rows).joined(separator: ", ")
        let s = try RawStatement(db, sql: sql)
        statements[key] = s
        return s
    }

    /// Binds and runs `rows` in chunks of ``batchSize``; `bindRow(statement, firstParameter, row)`.
    private func write<T>(_ rows: [T], table: String, columns: [String], bindRow: (RawStatement, Int32, T) -> Void) throws {
        var i = 0
        while i < rows.count {
            let n = min(Self.batchSize, rows.count - i)
            let s = try statement(table, columns: columns, rows: n)
            for k in 0..<n { bindRow(s, Int32(k * columns.count + 1), rows[i + k]) }
            try s.execute()
            i += n
        }
    }

    private func writeTransactions(_ rows: [TransactionRow]) throws {
        try write(rows, table: "txn", columns: TransactionTable.insertColumns) { s, p, t in
            TransactionTable.bindNew(
                s, p, id: t.id, accountID: t.accountID, record: records[t.entryIndex], needsReview: t.needsReview, batchID: t.batchID,
                sortKey: t.sortKey)
        }
    }

    private func writeRecords(_ rows: [RecordRow]) throws {
        try write(rows, table: "record", columns: RecordTable.insertColumns) { s, p, x in
            RecordTable.bindNew(
                s, p, id: x.id, batchID: x.batchID, accountID: x.accountID, fingerprint: x.fingerprint, record: records[x.entryIndex],
                fileSeq: x.entryIndex)
        }
    }

    private func writeLinks(_ rows: [RecordRow]) throws {
        try write(rows, table: "link", columns: LinkTable.insertColumns) { s, p, x in
            LinkTable.bindNew(
                s, p, recordID: x.id, transactionID: x.transactionID, score: x.score, reasonsJSON: x.reasonsJSON, decidedBy: x.decidedBy,
                evidence: x.evidence)
        }
    }
}
