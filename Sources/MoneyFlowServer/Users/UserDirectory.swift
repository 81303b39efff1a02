import Crypto
import Foundation
import GRDB
import MoneyFlowCore
import MoneyFlowStore

/// A user of `moneyflow serve`: their own ledger, reached with their own API token.
public struct ServerUser: Sendable, Hashable {
    /// Random and stable: names the user's ledger folder (a name never becomes a path).
    public var id: String
    public var name: String
    public var createdAt: String
    public var tokenIssuedAt: String
    /// 1, 2, 3 ... in the order users were added: the user's block of ledger ids
    /// (``idBase``), so no two users' ledgers share an id.
    public var number: Int64

    /// Ids in this user's ledger start after this (blocks of 2^36 ids: 131,072 users stay
    /// below 2^53, the largest integer a JavaScript client reads exactly).
    public var idBase: Int64 { number << 36 }
}

/// The server's users (`DIR/users.sqlite`) and where their ledgers live (`DIR/ledgers/<id>/`).
///
/// An API token is shown once, when it is made; only its SHA-256 is stored (tokens are 256
/// random bits, so a plain hash cannot be reversed or guessed), looked up by a unique index.
/// Several server processes and CLI commands may share the folder: WAL and a busy timeout.
public final class UserDirectory: Sendable {
    public let dataDirectory: String
    private let db: DatabasePool
    /// The threads its `async` calls run on (see UserDirectory+Async.swift).
    let executor = StoreExecutor(label: "moneyflow-users")
    /// The token check's own threads: it runs before every request, so it never waits behind
    /// the users' file work (profiles) on ``executor``.
    let authExecutor = StoreExecutor(label: "moneyflow-auth", maxThreads: 2)

    public init(dataDirectory: String) throws {
        self.dataDirectory = dataDirectory
        let fm = FileManager.default
        do {
            try fm.createDirectory(atPath: dataDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let path = (dataDirectory as NSString).appendingPathComponent("users.sqlite")
            db = try PrivateDatabase.open(path)
            var migrator = DatabaseMigrator()
            migrator.registerMigration("v1-users") { db in
                try db.execute(
                    sql: """
                        CREATE TABLE server_user (
                          id TEXT PRIMARY KEY, number INTEGER NOT NULL UNIQUE, name TEXT NOT NULL UNIQUE, token_sha256 TEXT NOT NULL UNIQUE,
                          created_at TEXT NOT NULL, token_issued_at TEXT NOT NULL);
                        CREATE TABLE user_number (seq INTEGER PRIMARY KEY);
                        CREATE TABLE plaid_item_owner (
                          item_id TEXT PRIMARY KEY, user_id TEXT NOT NULL REFERENCES server_user(id) ON DELETE CASCADE);
                        """)
            }
            try migrator.migrate(db)
        } catch let e as DatabaseError {
            throw UserDirectoryError("cannot open the users of \(dataDirectory): \(e.message ?? "\(e.resultCode)")")
        }
    }

    // MARK: Users

    public func add(name: String) throws -> (user: ServerUser, token: String) {
        try Self.validate(name)
        let (token, hash) = Self.newToken()
        let now = Self.timestamp()
        let user = try db.write { db -> ServerUser in
            if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM server_user WHERE name = ?)", arguments: [name]) == true {
                throw UserDirectoryError(
                    "a user named '\(name)' exists already; `moneyflow users rotate-token \(name)` gives them a new token")
            }
            // Numbers are never reused (a removed user's ledger keeps its ids).
            let number = (try Int64.fetchOne(db, sql: "SELECT max(seq) FROM user_number") ?? 0) + 1
            guard number < (1 << 17) else { throw UserDirectoryError("this data folder has had 131,072 users; start another data folder") }
            try db.execute(sql: "INSERT INTO user_number(seq) VALUES (?)", arguments: [number])
            let user = ServerUser(id: Self.randomID(), name: name, createdAt: now, tokenIssuedAt: now, number: number)
            try db.execute(
                sql: "INSERT INTO server_user(id, number, name, token_sha256, created_at, token_issued_at) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [user.id, number, name, hash, now, now])
            return user
        }
        return (user, token)
    }

    public func list() throws -> [ServerUser] {
        try db.read { db in try Row.fetchAll(db, sql: "SELECT * FROM server_user ORDER BY name").map(Self.user) }
    }

    /// The user can no longer sign in; their ledger folder is moved to `removed/` (kept, not
    /// deleted) once their running jobs on any server have ended (``UserJobLock``): a job
    /// finishes into the ledger before it moves, and none starts after.
    public func remove(name: String) throws {
        let user = try named(name)
        try db.write { db in try db.execute(sql: "DELETE FROM server_user WHERE id = ?", arguments: [user.id]) }
        let lock = try UserJobLock.forRemoval(dataDirectory: dataDirectory, userID: user.id)
        defer { lock.release() }
        let folder = ledgerFolder(for: user)
        if FileManager.default.fileExists(atPath: folder) {
            let removed = (dataDirectory as NSString).appendingPathComponent("removed")
            try FileManager.default.createDirectory(
                atPath: removed, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let stamp = Self.timestamp().replacingOccurrences(of: ":", with: "")
            try FileManager.default.moveItem(atPath: folder, toPath: (removed as NSString).appendingPathComponent("\(user.id)-\(stamp)"))
        }
        // A job that opens the lock file later finds the user gone and stops.
        unlink(UserJobLock.path(dataDirectory: dataDirectory, userID: user.id))
    }

    /// True while the user has not been removed.
    public func exists(_ user: ServerUser) throws -> Bool {
        try db.read { db in try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM server_user WHERE id = ?)", arguments: [user.id]) }
            ?? false
    }

    /// A new token for the user; the old one stops working at once.
    public func rotateToken(name: String) throws -> String {
        let user = try named(name)
        let (token, hash) = Self.newToken()
        try db.write { db in
            try db.execute(
                sql: "UPDATE server_user SET token_sha256 = ?, token_issued_at = ? WHERE id = ?",
                arguments: [hash, Self.timestamp(), user.id])
        }
        return token
    }

    /// The user this token belongs to, or nil.
    public func authenticate(token: String) throws -> ServerUser? {
        guard token.hasPrefix("mf_"), token.utf8.count < 200 else { return nil }
        let hash = Self.sha256(token)
        // Found by its hash through the index; the stored hash is compared again in constant time.
        guard
            let row = try db.read({ db in try Row.fetchOne(db, sql: "SELECT * FROM server_user WHERE token_sha256 = ?", arguments: [hash]) }
            )
        else { return nil }
        let stored: String = row["token_sha256"]
        guard ConstantTime.equal(stored, hash) else { return nil }
        return Self.user(row)
    }

    func named(_ name: String) throws -> ServerUser {
        guard let row = try db.read({ db in try Row.fetchOne(db, sql: "SELECT * FROM server_user WHERE name = ?", arguments: [name]) })
        else {
            throw UserDirectoryError("no user named '\(name)' in \(dataDirectory) (see `moneyflow users list`)")
        }
        return Self.user(row)
    }

    // MARK: Ledgers and Plaid items

    /// Removes `uploads/` folders left in users' folders (and in removed ones) by servers older
    /// than uploads read in memory: a server killed during an import left the raw statement
    /// there. Returns the folders removed (`serve` runs this at start and logs them).
    public func removeLeftoverUploads() -> [String] {
        let fm = FileManager.default
        var removed: [String] = []
        for parent in ["ledgers", "removed"] {
            let base = (dataDirectory as NSString).appendingPathComponent(parent)
            for folder in (try? fm.contentsOfDirectory(atPath: base)) ?? [] {
                let uploads = ((base as NSString).appendingPathComponent(folder) as NSString).appendingPathComponent("uploads")
                var isFolder: ObjCBool = false
                guard fm.fileExists(atPath: uploads, isDirectory: &isFolder), isFolder.boolValue else { continue }
                if (try? fm.removeItem(atPath: uploads)) != nil { removed.append(uploads) }
            }
        }
        return removed
    }

    /// `DIR/ledgers/<id>/ledger.sqlite` (the folder is made by ``prepareLedgerFolder(for:)``).
    public func ledgerPath(for user: ServerUser) -> String {
        (ledgerFolder(for: user) as NSString).appendingPathComponent("ledger.sqlite")
    }

    /// `DIR/ledgers/<id>`: the user's ledger and everything kept beside it.
    public func ledgerFolder(for user: ServerUser) -> String {
        (dataDirectory as NSString).appendingPathComponent("ledgers/\(user.id)")
    }

    /// Makes the user's folder (0700) unless the user has been removed (false then): the one
    /// place a ledger folder is made, under the user's ``UserJobLock``, so a request that was
    /// under way when its user was removed cannot make it again.
    public func prepareLedgerFolder(for user: ServerUser) throws -> Bool {
        guard let lock = try UserJobLock.forJob(self, user) else { return false }
        defer { lock.release() }
        try FileManager.default.createDirectory(
            atPath: ledgerFolder(for: user), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return true
    }

    public func archivePath(for user: ServerUser) -> String {
        (ledgerFolder(for: user) as NSString).appendingPathComponent("plaid-archive")
    }

    /// Remembers which user linked a Plaid item (a webhook names only the item).
    public func setItemOwner(itemID: String, user: ServerUser) throws {
        try db.write { db in
            try db.execute(
                sql:
                    "INSERT INTO plaid_item_owner(item_id, user_id) VALUES (?, ?) ON CONFLICT(item_id) DO UPDATE SET user_id = excluded.user_id",
                arguments: [itemID, user.id])
        }
    }

    public func owner(ofItem itemID: String) throws -> ServerUser? {
        try db.read { db in
            try Row.fetchOne(
                db, sql: "SELECT u.* FROM plaid_item_owner o JOIN server_user u ON u.id = o.user_id WHERE o.item_id = ?",
                arguments: [itemID]
            ).map(Self.user)
        }
    }

    /// The users who linked a Plaid item (the server's schedule opens only their ledgers).
    public func plaidItemOwners() throws -> [ServerUser] {
        try db.read { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM server_user WHERE id IN (SELECT user_id FROM plaid_item_owner) ORDER BY number"
            ).map(Self.user)
        }
    }

    // MARK: Primitives

    static func user(_ r: Row) -> ServerUser {
        ServerUser(id: r["id"], name: r["name"], createdAt: r["created_at"], tokenIssuedAt: r["token_issued_at"], number: r["number"])
    }

    static func validate(_ name: String) throws {
        let ok =
            !name.isEmpty && name.utf8.count <= 64
            && name.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) && $0.isASCII || "._-".unicodeScalars.contains($0) }
        if !ok { throw UserDirectoryError("user name '\(name)': use 1-64 letters, digits, '.', '_' or '-'") }
    }

    /// `mf_` + 32 random bytes, base64url: shown once; its SHA-256 (hex) is what is kept.
    static func newToken() -> (token: String, sha256: String) {
        let bytes = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
        let token =
            "mf_"
            + bytes.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        return (token, sha256(token))
    }

    static func randomID() -> String {
        SymmetricKey(size: .bits128).withUnsafeBytes { Data($0) }.map { String(format: "%02x", $0) }.joined()
    }

    static func sha256(_ s: String) -> String { SHA256.hash(data: Data(s.utf8)).map { String(format: "%02x", $0) }.joined() }

    static func timestamp() -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        return f.string(from: Date())
    }
}

/// A users problem, as one line naming what to do.
public struct UserDirectoryError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}
