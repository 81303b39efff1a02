import Foundation
import GRDB
import GRDBSQLite

/// A prepared SQLite statement on the connection of an open GRDB `Database`, bound with the C
/// API directly (no `StatementArguments` boxing). For the store's bulk write paths: prepare once
/// per import, bind and step once per row.
///
/// Use it only inside the GRDB access (`pool.write { db in ... }`) that created it and let it go
/// before that closure returns (it finalizes on deinit). Not Sendable.
final class RawStatement {
    private let connection: OpaquePointer
    private let handle: OpaquePointer
    let sql: String

    init(_ db: Database, sql: String) throws {
        guard let connection = db.sqliteConnection else { throw StoreError("the database connection is closed") }
        self.connection = connection
        self.sql = sql
        var stmt: OpaquePointer?
        let code = sqlite3_prepare_v3(connection, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &stmt, nil)
        guard code == SQLITE_OK, let stmt else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(connection)), sql: sql)
        }
        handle = stmt
    }

    deinit { sqlite3_finalize(handle) }

    /// SQLITE_TRANSIENT: SQLite copies the bytes before the bind call returns.
    private static let transient = unsafeBitCast(-1 as Int, to: sqlite3_destructor_type.self)

    @inline(__always) func bind(_ i: Int32, _ v: Int64) { sqlite3_bind_int64(handle, i, v) }
    @inline(__always) func bind(_ i: Int32, _ v: Int) { sqlite3_bind_int64(handle, i, Int64(v)) }
    @inline(__always) func bind(_ i: Int32, _ v: Bool) { sqlite3_bind_int64(handle, i, v ? 1 : 0) }
    @inline(__always) func bind(_ i: Int32, _ v: Double) { sqlite3_bind_double(handle, i, v) }
    @inline(__always) func bindNull(_ i: Int32) { sqlite3_bind_null(handle, i) }

    @inline(__always) func bind(_ i: Int32, _ v: Int64?) { if let v { bind(i, v) } else { bindNull(i) } }
    @inline(__always) func bind(_ i: Int32, _ v: Int?) { if let v { bind(i, v) } else { bindNull(i) } }

    /// Binds the text up to its first NUL, exactly as GRDB's `String` binding (a C string) does.
    func bind(_ i: Int32, _ s: String) {
        var s = s
        s.withUTF8 { p in
            // An empty buffer may have a nil base address; SQLite would then bind NULL, not ''.
            guard let base = p.baseAddress, !p.isEmpty else {
                sqlite3_bind_text(handle, i, "", 0, Self.transient)
                return
            }
            let n = memchr(base, 0, p.count).map { UnsafeRawPointer($0) - UnsafeRawPointer(base) } ?? p.count
            _ = base.withMemoryRebound(to: CChar.self, capacity: n) { c in
                sqlite3_bind_text(handle, i, c, Int32(n), Self.transient)
            }
        }
    }

    func bind(_ i: Int32, _ s: String?) { if let s { bind(i, s) } else { bindNull(i) } }

    /// Runs a statement that returns no rows, then resets it for the next row.
    func execute() throws {
        let code = sqlite3_step(handle)
        defer { sqlite3_reset(handle) }
        guard code == SQLITE_DONE else { throw error(code) }
    }

    /// Steps to the next row: true when a row is available, false when done.
    func step() throws -> Bool {
        let code = sqlite3_step(handle)
        if code == SQLITE_ROW { return true }
        if code == SQLITE_DONE { return false }
        throw error(code)
    }

    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    @inline(__always) func int64(_ col: Int32) -> Int64 { sqlite3_column_int64(handle, col) }
    @inline(__always) func isNull(_ col: Int32) -> Bool { sqlite3_column_type(handle, col) == SQLITE_NULL }
    @inline(__always) func optionalInt64(_ col: Int32) -> Int64? { isNull(col) ? nil : int64(col) }
    func string(_ col: Int32) -> String {
        guard let p = sqlite3_column_text(handle, col) else { return "" }
        let n = Int(sqlite3_column_bytes(handle, col))
        return String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self)
    }
    func optionalString(_ col: Int32) -> String? { isNull(col) ? nil : string(col) }

    /// The bytes of text column `col` where SQLite holds them (nil for NULL), for reading a
    /// large value without copying it into a `String`; valid only inside `body`.
    func withText<T>(_ col: Int32, _ body: (UnsafeRawBufferPointer) -> T) -> T? {
        guard !isNull(col) else { return nil }
        let p = sqlite3_column_text(handle, col)
        return body(UnsafeRawBufferPointer(start: p, count: Int(sqlite3_column_bytes(handle, col))))
    }

    var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(connection) }

    private func error(_ code: Int32) -> DatabaseError {
        let message = String(cString: sqlite3_errmsg(connection))
        return DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: sql)
    }
}
