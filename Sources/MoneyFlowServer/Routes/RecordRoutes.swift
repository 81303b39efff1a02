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
        v1.get("transactions/:id") { request, context in
            try Query.none(request, context)
            let store = try await ledgers.store(for: try context.requireUser())
            let id = try Query.pathID(context, "id")
            return JSONResponse.make(Contracts.transaction(try await Self.existing(id, in: store)))
        }
        v1.patch("transactions/:id") { request, context in
            let user = try context.requireUser()
            let id = try Query.pathID(context, "id")
            try Query.none(request, context)
            let edit = try await JSONBody.decode(EditBody.self, request, context)
            let edited = try await ledgers.exclusive(user, "an edit") { store in
                _ = try await Self.existing(id, in: store)
                // `moneyflow categorize`: a batch of its own (undone by POST /v1/batches/{id}/undo like any batch).
                // A category the store refuses (not an account name, parts that do not sum up) is
                // the request's error; it is checked first, so a refused request changes nothing.
                if let choice = edit.categoryChoice {
                    do { _ = try await store.perform { try $0.categorize([id], choice) } } catch let e as StoreError where !e.isNotFound {
                        throw APIError.badRequest(e.message)
                    }
                }
                if edit.description != nil || edit.counterparty != nil || edit.note != nil {
                    try await store.editTransaction(id, description: edit.description, counterparty: edit.counterparty, note: edit.note)
                }
                return try await Self.existing(id, in: store)
            }
            return JSONResponse.make(Contracts.transaction(edited))
        }
        v1.patch("accounts/:name") { request, context in
            let user = try context.requireUser()
            let name = try Query.pathName(context, "name")
            try Query.none(request, context)
            let change = try await JSONBody.decode(AccountChangeBody.self, request, context)
            if change.name?.isEmpty == true { throw APIError.badRequest("name must not be empty") }
            let account = try await ledgers.exclusive(user, "an account rename") { store in
                try await store.requireAccount(name)
                try await store.renameAccount(name, to: change.name, ledgerName: change.ledgerName)
                return try await store.accounts().filter { $0.name == change.name ?? name }
            }
            guard case .array(let one) = Contracts.accounts(account), let object = one.first else { throw APIError.notFound() }
            return JSONResponse.make(.object([("account", object)]))
        }
        v1.post("accounts/:name/merge") { request, context in
            let user = try context.requireUser()
            let into = try Query.pathName(context, "name")
            try Query.none(request, context)
            let body = try await JSONBody.decode(MergeBody.self, request, context)
            let (from, dryRun) = (body.from, body.dryRun ?? false)
            let merged = try await ledgers.exclusive(user, "an account merge") { store in
                try await store.requireAccount(into)
                try await store.requireAccount(from)
                return try await store.perform { try ImportService(store: $0).mergeAccount(from, into: into, dryRun: dryRun) }
            }
            return JSONResponse.make(.object([("merge", Contracts.merge(merged))]))
        }
    }

    /// The live transaction `id` of this ledger, or 404 (another user's ids are never here).
    static func existing(_ id: Int64, in store: LedgerStore) async throws -> LedgerTransaction {
        guard let t = try await store.transaction(id: id) else { throw APIError.notFound("no transaction \(id)") }
        return t
    }
}

/// `PATCH /v1/transactions/{id}`: the user's own texts (`moneyflow edit`) and category
/// (`moneyflow categorize`: an account, or split parts `ACCOUNT:AMOUNT` / `ACCOUNT:rest`), at least one.
struct EditBody: RequestBody {
    var description: String?
    var counterparty: String?
    var note: String?
    var category: String?
    var categorySplit: [String]?
    enum CodingKeys: String, CodingKey, CaseIterable {
        case description, counterparty, note, category
        case categorySplit = "category_split"
    }
    static let shape =
        #"send a JSON object with any of "description": "...", "counterparty": "...", "note": "...", "category": "Expenses:...", "category_split": ["Expenses:A:40.00", "Expenses:B:rest"]"#
    func validate() throws {
        if description == nil && counterparty == nil && note == nil && category == nil && categorySplit == nil {
            throw APIError.badRequest(Self.shape)
        }
        if category != nil && categorySplit != nil { throw APIError.badRequest("send either \"category\" or \"category_split\", not both") }
    }

    var categoryChoice: LedgerStore.CategoryChoice? {
        if let category { return .account(category) }
        return categorySplit.map { .split($0) }
    }
}

/// `PATCH /v1/accounts/{name}`: a new name, a ledger name, or both.
struct AccountChangeBody: RequestBody {
    var name: String?
    var ledgerName: String?
    enum CodingKeys: String, CodingKey, CaseIterable {
        case name
        case ledgerName = "ledger_name"
    }
    static let shape = #"send a JSON object with any of "name": "...", "ledger_name": "...""#
    func validate() throws {
        if name == nil && ledgerName == nil { throw APIError.badRequest(Self.shape) }
    }
}

/// `POST /v1/accounts/{name}/merge`: `{"from": NAME, "dry_run": true|false}` (`dry_run` optional).
struct MergeBody: RequestBody {
    var from: String
    var dryRun: Bool?
    enum CodingKeys: String, CodingKey, CaseIterable {
        case from
        case dryRun = "dry_run"
    }
    static let shape = #"send {"from": "<account merged into this one>"} (and "dry_run": true to only see what it would do)"#
    func validate() throws {
        if from.isEmpty { throw APIError.badRequest(Self.shape) }
    }
}
