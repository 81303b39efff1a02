import Foundation
import Logging
import MoneyFlowPostgres
import NIOCore
import NIOPosix
import PostgresNIO

/// The test PostgreSQL server (`scripts/lib/postgres.sh` starts one and exports
/// `MONEYFLOW_TEST_POSTGRES=postgres://moneyflow@127.0.0.1:PORT/moneyflow_test?sslmode=disable`,
/// with its password in PGPASSFILE), the ledgers the tests make on it, and plain SQL on it for
/// tests that must look at or tamper with a ledger behind the store's back (the store itself
/// never runs through here). The one helper of every suite that needs the server: tests that
/// need it are enabled only when it is there (``isAvailable``), and each uses ledgers of its own
/// (``ledgerName(_:)``), since the database is shared by every suite and every run.
public enum TestPostgres {
    /// The test database's URL (without a `ledger` parameter), or nil when this run has no server.
    public static var url: String? {
        guard let u = ProcessInfo.processInfo.environment["MONEYFLOW_TEST_POSTGRES"], !u.isEmpty else { return nil }
        return withoutLedger(u)
    }

    public static var isAvailable: Bool { url != nil }

    /// The environment of a command that reads a ledger back as the server holds it: no ledger
    /// cache file (`MONEYFLOW_LEDGER_CACHE=off`), so it loads a new copy from PostgreSQL rather
    /// than the cache file the writing commands kept, which holds what they meant to store.
    public static let uncachedRead = ["MONEYFLOW_LEDGER_CACHE": "off"]

    /// PostgreSQL's own message (postgres-nio's description of its errors hides it).
    struct Failure: Error, CustomStringConvertible {
        var sql: String
        var error: String
        var description: String { "\(error) (in: \(sql))" }
    }

    struct NoServer: Error, CustomStringConvertible {
        var description: String { "MONEYFLOW_TEST_POSTGRES is not set" }
    }

    /// `--store` URL of ledger `name` in the test database.
    public static func storeURL(ledger name: String) -> String {
        let base = url ?? "postgres://missing/"
        return base + (base.contains("?") ? "&" : "?") + "ledger=\(name)"
    }

    /// `url` without its `ledger` query parameter (what `serve --database` takes).
    public static func withoutLedger(_ url: String) -> String {
        guard var c = URLComponents(string: url) else { return url }
        let kept = (c.queryItems ?? []).filter { $0.name != "ledger" }
        c.queryItems = kept.isEmpty ? nil : kept
        return c.string ?? url
    }

    /// A fresh ledger name `<prefix>_<12 hex>` (valid: lowercase, digits, `_`, at most 48).
    public static func ledgerName(_ prefix: String) -> String {
        var g = SystemRandomNumberGenerator()
        return prefix.prefix(30) + "_" + (0..<12).map { _ in String(g.next(upperBound: UInt8(16)), radix: 16) }.joined()
    }

    /// A ledger name no other test or run uses: `t_` and 12 random hex digits. The first call
    /// of a run also drops the test ledgers earlier runs left (see ``dropStaleTestLedgers()``).
    public static func uniqueLedgerName() -> String {
        _ = staleLedgersDropped
        return ledgerName("t")
    }

    /// Drops the ledgers' schemas (best effort: a test's leftovers must not fill the shared database).
    public static func dropLedgers(_ names: [String]) {
        guard isAvailable else { return }
        for name in names { try? execute("DROP SCHEMA IF EXISTS \"\(schema(ledger: name))\" CASCADE") }
    }

    static let staleLedgersDropped: Void = { try? dropStaleTestLedgers() }()

    /// Drops the `t_` ledgers (schemas `moneyflow_t_*`) not written for an hour: every test
    /// makes ledgers of its own and nothing else removes them, so runs on one server would pile
    /// up thousands of schemas. An hour-old ledger belongs to no run still going; schemas
    /// without a ledger table (a test's foreign tables) are left to the test that made them.
    /// At most 200 per run (a drop takes ~150 ms; one full run makes ~900 ledgers), so the first
    /// test of a run never waits long; the next runs drop the rest.
    public static func dropStaleTestLedgers() throws {
        let stale = try rows(
            """
            SELECT n.nspname FROM pg_namespace n JOIN pg_class c ON c.relnamespace = n.oid AND c.relname = 'moneyflow_ledger'
            WHERE n.nspname LIKE 'moneyflow\\_t\\_%' AND (xpath('/row/old/text()', query_to_xml(
              format('SELECT updated_at < now() - interval ''1 hour'' AS old FROM %I.moneyflow_ledger', n.nspname), false, true, '')))[1]::text = 'true'
            LIMIT 200
            """)
        for row in stale { if let schema = row.first ?? nil { try execute("DROP SCHEMA \"\(schema)\" CASCADE") } }
    }

    /// Runs `sql` (one statement) on the test database.
    public static func execute(_ sql: String) throws { _ = try rows(sql) }

    /// The rows of `sql` on a connection of its own (see ``Session/rows(_:)``).
    public static func rows(_ sql: String) throws -> [[String?]] {
        let session = try Session()
        defer { session.close() }
        return try session.rows(sql)
    }

    /// One connection to the test database, for tests that hold something (a transaction, a
    /// lock) across calls. Blocks the calling thread on each call.
    public final class Session: @unchecked Sendable {
        let connection: PostgresConnection

        public init() throws {
            guard isAvailable else { throw NoServer() }
            let l = try PostgresLocation.parse(storeURL(ledger: "unused"))
            let config: PostgresConnection.Configuration =
                l.unixSocketPath.map { .init(unixSocketPath: $0, username: l.user, password: l.password, database: l.database) }
                ?? .init(host: l.host, port: l.port, username: l.user, password: l.password, database: l.database, tls: .disable)
            connection = try PostgresConnection.connect(
                on: MultiThreadedEventLoopGroup.singleton.next(), configuration: config, id: 0, logger: TestPostgres.logger
            ).wait()
        }

        /// The rows of `sql`, every value as text (nil for NULL); cast in the SQL what is
        /// neither text, an integer nor a boolean.
        public func rows(_ sql: String) throws -> [[String?]] {
            do {
                let result = try connection.query(PostgresQuery(unsafeSQL: sql), logger: TestPostgres.logger).wait()
                return result.rows.map { row in row.map(TestPostgres.text) }
            } catch {
                throw Failure(sql: sql, error: (error as? PSQLError)?.serverInfo?[.message] ?? String(reflecting: error))
            }
        }

        public func execute(_ sql: String) throws { _ = try rows(sql) }

        /// The rows of `sql` as lines, columns joined by `|`; [] when it fails (e.g. the ledger's
        /// tables do not exist yet): for polling a ledger another process is writing.
        public func lines(_ sql: String) -> [String] {
            ((try? rows(sql)) ?? []).map { row in row.map { $0 ?? "" }.joined(separator: "|") }
        }

        /// The first column of the first row as an integer (0 when the query failed).
        public func int(_ sql: String) -> Int { Int(lines(sql).first?.split(separator: "|").first ?? "") ?? 0 }

        public func close() { _ = try? connection.close().wait() }

        deinit { if !connection.isClosed { close() } }
    }

    /// A value as text by its type: postgres-nio decodes any binary value as a String (an
    /// integer's bytes would read as garbage), so integers and booleans are decoded as such first.
    static func text(_ cell: PostgresCell) -> String? {
        guard cell.bytes != nil else { return nil }
        switch cell.dataType {
        case .int2, .int4, .int8: if let i = try? cell.decode(Int64.self) { return String(i) }
        case .bool: if let b = try? cell.decode(Bool.self) { return String(b) }
        default: if let s = try? cell.decode(String.self) { return s }
        }
        return "<\(cell.dataType)>"
    }

    static let logger: Logger = {
        var l = Logger(label: "moneyflow.test-postgres")
        l.logLevel = .critical
        return l
    }()

    /// The schema names of the database (to check that something created nothing).
    public static func schemas() throws -> Set<String> {
        Set(try rows("SELECT nspname FROM pg_namespace").compactMap { $0.first ?? nil })
    }
}

extension TestPostgres {
    /// The schema MoneyFlow keeps ledger `name` in (as ``PostgresLocation/schema`` names it).
    public static func schema(ledger name: String) -> String { "moneyflow_" + name }

    /// The ledger name in a test ledger's URL (its `ledger` parameter).
    public static func ledgerName(inURL url: String) -> String? {
        URLComponents(string: url)?.queryItems?.first { $0.name == "ledger" }?.value
    }

    /// Everything the server holds for a ledger, table by table, as one comparable value: each
    /// table's name and the MD5 of its rows in a fixed order. Equal before and after means the
    /// ledger's rows (its version counter included) were not touched.
    public static func ledgerFingerprint(_ ledger: String) throws -> [String] {
        let schema = schema(ledger: ledger)
        let session = try Session()
        defer { session.close() }
        let tables = try session.rows("SELECT tablename FROM pg_tables WHERE schemaname = '\(schema)' ORDER BY tablename").compactMap {
            $0.first ?? nil
        }
        return try tables.map { t in
            let q = "\"\(schema)\".\"\(t)\""
            let digest = try session.rows(
                "SELECT count(*)::text || ' ' || coalesce(md5(string_agg(x::text, E'\\n' ORDER BY x::text)), '') FROM \(q) x")
            return t + ": " + ((digest.first ?? []).first.flatMap { $0 } ?? "?")
        }
    }
}

/// A failure of the test PostgreSQL setup around a test (a helper server that did not start).
public struct TestPostgresError: Error, CustomStringConvertible {
    public var description: String
    public init(_ d: String) { description = d }
}
