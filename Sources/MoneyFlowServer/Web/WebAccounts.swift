import Crypto
import CryptoExtras
import Foundation
import GRDB
import MoneyFlowCore
import MoneyFlowStore

/// The web app's sign-in: each user's password (`moneyflow users passwd NAME`) and the
/// browsers' sessions, in `DIR/web.sqlite` beside the users (its own file: the users' table
/// stays the API's).
///
/// A password is kept as PBKDF2-HMAC-SHA256 (``rounds`` rounds, a random 128-bit salt of its
/// own), never in clear. A session is a random 256-bit id sent as an HttpOnly cookie; only its
/// SHA-256 is stored, so the file cannot be used to sign in. A session's CSRF token is derived
/// from its id (SHA-256 of a label and the id): every form of the session carries it, a page of
/// another site cannot read it, and the store holds nothing it can be computed from.
public final class WebAccounts: Sendable {
    public let users: UserDirectory
    private let db: DatabasePool
    let executor = StoreExecutor(label: "moneyflow-web", maxThreads: 2)
    /// OWASP's figure for PBKDF2-HMAC-SHA256 (2023); stored with each hash, so it can grow later.
    public static let rounds = 600_000
    /// A session ends this long after it was opened, used or not.
    public static let sessionLifetime: TimeInterval = 14 * 24 * 3600
    public static let minimumPasswordLength = 10

    public init(users: UserDirectory) throws {
        self.users = users
        let path = (users.dataDirectory as NSString).appendingPathComponent("web.sqlite")
        do {
            db = try PrivateDatabase.open(path)
            var migrator = DatabaseMigrator()
            migrator.registerMigration("v1-web") { db in
                try db.execute(
                    sql: """
                        CREATE TABLE web_password (
                          user_id TEXT PRIMARY KEY, salt BLOB NOT NULL, hash BLOB NOT NULL, rounds INTEGER NOT NULL, set_at TEXT NOT NULL);
                        CREATE TABLE web_session (
                          id_sha256 TEXT PRIMARY KEY, user_id TEXT NOT NULL, created_at REAL NOT NULL, expires_at REAL NOT NULL);
                        CREATE INDEX web_session_by_user ON web_session(user_id);
                        """)
            }
            try migrator.migrate(db)
        } catch let e as DatabaseError {
            throw UserDirectoryError("cannot open the web sessions of \(users.dataDirectory): \(e.message ?? "\(e.resultCode)")")
        }
    }

    // MARK: Passwords

    /// Sets (or replaces) the web password of user `name`; their open sessions end.
    public func setPassword(name: String, password: String) throws {
        guard password.count >= Self.minimumPasswordLength, password.utf8.count <= 1024 else {
            throw UserDirectoryError("the password must be \(Self.minimumPasswordLength) to 1024 characters long")
        }
        let user = try users.named(name)
        let salt = SymmetricKey(size: .bits128).withUnsafeBytes { Data($0) }
        let hash = try Self.derive(password, salt: salt, rounds: Self.rounds)
        try db.write { db in
            try db.execute(
                sql: """
                    INSERT INTO web_password(user_id, salt, hash, rounds, set_at) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT(user_id) DO UPDATE SET salt = excluded.salt, hash = excluded.hash, rounds = excluded.rounds, set_at = excluded.set_at
                    """, arguments: [user.id, salt, hash, Self.rounds, UserDirectory.timestamp()])
            try db.execute(sql: "DELETE FROM web_session WHERE user_id = ?", arguments: [user.id])
        }
    }

    /// The user `name` when `password` is theirs; nil otherwise (an unknown name costs the same
    /// derivation, so timing does not tell which names exist).
    func verify(name: String, password: String) throws -> ServerUser? {
        let user = try? users.named(name)
        let row = try user.flatMap { u in
            try db.read { db in try Row.fetchOne(db, sql: "SELECT salt, hash, rounds FROM web_password WHERE user_id = ?", arguments: [u.id]) }
        }
        let salt: Data = row?["salt"] ?? Data(repeating: 0, count: 16)
        let rounds: Int = row?["rounds"] ?? Self.rounds
        let derived = try Self.derive(String(password.utf8.prefix(1024)) ?? "", salt: salt, rounds: rounds)
        guard let user, let stored: Data = row?["hash"], ConstantTime.equal(stored.hex, derived.hex) else { return nil }
        return user
    }

    static func derive(_ password: String, salt: Data, rounds: Int) throws -> Data {
        try KDF.Insecure.PBKDF2.deriveKey(
            from: Data(password.utf8), salt: salt, using: .sha256, outputByteCount: 32, unsafeUncheckedRounds: rounds
        ).withUnsafeBytes { Data($0) }
    }

    // MARK: Sessions

    /// Opens a session for `user`: the cookie's value (shown to the browser only).
    func openSession(for user: ServerUser, now: Date = Date()) throws -> String {
        let id = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }.base64URL
        try db.write { db in
            try db.execute(sql: "DELETE FROM web_session WHERE expires_at < ?", arguments: [now.timeIntervalSince1970])
            try db.execute(
                sql: "INSERT INTO web_session(id_sha256, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)",
                arguments: [
                    UserDirectory.sha256(id), user.id, now.timeIntervalSince1970, now.timeIntervalSince1970 + Self.sessionLifetime,
                ])
        }
        return id
    }

    /// The session whose cookie is `cookie`, or nil (unknown, expired, or its user removed).
    func session(cookie: String, now: Date = Date()) throws -> WebSession? {
        guard !cookie.isEmpty, cookie.utf8.count < 100 else { return nil }
        let hash = UserDirectory.sha256(cookie)
        guard
            let row = try db.read({ db in
                try Row.fetchOne(db, sql: "SELECT user_id, expires_at FROM web_session WHERE id_sha256 = ?", arguments: [hash])
            })
        else { return nil }
        let expires: Double = row["expires_at"]
        let userID: String = row["user_id"]
        guard expires > now.timeIntervalSince1970, let user = try users.list().first(where: { $0.id == userID }) else { return nil }
        return WebSession(user: user, csrf: Self.csrfToken(cookie: cookie))
    }

    /// Ends the session whose cookie is `cookie` (signing out).
    func closeSession(cookie: String) throws {
        let hash = UserDirectory.sha256(cookie)
        try db.write { db in try db.execute(sql: "DELETE FROM web_session WHERE id_sha256 = ?", arguments: [hash]) }
    }

    static func csrfToken(cookie: String) -> String { UserDirectory.sha256("moneyflow-csrf:" + cookie) }

    func perform<T: Sendable>(_ body: @escaping @Sendable (WebAccounts) throws -> T) async throws -> T {
        try await executor.run { try body(self) }
    }
}

/// A signed-in browser: whose ledger it shows, and the token its forms must carry.
struct WebSession: Sendable {
    var user: ServerUser
    var csrf: String

    /// True when `token` (a form's `csrf` field) is this session's.
    func accepts(csrf token: String?) -> Bool {
        guard let token else { return false }
        return ConstantTime.equal(token, csrf)
    }
}

extension Data {
    var hex: String { map { String(format: "%02x", $0) }.joined() }

    /// Base64 with `-` and `_`, no padding (cookie- and URL-safe).
    var base64URL: String {
        base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
