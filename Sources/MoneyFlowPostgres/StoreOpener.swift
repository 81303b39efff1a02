import Crypto
import Foundation
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
            let parsed = try PostgresLocation.parse(location)
            return try LedgerStore(
                remote: PostgresLedger(parsed, cachePrefix: cachePrefix(for: parsed), waitNotice: waitNotice), access: access)
        }
        return try LedgerStore(path: location, access: access, waitNotice: waitNotice)
    }

    /// Where a command keeps its working copy of a PostgreSQL ledger between runs, so the next
    /// command fetches only what changed: `$XDG_CACHE_HOME/moneyflow/ledgers/` (default
    /// `~/.cache/...`), files named after the ledger (mode 0600, folder 0700).
    /// `MONEYFLOW_LEDGER_CACHE=off` keeps the copy in memory only.
    public static func cachePrefix(
        for location: PostgresLocation, environment env: [String: String] = ProcessInfo.processInfo.environment
    ) -> String? {
        if env["MONEYFLOW_LEDGER_CACHE"] == "off" { return nil }
        let base = env["XDG_CACHE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? env["HOME"].map { $0 + "/.cache" }
        guard let base, base.hasPrefix("/") else { return nil }
        let identity = "\(location.user)@\(location.host):\(location.port)/\(location.database)/\(location.schema)"
        let digest = SHA256.hash(data: Data(identity.utf8)).prefix(12).map { String(format: "%02x", $0) }.joined()
        return base + "/moneyflow/ledgers/\(location.ledger)-\(digest)"
    }

    /// The ledger `ledger` in the PostgreSQL database `databaseURL` (the server keeps one ledger
    /// per user this way). Its working copy stays in memory: a server keeps it open.
    public static func open(databaseURL: String, ledger: String, access: StoreAccess = .readWrite) throws -> LedgerStore {
        try LedgerStore(remote: PostgresLedger(try PostgresLocation.parse(databaseURL, ledger: ledger)), access: access)
    }

    /// How `location` is shown to users (a PostgreSQL URL without its password).
    public static func displayName(_ location: String) -> String {
        isRemote(location) ? ((try? PostgresLocation.parse(location).displayName) ?? PostgresLocation.redacted(location)) : location
    }
}
