import Foundation
import MoneyFlowCore

/// The store's operations for async callers (the server's routes, ``PlaidService``), with the
/// same names and parameters as the synchronous ones, as GRDB offers `read` and `write` both
/// ways. Each runs the synchronous operation on the store's own threads (``StoreExecutor``),
/// so no SQLite or PostgreSQL call ever blocks one of Swift's cooperative threads, and callers
/// need no offloading of their own. Inside async code the compiler picks these, so a store call
/// without `await` there does not compile.
extension LedgerStore {
    /// Runs `body` (library code that calls this store synchronously: an ``ImportService``
    /// import, an export, a report) on the store's threads, and resumes the caller with its
    /// result. The operations below are this with one store call each.
    public func perform<T: Sendable>(_ body: @escaping @Sendable (LedgerStore) throws -> T) async throws -> T {
        try await executor.run { try body(self) }
    }

    // MARK: Queries

    public func accounts() async throws -> [LedgerAccount] {
        try await perform { try $0.accounts() }
    }

    public func transactionsPage(
        account: String? = nil, from: LocalDate? = nil, through: LocalDate? = nil, afterID: Int64, limit: Int
    ) async throws -> [LedgerTransaction] {
        try await perform { try $0.transactionsPage(account: account, from: from, through: through, afterID: afterID, limit: limit) }
    }

    public func transaction(id: Int64) async throws -> LedgerTransaction? {
        try await perform { try $0.transaction(id: id) }
    }

    public func batches() async throws -> [LedgerBatch] {
        try await perform { try $0.batches() }
    }

    public func pendingReviews() async throws -> [PendingReview] {
        try await perform { try $0.pendingReviews() }
    }

    public func transfers(account: String? = nil) async throws -> (linked: [LedgerTransfer], review: [LedgerTransfer]) {
        try await perform { try $0.transfers(account: account) }
    }

    public func syncCursor(scope: String) async throws -> String? {
        try await perform { try $0.syncCursor(scope: scope) }
    }

    public func syncProgress(scope: String) async throws -> String? {
        try await perform { try $0.syncProgress(scope: scope) }
    }

    public func fileAlreadyImported(sha256: String) async throws -> Bool {
        try await perform { try $0.fileAlreadyImported(sha256: sha256) }
    }

    // MARK: Changes

    public func startIDs(after base: Int64) async throws {
        try await perform { try $0.startIDs(after: base) }
    }

    @discardableResult
    public func undo(batchID: Int64, at date: Date = Date()) async throws -> UndoResult {
        try await perform { try $0.undo(batchID: batchID, at: date) }
    }

    public func renameAccount(_ name: String, to newName: String?, ledgerName: String? = nil) async throws {
        try await perform { try $0.renameAccount(name, to: newName, ledgerName: ledgerName) }
    }

    public func linkAccountKey(_ key: String, toAccount name: String) async throws {
        try await perform { try $0.linkAccountKey(key, toAccount: name) }
    }

    public func editTransaction(_ id: Int64, description: String? = nil, counterparty: String? = nil, note: String? = nil) async throws {
        try await perform { try $0.editTransaction(id, description: description, counterparty: counterparty, note: note) }
    }

    public func userLink(recordID: Int64, transactionID: Int64) async throws {
        try await perform { try $0.userLink(recordID: recordID, transactionID: transactionID) }
    }

    public func unlink(recordID: Int64) async throws -> UnlinkResult {
        try await perform { try $0.unlink(recordID: recordID) }
    }

    public func linkTransfer(_ a: Int64, _ b: Int64, at date: Date = Date()) async throws {
        try await perform { try $0.linkTransfer(a, b, at: date) }
    }

    public func unlinkTransfer(_ id: Int64, at date: Date = Date()) async throws -> Int64 {
        try await perform { try $0.unlinkTransfer(id, at: date) }
    }

    // MARK: Plaid items

    public func plaidItems() async throws -> [PlaidItemRecord] {
        try await perform { try $0.plaidItems() }
    }

    public func plaidItem(_ itemID: String) async throws -> PlaidItemRecord? {
        try await perform { try $0.plaidItem(itemID) }
    }

    public func plaidTokenKeyID() async throws -> String? {
        try await perform { try $0.plaidTokenKeyID() }
    }

    public func plaidAccountKeys() async throws -> [(key: String, account: String)] {
        try await perform { try $0.plaidAccountKeys() }
    }

    public func savePlaidItem(_ item: PlaidItemRecord) async throws {
        try await perform { try $0.savePlaidItem(item) }
    }

    public func notePlaidSync(
        itemID: String, status: PlaidItemRecord.Status, errorCode: String?, errorMessage: String?, at: String, succeeded: Bool,
        plaidLastUpdate: String?
    ) async throws {
        try await perform {
            try $0.notePlaidSync(
                itemID: itemID, status: status, errorCode: errorCode, errorMessage: errorMessage, at: at, succeeded: succeeded,
                plaidLastUpdate: plaidLastUpdate)
        }
    }

    public func notePlaidFreshness(
        itemID: String, status: PlaidItemRecord.Status, errorCode: String?, errorMessage: String?, plaidLastUpdate: String?
    ) async throws {
        try await perform {
            try $0.notePlaidFreshness(
                itemID: itemID, status: status, errorCode: errorCode, errorMessage: errorMessage, plaidLastUpdate: plaidLastUpdate)
        }
    }

    public func unlinkPlaidItem(_ itemID: String, status: PlaidItemRecord.Status, replacedBy: String? = nil) async throws {
        try await perform { try $0.unlinkPlaidItem(itemID, status: status, replacedBy: replacedBy) }
    }
}
