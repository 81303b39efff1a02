import Foundation
import MoneyFlowStore

/// Where a PostgreSQL ledger lives: `postgres://user@host:5432/db?ledger=NAME`, resolved the way
/// libpq resolves it (PGHOST, PGPORT, PGUSER, PGDATABASE, PGPASSWORD, PGPASSFILE / ~/.pgpass,
/// PGSSLMODE), so the URL users already have for `psql` works here.
public struct PostgresLocation: Sendable, Equatable {
    public enum TLSMode: String, Sendable { case disable, prefer, require, verifyFull = "verify-full" }

    public var host: String
    public var port: Int
    /// The socket file when `host` is a folder (a Unix-domain socket, as libpq does for a host
    /// that starts with `/`).
    public var unixSocketPath: String? { host.hasPrefix("/") ? (host as NSString).appendingPathComponent(".s.PGSQL.\(port)") : nil }
    public var user: String
    public var database: String
    /// The ledger inside the database; its tables live in schema ``schema``.
    public var ledger: String
    /// From the URL, PGPASSWORD or the password file; never printed.
    public var password: String?
    public var tls: TLSMode

    /// The database schema holding this ledger's tables.
    public var schema: String { "moneyflow_" + ledger }

    /// The URL without its password, for messages.
    public var displayName: String {
        let shownHost = host.hasPrefix("/") ? "" : (host.contains(":") ? "[\(host)]" : host)
        let socket = host.hasPrefix("/") ? "&host=\(host)" : ""
        return "postgres://\(user)@\(shownHost):\(port)/\(database)?ledger=\(ledger)\(socket)"
    }

    /// True when `text` names a PostgreSQL ledger rather than a SQLite file.
    public static func isPostgresURL(_ text: String) -> Bool {
        let lower = text.lowercased()
        return lower.hasPrefix("postgres://") || lower.hasPrefix("postgresql://")
    }

    static let ledgerName = try! NSRegularExpression(pattern: "^[a-z0-9_]{1,48}$")

    /// A ledger name is lowercase ASCII letters, digits and `_`, 1 to 48 of them.
    public static func isValidLedgerName(_ name: String) -> Bool {
        ledgerName.firstMatch(in: name, range: NSRange(name.startIndex..., in: name)) != nil
    }

    /// Parses `text` (a postgres:// URL). `ledger` overrides the URL's `ledger` parameter (the
    /// server names each user's ledger itself).
    public static func parse(
        _ text: String, ledger override: String? = nil,
        environment env: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> PostgresLocation {
        func fail(_ why: String) -> StoreError {
            StoreError("cannot use \(redacted(text)) as a store: \(why). Write it as postgres://USER@HOST:PORT/DATABASE?ledger=NAME")
        }
        guard isPostgresURL(text), let url = URLComponents(string: text) else { throw fail("it is not a valid URL") }
        var query: [String: String] = [:]
        for item in url.queryItems ?? [] {
            guard query[item.name] == nil else { throw fail("parameter \(item.name) is given twice") }
            query[item.name] = item.value ?? ""
        }
        let known: Set = ["ledger", "sslmode", "host", "port", "user", "dbname", "application_name", "connect_timeout"]
        if let unknown = query.keys.sorted().first(where: { !known.contains($0) }) {
            throw fail("unknown parameter '\(unknown)' (known: ledger, sslmode, host, port, user, dbname)")
        }
        // An IPv6 literal keeps its brackets in URLComponents' host on Linux: dropped here.
        let urlHost = url.percentEncodedHost.flatMap { $0.removingPercentEncoding }.flatMap { $0.isEmpty ? nil : $0 }
            .map { $0.hasPrefix("[") && $0.hasSuffix("]") ? String($0.dropFirst().dropLast()) : $0 }
        let host =
            query["host"] ?? urlHost ?? env["PGHOST"]
            ?? (FileManager.default.fileExists(atPath: "/var/run/postgresql") ? "/var/run/postgresql" : "127.0.0.1")
        let portText = query["port"] ?? url.port.map(String.init) ?? env["PGPORT"] ?? "5432"
        guard let port = Int(portText), (1...65535).contains(port) else { throw fail("port '\(portText)' is not a port number") }
        let user =
            query["user"] ?? url.percentEncodedUser.flatMap { $0.removingPercentEncoding }.flatMap { $0.isEmpty ? nil : $0 }
            ?? env["PGUSER"] ?? currentUserName()
        let path = url.percentEncodedPath.removingPercentEncoding ?? ""
        let database = query["dbname"] ?? (path.count > 1 ? String(path.dropFirst()) : nil) ?? env["PGDATABASE"] ?? user
        let ledger = override ?? query["ledger"] ?? "main"
        guard isValidLedgerName(ledger) else {
            throw fail("ledger name '\(ledger)' must be 1 to 48 lowercase letters, digits or _")
        }
        let modeText = query["sslmode"] ?? env["PGSSLMODE"] ?? "prefer"
        let tls: TLSMode
        switch modeText {
        case "disable", "allow": tls = .disable
        case "prefer": tls = .prefer
        case "require", "verify-ca": tls = .require
        case "verify-full": tls = .verifyFull
        default: throw fail("sslmode '\(modeText)' is not one of disable, prefer, require, verify-full")
        }
        var location = PostgresLocation(host: host, port: port, user: user, database: database, ledger: ledger, password: nil, tls: tls)
        location.password =
            url.percentEncodedPassword.flatMap { $0.removingPercentEncoding }
            ?? env["PGPASSWORD"]
            ?? PasswordFile.lookup(location, path: env["PGPASSFILE"] ?? (env["HOME"].map { $0 + "/.pgpass" } ?? ""))
        return location
    }

    /// `text` with any password in it replaced, for error messages.
    public static func redacted(_ text: String) -> String {
        guard var url = URLComponents(string: text), url.password != nil else { return text }
        url.password = "***"
        return url.string ?? "postgres://…"
    }

    static func currentUserName() -> String {
        if let pw = getpwuid(geteuid()), let name = pw.pointee.pw_name { return String(cString: name) }
        return "postgres"
    }
}

/// libpq's password file (https://www.postgresql.org/docs/current/libpq-pgpass.html):
/// `hostname:port:database:username:password` lines, `*` matching anything, `\` escaping `:`
/// and `\`; ignored when group or others can read it, as libpq does.
enum PasswordFile {
    static func lookup(_ l: PostgresLocation, path: String) -> String? {
        var info = stat()
        guard !path.isEmpty, stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_mode & 0o077 == 0,
            let text = try? String(contentsOfFile: path, encoding: .utf8)
        else { return nil }
        let host = l.host.hasPrefix("/") ? "localhost" : l.host
        for line in text.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
            let fields = split(String(line))
            guard fields.count == 5 else { continue }
            let wanted = [host, String(l.port), l.database, l.user]
            if zip(fields.prefix(4), wanted).allSatisfy({ $0 == "*" || $0 == $1 }) { return fields[4] }
        }
        return nil
    }

    static func split(_ line: String) -> [String] {
        var fields: [String] = [""]
        var escaped = false
        for c in line {
            if escaped {
                fields[fields.count - 1].append(c); escaped = false
            } else if c == "\\" {
                escaped = true
            } else if c == ":" && fields.count < 5 {
                fields.append("")
            } else {
                fields[fields.count - 1].append(c)
            }
        }
        return fields
    }
}
