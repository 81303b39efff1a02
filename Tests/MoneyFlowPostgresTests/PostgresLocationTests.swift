import Foundation
import MoneyFlowPostgres
import MoneyFlowTestSupport
import Testing

@testable import MoneyFlowStore

/// How `--store postgres://...` is read: the URL forms libpq users write, libpq's defaults
/// (PGHOST, PGPORT, PGUSER, PGDATABASE) and password sources (URL, then PGPASSWORD, then the
/// password file), and that no message ever shows the password. No server needed.
@Suite struct PostgresLocationTests {
    func parse(_ url: String, _ env: [String: String] = [:]) throws -> PostgresLocation {
        try PostgresLocation.parse(url, environment: env)
    }

    @Test func everyPartOfTheURL() throws {
        let l = try parse("postgres://alice@db.example.com:6543/books?ledger=home&sslmode=require")
        #expect(l.host == "db.example.com" && l.port == 6543 && l.user == "alice" && l.database == "books")
        #expect(l.ledger == "home" && l.schema == "moneyflow_home" && l.tls == .require && l.password == nil)
        #expect(l.displayName == "postgres://alice@db.example.com:6543/books?ledger=home")
        // postgresql:// is the same; the ledger defaults to main; the server may name it.
        let m = try parse("postgresql://alice@db/books")
        #expect(m.ledger == "main" && m.port == 5432)
        #expect(try PostgresLocation.parse("postgres://alice@db/books?ledger=x", ledger: "user_7", environment: [:]).ledger == "user_7")
    }

    @Test func percentEncodedParts() throws {
        let l = try parse("postgres://al%40ice:p%3Ass%2Fw@db/my%20books?ledger=x")
        #expect(l.user == "al@ice" && l.password == "p:ss/w" && l.database == "my books")
        #expect(!l.displayName.contains("p:ss") && !l.displayName.contains("p%3Ass"))
    }

    @Test func anIPv6Host() throws {
        let l = try parse("postgres://u@[::1]:5433/d?ledger=x")
        #expect(l.host == "::1" && l.port == 5433)
        #expect(l.displayName == "postgres://u@[::1]:5433/d?ledger=x")
    }

    @Test func aSocketFolder() throws {
        let l = try parse("postgres://u@/d?ledger=x&host=/run/pg&port=5999")
        #expect(l.host == "/run/pg" && l.unixSocketPath == "/run/pg/.s.PGSQL.5999")
        #expect(l.displayName == "postgres://u@:5999/d?ledger=x&host=/run/pg")
        // A parameter wins over the URL's own part, as in libpq.
        #expect(try parse("postgres://u@h1:1/d1?host=h2&port=2&dbname=d2&user=v&ledger=x").description == "v@h2:2/d2")
    }

    @Test func defaultsFromTheEnvironment() throws {
        let env = ["PGHOST": "pg.internal", "PGPORT": "7777", "PGUSER": "bob", "PGDATABASE": "money"]
        let l = try parse("postgres://?ledger=x", env)
        #expect(l.description == "bob@pg.internal:7777/money")
        // The URL's parts win over the environment.
        #expect(try parse("postgres://carol@h:1/d?ledger=x", env).description == "carol@h:1/d")
        // Without PGDATABASE the database is the user's name, as in libpq.
        #expect(try parse("postgres://carol@h/?ledger=x", ["PGPORT": "5"]).description == "carol@h:5/carol")
    }

    /// A password file holding `lines`, with `mode`.
    func passwordFile(_ lines: [String], mode: mode_t = 0o600) throws -> String {
        let path = try TestPaths.tempDir("pgpass") + "/pgpass"
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, mode)
        return path
    }

    @Test func passwordPrecedenceURLThenPGPASSWORDThenTheFile() throws {
        let file = try passwordFile(["h:5432:d:u:from-file"])
        let url = "postgres://u@h/d?ledger=x"
        #expect(try parse(url, ["PGPASSFILE": file]).password == "from-file")
        #expect(try parse(url, ["PGPASSFILE": file, "PGPASSWORD": "from-env"]).password == "from-env")
        #expect(try parse("postgres://u:from-url@h/d?ledger=x", ["PGPASSFILE": file, "PGPASSWORD": "from-env"]).password == "from-url")
        // ~/.pgpass when PGPASSFILE is not set.
        let home = (file as NSString).deletingLastPathComponent
        try FileManager.default.moveItem(atPath: file, toPath: home + "/.pgpass")
        #expect(try parse(url, ["HOME": home]).password == "from-file")
    }

    @Test func passwordFileWildcardsAndEscapes() throws {
        let file = try passwordFile([
            "# a comment",
            "other:5432:d:u:not-this-one",
            "h:5433:*:u:port-5433",
            "*:*:we\\:ird:u:colon-db",
            "*:*:*:u:back\\\\slash\\:colon",
        ])
        #expect(try parse("postgres://u@h:5433/d?ledger=x", ["PGPASSFILE": file]).password == "port-5433")
        #expect(try parse("postgres://u@h/we%3Aird?ledger=x", ["PGPASSFILE": file]).password == "colon-db")
        #expect(try parse("postgres://u@h/d?ledger=x", ["PGPASSFILE": file]).password == "back\\slash:colon")
        #expect(try parse("postgres://nobody@h/d?ledger=x", ["PGPASSFILE": file]).password == nil)
        // A socket folder is "localhost" in the file, as in libpq.
        let socket = try passwordFile(["localhost:5432:d:u:by-socket"])
        #expect(try parse("postgres://u@/d?ledger=x&host=/run/pg", ["PGPASSFILE": socket]).password == "by-socket")
    }

    @Test func aPasswordFileOthersCanReadIsIgnored() throws {
        for mode: mode_t in [0o640, 0o604] {
            let file = try passwordFile(["*:*:*:*:secret"], mode: mode)
            #expect(try parse("postgres://u@h/d?ledger=x", ["PGPASSFILE": file]).password == nil, "mode \(String(mode, radix: 8))")
        }
    }

    @Test(arguments: ["Home", "a-b", "", "x y", "é", String(repeating: "a", count: 49)])
    func badLedgerNamesAreRefused(name: String) throws {
        let url = "postgres://u:s3cret@h/d?ledger=" + (name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? name)
        let error = #expect(throws: StoreError.self) { try parse(url) }
        #expect(error?.message.contains("must be 1 to 48 lowercase letters, digits or _") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("s3cret") == false)
        #expect(try parse("postgres://u@h/d?ledger=" + String(repeating: "a", count: 48)).ledger.count == 48)
    }

    /// Every refusal is one line naming the URL without its password.
    @Test(arguments: [
        ("postgres://u:s3cret@h/d?ledger=x&colour=blue", "unknown parameter 'colour'"),
        ("postgres://u:s3cret@h/d?ledger=x&ledger=y", "parameter ledger is given twice"),
        ("postgres://u:s3cret@h:99999/d?ledger=x", "is not a port number"),
        ("postgres://u:s3cret@h/d?ledger=x&sslmode=maybe", "sslmode 'maybe'"),
        ("postgres://u:s3cret@h/d?ledger=x&port=abc", "port 'abc'"),
    ])
    func badURLsAreOneLineWithoutThePassword(url: String, why: String) throws {
        let error = #expect(throws: StoreError.self) { try parse(url) }
        let message = error?.message ?? ""
        #expect(message.contains(why), "\(message)")
        #expect(message.contains("postgres://u:***@h"), "\(message)")
        #expect(!message.contains("s3cret") && !message.contains("\n"), "\(message)")
    }

    @Test func theDisplayNameNeverHoldsThePassword() throws {
        for (url, env) in [
            ("postgres://u:s3cret@h/d?ledger=x", [String: String]()),
            ("postgres://u@h/d?ledger=x", ["PGPASSWORD": "s3cret"]),
        ] {
            let l = try parse(url, env)
            #expect(l.password == "s3cret")
            #expect(!l.displayName.contains("s3cret"))
            #expect(!StoreOpener.displayName(url).contains("s3cret"))
        }
    }
}

extension PostgresLocation: CustomStringConvertible {
    /// user@host:port/database, to compare parsed locations in one line.
    public var description: String { "\(user)@\(host):\(port)/\(database)" }
}
