import Foundation
import Hummingbird
import MoneyFlowCore
import MoneyFlowPipeline
import MoneyFlowStore

/// One transaction or account of the caller's ledger: read one transaction, and the CLI's
/// `edit` and `accounts rename` over HTTP (the same store calls; writes take the user's one
/// writing slot like every other change).
struct RecordRoutes {
    let ledgers: Ledgers

    func register(_ v1: RouterGroup<ServerRequestContext>) {
        v1.get("transactions/:id") { _, context in
            let store = try await ledgers.store(for: try context.requireUser())
            let id = try Query.pathID(context, "id")
            return JSONResponse.make(Contracts.transaction(try await Self.existing(id, in: store)))
        }
        v1.patch("transactions/:id") { request, context in
            let user = try context.requireUser()
            let id = try Query.pathID(context, "id")
            let edit = try await JSONBody.strings(request, context, ["description", "counterparty", "note"])
            let edited = try await ledgers.exclusive(user, "an edit") { store in
                _ = try await Self.existing(id, in: store)
                try await store.editTransaction(id, description: edit["description"], counterparty: edit["counterparty"], note: edit["note"])
                return try await Self.existing(id, in: store)
            }
            return JSONResponse.make(Contracts.transaction(edited))
        }
        v1.patch("accounts/:name") { request, context in
            let user = try context.requireUser()
            let name = try Query.pathName(context, "name")
            let change = try await JSONBody.strings(request, context, ["name", "ledger_name"])
            if change["name"]?.isEmpty == true { throw APIError.badRequest("name must not be empty") }
            let account = try await ledgers.exclusive(user, "an account rename") { store in
                try await store.requireAccount(name)
                try await store.renameAccount(name, to: change["name"], ledgerName: change["ledger_name"])
                return try await store.accounts().filter { $0.name == change["name"] ?? name }
            }
            guard case .array(let one) = Contracts.accounts(account), let object = one.first else { throw APIError.notFound() }
            return JSONResponse.make(.object([("account", object)]))
        }
        v1.post("accounts/:name/merge") { request, context in
            let user = try context.requireUser()
            let into = try Query.pathName(context, "name")
            var request = request
            let (from, dryRun) = try await Self.mergeBody(&request)
            let merged = try await ledgers.exclusive(user, "an account merge") { store in
                try await store.requireAccount(into)
                try await store.requireAccount(from)
                return try await store.perform { try ImportService(store: $0).mergeAccount(from, into: into, dryRun: dryRun) }
            }
            return JSONResponse.make(.object([("merge", Contracts.merge(merged))]))
        }
    }

    /// `{"from": NAME, "dry_run": true|false}` (`dry_run` optional); anything else is a 400.
    static func mergeBody(_ request: inout Request) async throws -> (from: String, dryRun: Bool) {
        let body = try await JSONBody.object(&request, limit: 1 << 16)
        let shape = #"send {"from": "<account merged into this one>"} (and "dry_run": true to only see what it would do)"#
        if let unknown = body.keys.sorted().first(where: { $0 != "from" && $0 != "dry_run" }) {
            throw APIError.badRequest("unknown key '\(unknown)': \(shape)")
        }
        guard let from = body["from"] as? String, !from.isEmpty else { throw APIError.badRequest(shape) }
        var dryRun = false
        if let d = body["dry_run"] {
            guard let b = d as? Bool else {
                throw APIError.badRequest("dry_run must be true or false: \(shape)")
            }
            dryRun = b
        }
        return (from, dryRun)
    }

    /// The live transaction `id` of this ledger, or 404 (another user's ids are never here).
    static func existing(_ id: Int64, in store: LedgerStore) async throws -> LedgerTransaction {
        guard let t = try await store.transaction(id: id) else { throw APIError.notFound("no transaction \(id)") }
        return t
    }
}
