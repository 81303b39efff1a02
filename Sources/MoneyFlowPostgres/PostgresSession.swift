import Dispatch
import Foundation
import Logging
import MoneyFlowStore
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO
import Synchronization

/// One PostgreSQL connection used synchronously, as the store's code is synchronous: every
/// call blocks the calling thread (never an event loop or Swift's cooperative pool: see
/// ``BlockingAsync``) until PostgreSQL answered. Not for concurrent use: its owner
/// (``PostgresLedger``) serialises the calls. Reconnects on the next call after a lost connection.
final class PostgresSession: @unchecked Sendable {
    let location: PostgresLocation
    private var connection: PostgresConnection?
    private static let logger: Logger = {
        var l = Logger(label: "moneyflow.postgres")
        l.logLevel = .critical
        return l
    }()
    private static let connectionIDs = Mutex(1)

    init(_ location: PostgresLocation) { self.location = location }

    deinit {
        // postgres-nio requires a connection to be closed before it goes away.
        guard let c = connection, !c.isClosed else { return }
        if c.eventLoop.inEventLoop { c.close().whenComplete { _ in } } else { _ = try? c.close().wait() }
    }

    /// The open connection, connecting first when needed.
    func open() throws -> PostgresConnection {
        if let c = connection, !c.isClosed { return c }
        connection = nil
        var config: PostgresConnection.Configuration
        if let socket = location.unixSocketPath {
            config = .init(unixSocketPath: socket, username: location.user, password: location.password, database: location.database)
        } else {
            let tls: PostgresConnection.Configuration.TLS
            switch location.tls {
            case .disable: tls = .disable
            case .prefer, .require:
                var c = TLSConfiguration.makeClientConfiguration()
                c.certificateVerification = .none // libpq's prefer/require: encrypt, do not verify
                let context = try NIOSSLContext(configuration: c)
                tls = location.tls == .prefer ? .prefer(context) : .require(context)
            case .verifyFull: tls = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
            }
            config = .init(
                host: location.host, port: location.port, username: location.user, password: location.password, database: location.database,
                tls: tls)
        }
        config.options.connectTimeout = .seconds(15)
        let id = Self.connectionIDs.withLock { id in
            defer { id += 1 }
            return id
        }
        do {
            let c = try PostgresConnection.connect(
                on: MultiThreadedEventLoopGroup.singleton.next(), configuration: config, id: id, logger: Self.logger
            ).wait()
            connection = c
            // A client that stopped while holding the ledger's lock blocks writers for at most
            // this long (SQLite's store waits as long for its write lock).
            _ = try c.query("SET lock_timeout = '120s'", logger: Self.logger).wait()
            // postgres-nio's COPY quotes the bare table name it is given: the ledger's schema
            // comes first in the search path (every other statement names it in full).
            _ = try c.query(PostgresQuery(unsafeSQL: "SET search_path TO \"\(location.schema)\""), logger: Self.logger).wait()
            return c
        } catch {
            throw StoreError(
                "cannot connect to \(location.displayName): \(Self.describe(error)); check that PostgreSQL runs there and the user, database and password (PGPASSWORD or ~/.pgpass) are right"
            )
        }
    }

    /// Runs `sql` with `binds` and returns all its rows.
    @discardableResult
    func query(_ sql: String, _ binds: PostgresBindings = PostgresBindings()) throws -> [PostgresRow] {
        let c = try open()
        do {
            let result = try c.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: Self.logger).wait()
            return Array(result.rows)
        } catch {
            throw storeError(error)
        }
    }

    /// Runs a statement that returns no rows.
    func execute(_ sql: String, _ binds: PostgresBindings = PostgresBindings()) throws {
        _ = try query(sql, binds)
    }

    /// `COPY table (columns) FROM STDIN` with `data` in COPY's text format; `table` is a table
    /// of the ledger's schema, and it and `columns` are bare names (postgres-nio quotes them).
    func copy(into table: String, columns: [String], data: ByteBuffer) throws {
        let c = try open()
        do {
            try BlockingAsync.run {
                try await c.copyFrom(table: table, columns: columns, logger: Self.logger) { writer in
                    try await writer.write(data)
                }
            }
        } catch {
            throw storeError(error)
        }
    }

    func storeError(_ error: any Error) -> StoreError {
        if let e = error as? StoreError { return e }
        switch Self.sqlState(error) {
        case "55P03": // lock_not_available: lock_timeout expired
            return StoreError("store \(location.displayName) stayed locked by another process for 120 s; try again when it has finished")
        case "53100": // disk_full
            return StoreError(
                "disk full on the PostgreSQL server of \(location.displayName); nothing was written, free some space and try again")
        case "25006": // read_only_sql_transaction (a standby)
            return StoreError(
                "\(location.displayName) is a read-only server (a standby?); point the store at the primary. Nothing was written")
        default: break
        }
        return StoreError("store \(location.displayName): \(Self.describe(error))")
    }

    /// PostgreSQL's own message (postgres-nio's description hides it on purpose), or what
    /// went wrong with the connection.
    static func describe(_ error: any Error) -> String {
        if let e = error as? PSQLError {
            if let message = e.serverInfo?[.message] {
                let state = e.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? ""
                return message + state
            }
            if let underlying = e.underlying { return "\(e.code): \(underlying)" }
            return "\(e.code)"
        }
        return "\(error)"
    }

    /// The SQLSTATE of a PostgreSQL error, if it is one.
    static func sqlState(_ error: any Error) -> String? { (error as? PSQLError)?.serverInfo?[.sqlState] }
}

/// Runs async work from synchronous code without touching Swift's cooperative thread pool:
/// the work's jobs run on a private dispatch queue (a task executor preference) while the
/// calling thread waits. Blocking a cooperative thread on work that itself needs one can
/// deadlock when every cooperative thread waits the same way (2 on a 2-core machine).
enum BlockingAsync {
    final class Executor: TaskExecutor {
        static let shared = Executor()
        let queue = DispatchQueue(label: "moneyflow.postgres.blocking-async", attributes: .concurrent)
        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            let executor = asUnownedTaskExecutor()
            queue.async { job.runSynchronously(on: executor) }
        }
    }

    final class Outcome<T>: @unchecked Sendable { var result: Result<T, any Error>? }

    static func run<T>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
        let outcome = Outcome<T>()
        let done = DispatchSemaphore(value: 0)
        Task(executorPreference: Executor.shared) {
            do { outcome.result = .success(try await work()) } catch { outcome.result = .failure(error) }
            done.signal()
        }
        done.wait()
        return try outcome.result!.get()
    }
}
