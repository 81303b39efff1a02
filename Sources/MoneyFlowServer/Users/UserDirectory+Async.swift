import Foundation
import MoneyFlowStore

/// The user directory's calls for the server's async code, with the same names as the
/// synchronous ones (as ``LedgerStore``'s): `users.sqlite` is SQLite, so a token check on every
/// request runs on the directory's own threads (``StoreExecutor``), never on a cooperative one.
extension UserDirectory {
    /// Runs `body` on the directory's threads: the users' own files (their CSV profiles, read,
    /// parsed and checked as TOML) are blocking file work that belongs with the users' data.
    func perform<T: Sendable>(_ body: @escaping @Sendable (UserDirectory) throws -> T) async throws -> T {
        try await executor.run { try body(self) }
    }

    /// On the directory's token-check threads (``authExecutor``), never behind other work.
    public func authenticate(token: String) async throws -> ServerUser? {
        try await authExecutor.run { try self.authenticate(token: token) }
    }

    public func setItemOwner(itemID: String, user: ServerUser) async throws {
        try await perform { try $0.setItemOwner(itemID: itemID, user: user) }
    }

    public func owner(ofItem itemID: String) async throws -> ServerUser? {
        try await perform { try $0.owner(ofItem: itemID) }
    }

    public func plaidItemOwners() async throws -> [ServerUser] {
        try await perform { try $0.plaidItemOwners() }
    }
}
