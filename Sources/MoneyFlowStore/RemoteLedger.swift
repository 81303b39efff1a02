import GRDB

/// A ledger kept in a database server (PostgreSQL) instead of a local SQLite file.
///
/// The store's code (planning, applying, undo, user decisions, Plaid state) is written once,
/// against SQLite. A remote ledger keeps the authoritative rows on the server and lends the
/// store a *working copy*: an in-memory SQLite database with the same schema. Every read runs
/// on a copy that is current; every write runs inside ONE server transaction that holds the
/// ledger's lock, and sends exactly the rows the write changed before that transaction commits.
/// So both stores behave the same by construction, and no SQL dialect reaches the engine,
/// the importers or the store's logic.
///
/// Implementations serialise the calls on one copy themselves (the copy is one connection).
public protocol RemoteLedger: AnyObject, Sendable {
    /// How the ledger is named to users (never with a password).
    var displayName: String { get }

    /// Connects, creates the ledger or upgrades its schema with `migrator` when `access`
    /// allows it (refusing a ledger written by a newer MoneyFlow), and returns the working copy
    /// (in memory, or a cache file kept between processes), loaded.
    /// A `.readOnly` open of a ledger that does not exist throws ``StoreError/missingStore(_:)``.
    func attach(migrator: DatabaseMigrator, access: StoreAccess) throws -> DatabaseQueue

    /// Runs `body` on the copy once it holds the ledger's latest committed state.
    func read<T>(copy: DatabaseQueue, _ body: (Database) throws -> T) throws -> T

    /// Runs `body` in a write transaction of the copy, inside one server transaction holding
    /// the ledger's lock, and commits on the server the rows it changed: all or nothing.
    func write<T>(copy: DatabaseQueue, _ body: (Database) throws -> T) throws -> T
}
