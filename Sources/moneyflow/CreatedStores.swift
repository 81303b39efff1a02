import Foundation
import MoneyFlowPostgres
import MoneyFlowStore

/// The SQLite stores this command created. A command that writes nothing creates nothing: when
/// the process ends (success or failure), each store it created and left empty — a failed
/// first import, `plaid link` or `plaid sync` without keys or network — is removed again
/// (``LedgerStore/removeIfEmpty()``), so a failure never leaves an empty store to be mistaken
/// for a ledger.
enum CreatedStores {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var stores: [LedgerStore] = []

    /// Opens `path` for writing (creating it when missing), remembering it when this call created it.
    static func open(_ path: String, waitNotice: (@Sendable (String) -> Void)?) throws -> LedgerStore {
        var isNew = false
        if !StoreOpener.isRemote(path) {
            // lstat: a symbolic link the user made is theirs, even when its target is new.
            var info = stat()
            isNew = lstat(path, &info) != 0 && errno == ENOENT
        }
        let store = try StoreOpener.open(path, waitNotice: waitNotice)
        if isNew { remember(store) }
        return store
    }

    private static func remember(_ store: LedgerStore) {
        lock.lock()
        defer { lock.unlock() }
        if stores.isEmpty { atexit { CreatedStores.removeEmpty() } }
        stores.append(store)
    }

    /// At exit: removes the created stores that are still empty.
    private static func removeEmpty() {
        lock.lock()
        let created = stores
        stores = []
        lock.unlock()
        for store in created { _ = try? store.removeIfEmpty() }
    }
}
