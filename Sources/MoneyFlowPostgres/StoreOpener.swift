import MoneyFlowStore

/// Opens the store a user named: a SQLite file path (the default) or a PostgreSQL ledger
/// (`postgres://user@host:5432/db?ledger=NAME`). The CLI's `--store`/`MONEYFLOW_STORE` and the
/// server go through here, so both kinds of store are reachable everywhere.
public enum StoreOpener {
    /// True when `location` names a ledger on a PostgreSQL server.
    public static func isRemote(_ location: String) -> Bool { PostgresLocation.isPostgresURL(location) }

    public static func open(
        _ location: String, access: StoreAccess = .readWrite, waitNotice: (@Sendable (String) -> Void)? = nil
    ) throws -> LedgerStore {
        if isRemote(location) {
            return try LedgerStore(remote: PostgresLedger(try PostgresLocation.parse(location), waitNotice: waitNotice), access: access)
        }
        return try LedgerStore(path: location, access: access, waitNotice: waitNotice)
    }

    /// The ledger `ledger` in the PostgreSQL database `databaseURL` (the server keeps one ledger
    /// per user this way).
    public static func open(databaseURL: String, ledger: String, access: StoreAccess = .readWrite) throws -> LedgerStore {
        try LedgerStore(remote: PostgresLedger(try PostgresLocation.parse(databaseURL, ledger: ledger)), access: access)
    }

    /// How `location` is shown to users (a PostgreSQL URL without its password).
    public static func displayName(_ location: String) -> String {
        isRemote(location) ? ((try? PostgresLocation.parse(location).displayName) ?? PostgresLocation.redacted(location)) : location
    }
}
