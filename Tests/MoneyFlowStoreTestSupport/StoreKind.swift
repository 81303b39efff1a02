import Foundation
import MoneyFlowPostgres
import MoneyFlowStore
import MoneyFlowTestSupport

/// The two stores the store's behaviour suite runs on: every behavioural test takes one as its
/// argument (`@Test(arguments: StoreKind.testable)`), so one suite checks both, unchanged.
public enum StoreKind: String, CaseIterable, Sendable, CustomStringConvertible {
    /// A SQLite file (`LedgerStore(path:)`).
    case sqlite
    /// A ledger on the test PostgreSQL server named by `MONEYFLOW_TEST_POSTGRES`.
    case postgres

    /// How a parameterised test names its case (`kind → sqlite`).
    public var description: String { rawValue }

    /// The kinds this run can test: SQLite always; PostgreSQL when `MONEYFLOW_TEST_POSTGRES`
    /// names a server (`bash scripts/test.sh` starts one; `postgresHalfRuns` says when it is
    /// missing, and fails in CI).
    public static var testable: [StoreKind] { TestPostgres.url == nil ? [.sqlite] : [.sqlite, .postgres] }
}

/// Where a new store of `kind` lives: a fresh SQLite file in a new folder (under `directory`
/// when given, else the system temp folder, labelled `name`), or a new ledger on the test
/// server with a unique name (`t_` and 12 random hex digits: tests run in parallel and runs
/// share the server). Nothing is created yet.
public func testStoreLocation(_ kind: StoreKind, name: String, in directory: URL? = nil) throws -> String {
    switch kind {
    case .sqlite:
        if let directory {
            let dir = directory.appendingPathComponent(UUID().uuidString)
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            return dir.appendingPathComponent("store.sqlite").path
        }
        return try TestPaths.tempStore(name)
    case .postgres:
        return TestPostgres.storeURL(ledger: TestPostgres.uniqueLedgerName())
    }
}

/// A new, empty store of `kind` (see ``testStoreLocation(_:name:in:)``), opened read-write.
public func makeTestStore(_ kind: StoreKind, name: String, in directory: URL? = nil) throws -> LedgerStore {
    try StoreOpener.open(testStoreLocation(kind, name: name, in: directory))
}

/// The store at `location` (a path or a postgres:// URL) opened again, as another process
/// that never saw it would: a SQLite store reads its file; a PostgreSQL one loads a new working
/// copy, in memory, from the server. Never through the ledger cache file the writer kept: that
/// file holds what the writer meant to store, so a value PostgreSQL stored wrongly (a column
/// left out of the copy, a type or text changed) would read back right from it.
public func reopenTestStore(_ location: String, access: StoreAccess = .readWrite) throws -> LedgerStore {
    guard StoreOpener.isRemote(location) else { return try StoreOpener.open(location, access: access) }
    return try LedgerStore(remote: PostgresLedger(try PostgresLocation.parse(location), cachePrefix: nil), access: access)
}
