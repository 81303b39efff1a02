import Foundation

/// The test PostgreSQL server (`scripts/lib/postgres.sh` starts one and exports
/// `MONEYFLOW_TEST_POSTGRES=postgres://moneyflow@127.0.0.1:PORT/moneyflow_test?sslmode=disable`).
/// Tests that need it are enabled only when it is there (`TestPostgres.isAvailable`); every test
/// uses ledgers of its own (``ledgerName(_:)``), since the database is shared by every suite.
public enum TestPostgres {
    /// The test database's URL (no `ledger` parameter), or nil when no test server is configured.
    public static var databaseURL: String? {
        guard let url = ProcessInfo.processInfo.environment["MONEYFLOW_TEST_POSTGRES"], !url.isEmpty else { return nil }
        return withoutLedger(url)
    }

    public static var isAvailable: Bool { databaseURL != nil }

    /// The environment of a command that reads a ledger back as the server holds it: no ledger
    /// cache file (`MONEYFLOW_LEDGER_CACHE=off`), so it loads a new copy from PostgreSQL rather
    /// than the cache file the writing commands kept, which holds what they meant to store.
    public static let uncachedRead = ["MONEYFLOW_LEDGER_CACHE": "off"]

    /// A fresh ledger name `<prefix>_<12 hex>` (valid: lowercase, digits, `_`, at most 48).
    public static func ledgerName(_ prefix: String) -> String {
        let hex = UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(12)
        return "\(prefix.prefix(30))_\(hex)"
    }

    /// `--store` URL of ledger `name` in the test database.
    public static func storeURL(ledger name: String) -> String {
        let base = databaseURL ?? "postgres://missing/"
        return base + (base.contains("?") ? "&" : "?") + "ledger=\(name)"
    }

    /// `url` without its `ledger` query parameter (what `serve --database` and psql take).
    public static func withoutLedger(_ url: String) -> String {
        guard var c = URLComponents(string: url) else { return url }
        let kept = (c.queryItems ?? []).filter { $0.name != "ledger" }
        c.queryItems = kept.isEmpty ? nil : kept
        return c.string ?? url
    }

    /// The schema MoneyFlow keeps ledger `name` in.
    public static func schema(ledger name: String) -> String { "moneyflow_" + name }

    /// Runs `sql` with psql against the test database; its stdout (unaligned, tuples only).
    /// Throws when psql fails, with its stderr.
    @discardableResult
    public static func psql(_ sql: String) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["psql", "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", databaseURL ?? "", "-c", sql]
        // Output to files, not pipes: only the bounded wait can block.
        let dir = try TestPaths.tempDir("psql")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let outPath = dir + "/out", errPath = dir + "/err"
        for path in [outPath, errPath] { _ = FileManager.default.createFile(atPath: path, contents: nil) }
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath)),
            err = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        defer { try? out.close(); try? err.close() }
        p.standardOutput = out; p.standardError = err
        try p.run()
        try ChildWait.process(p, what: "psql")
        guard p.terminationStatus == 0 else {
            throw TestPostgresError(
                "psql failed (\(p.terminationStatus)): \((try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "")")
        }
        return try String(contentsOfFile: outPath, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Drops the ledgers' schemas (best effort: a test's leftovers must not fill the shared database).
    public static func dropLedgers(_ names: [String]) {
        guard isAvailable, !names.isEmpty else { return }
        _ = try? psql(names.map { "DROP SCHEMA IF EXISTS \"\(schema(ledger: $0))\" CASCADE;" }.joined())
    }
}

public struct TestPostgresError: Error, CustomStringConvertible {
    public var description: String
    public init(_ d: String) { description = d }
}

/// One psql process kept open for many quick queries (polling a ledger while a `moneyflow`
/// process writes it: a new psql per poll would take longer than some of the writes).
public final class PsqlSession: @unchecked Sendable {
    let process = Process()
    let input = Pipe(), output = Pipe()
    var pending = Data()
    static let marker = "__moneyflow_psql_done__"

    public init() throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["psql", "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=0", TestPostgres.databaseURL ?? ""]
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
    }

    deinit {
        try? input.fileHandleForWriting.close()
        // psql ends at the end of its input; one that does not is killed, not waited for forever.
        try? ChildWait.process(process, what: "psql", timeout: ChildWait.stopTimeout)
    }

    /// The rows `sql` (one statement, without its `;`) printed, one string per line; [] when it failed (e.g. the
    /// ledger's tables do not exist yet).
    public func query(_ sql: String) throws -> [String] {
        // The `;` ends the statement: psql runs `\echo` at once, so an unterminated query would
        // print the marker before its rows.
        try input.fileHandleForWriting.write(contentsOf: Data((sql + ";\n\\echo \(Self.marker)\n").utf8))
        var lines: [String] = []
        while true {
            if let nl = pending.firstIndex(of: 0x0A) {
                let line = String(decoding: pending[pending.startIndex..<nl], as: UTF8.self)
                pending = Data(pending[pending.index(after: nl)...])
                if line == Self.marker { return lines }
                if !line.isEmpty { lines.append(line) }
                continue
            }
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw TestPostgresError("psql ended") }
            pending.append(chunk)
        }
    }

    /// The first column of the first row as an integer (0 when the query failed).
    public func int(_ sql: String) throws -> Int { Int(try query(sql).first ?? "") ?? 0 }
}
