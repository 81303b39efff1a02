import Foundation
import MoneyFlowPostgres
import MoneyFlowStore

// Where a case's store lives: a SQLite file path, or a PostgreSQL ledger
// (`postgres://USER@HOST:PORT/DB?ledger=NAME`), opened exactly as the CLI opens `--store`.

/// "postgres" or "sqlite": which store a result line measured.
func storeKind(_ location: String) -> String { StoreOpener.isRemote(location) ? "postgres" : "sqlite" }

/// An empty store at `location`: the SQLite file is deleted first, the PostgreSQL ledger's
/// schema is dropped first, so every run starts from nothing (no working copy to reuse either).
func freshStore(_ location: String) throws -> LedgerStore {
    removeStore(location)
    return try StoreOpener.open(location)
}

/// Deletes a SQLite store (file and WAL/SHM companions) or drops a PostgreSQL ledger.
func removeStore(_ location: String) {
    if StoreOpener.isRemote(location) {
        do { try dropLedger(location) } catch { FileHandle.standardError.write(Data("moneyflow-bench: \(error)\n".utf8)) }
        return
    }
    for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: location + suffix) }
}

/// Drops the ledger's schema (`moneyflow_<ledger>`) with `psql`. MoneyFlow has no "delete a
/// ledger" call on purpose; the benchmark needs one, and psql is there anyway (the COPY peer).
/// The password comes from PGPASSWORD / PGPASSFILE, as for MoneyFlow itself.
func dropLedger(_ location: String) throws {
    let parsed = try PostgresLocation.parse(location)
    try runPSQL(location, sql: "DROP SCHEMA IF EXISTS \"\(parsed.schema)\" CASCADE")
}

/// The URL psql understands: ours without the `ledger` parameter (psql rejects unknown ones).
func psqlURL(_ location: String) throws -> String {
    guard var url = URLComponents(string: location) else { throw BenchError("not a URL: \(PostgresLocation.redacted(location))") }
    url.queryItems = url.queryItems?.filter { $0.name != "ledger" }
    if url.queryItems?.isEmpty == true { url.queryItems = nil }
    guard let text = url.string else { throw BenchError("not a URL: \(PostgresLocation.redacted(location))") }
    return text
}

func runPSQL(_ location: String, sql: String) throws {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = ["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", try psqlURL(location), "-c", sql]
    p.standardOutput = FileHandle.nullDevice
    var env = ProcessInfo.processInfo.environment
    env["PGOPTIONS"] = "-c client_min_messages=warning"   // no NOTICE per dropped table
    p.environment = env
    try p.run()
    p.waitUntilExit()
    guard p.terminationStatus == 0 else { throw BenchError("psql failed (exit \(p.terminationStatus)) on: \(sql)") }
}
