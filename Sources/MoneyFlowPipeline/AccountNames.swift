import MoneyFlowCore
import MoneyFlowStore

extension LedgerStore {
    /// The one rule for an account named by the user (`--account NAME`, an account argument,
    /// `?account=` over HTTP): a name the store does not know is an error listing the known
    /// names, never an empty listing that would read as "no transactions". It is a not-found
    /// error, so the server answers 404 with the same message the CLI prints.
    public func requireAccount(_ name: String?) throws {
        guard let name else { return }
        let names = try accounts().map(\.name)
        if names.contains(name) { return }
        let known = names.isEmpty ? "the store has no accounts yet" : "known accounts: " + names.map { "'\($0)'" }.joined(separator: ", ")
        throw StoreError.notFound("no account named '\(name)'\(NearestName.hint(name, in: names)); \(known)")
    }

    /// ``requireAccount(_:)`` for async callers, on the store's threads (see ``LedgerStore/perform(_:)``).
    public func requireAccount(_ name: String?) async throws {
        try await perform { try $0.requireAccount(name) }
    }
}
