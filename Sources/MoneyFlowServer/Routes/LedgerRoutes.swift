import Foundation
import Hummingbird
import MoneyFlowCore
import MoneyFlowPipeline
import MoneyFlowStore

/// `/v1` routes over one user's ledger: the same library calls and JSON objects as the CLI's
/// `accounts`, `transactions`, `reconcile`, `review`, `link`, `unlink`, `transfers`, `link/unlink
/// --transfer`, `batches` and `undo`.
struct LedgerRoutes {
    let ledgers: Ledgers

    func register(_ v1: RouterGroup<ServerRequestContext>) {
        v1.get("accounts") { request, context in
            try Query.none(request, context)
            let store = try await ledgers.store(for: try context.requireUser())
            let accounts = try await store.accounts()
            return JSONResponse.make(.object([("accounts", Contracts.accounts(accounts))]))
        }
        v1.get("transactions") { request, context in
            let store = try await ledgers.store(for: try context.requireUser())
            let q = try Query.decode(TransactionsQuery.self, request, context)
            let limit = q.limit?.value ?? 100
            let from = q.from?.date, to = q.to?.date
            let account = q.account
            let user = try context.requireUser()
            let after = try q.cursor.map { try TransactionCursor.decode($0, user: user) } ?? 0
            try await store.requireAccount(account)
            let page = try await store.transactionsPage(account: account, from: from, through: to, afterID: after, limit: limit + 1)
            let shown = Array(page.prefix(limit))
            let next: JSONOutput = page.count > limit ? .string(TransactionCursor.encode(shown.last!.id, user: user)) : .null
            return JSONResponse.make(.object([("transactions", Contracts.transactions(shown)), ("next_cursor", next)]))
        }
        v1.get("reconcile") { request, context in
            let store = try await ledgers.store(for: try context.requireUser())
            let account = try Query.decode(AccountQuery.self, request, context).account
            try await store.requireAccount(account)
            let report = try await store.perform { try ReconciliationReport.build(store: $0, account: account) }
            return JSONResponse.make(report.json)
        }
        v1.get("review") { request, context in
            try Query.none(request, context)
            let store = try await ledgers.store(for: try context.requireUser())
            let reviews = try await store.pendingReviews()
            return JSONResponse.make(.object([("review", Contracts.review(reviews))]))
        }
        v1.post("links") { request, context in
            let user = try context.requireUser()
            try Query.none(request, context)
            let body = try await JSONBody.decode(LinkBody.self, request, context)
            let (record, transaction) = (body.record, body.transaction)
            try await ledgers.exclusive(user, "a link") { store in
                try await store.userLink(recordID: record, transactionID: transaction)
            }
            return JSONResponse.make(.object([("record", .int(record)), ("transaction", .int(transaction))]))
        }
        v1.delete("links/:record") { request, context in
            try Query.none(request, context)
            let user = try context.requireUser()
            let record = try Query.pathID(context, "record")
            let result = try await ledgers.exclusive(user, "an unlink") { store in
                try await store.unlink(recordID: record)
            }
            return JSONResponse.make(.object([("record", .int(record)), ("transaction", .int(result.transactionID))]))
        }
        v1.get("transfers") { request, context in
            let store = try await ledgers.store(for: try context.requireUser())
            let account = try Query.decode(AccountQuery.self, request, context).account
            try await store.requireAccount(account)
            let (linked, review) = try await store.transfers(account: account)
            return JSONResponse.make(Contracts.transfers(linked: linked, review: review))
        }
        v1.post("transfers") { request, context in
            let user = try context.requireUser()
            try Query.none(request, context)
            let body = try await JSONBody.decode(TransferBody.self, request, context)
            let (out, into) = (body.out, body.into)
            try await ledgers.exclusive(user, "a transfer link") { store in
                try await store.linkTransfer(out, into)
            }
            return JSONResponse.make(.object([("out", .int(out)), ("in", .int(into)), ("transfer", .bool(true))]))
        }
        v1.delete("transfers/:transaction") { request, context in
            try Query.none(request, context)
            let user = try context.requireUser()
            let id = try Query.pathID(context, "transaction")
            let other = try await ledgers.exclusive(user, "a transfer unlink") { store in
                try await store.unlinkTransfer(id)
            }
            return JSONResponse.make(.object([("transaction", .int(id)), ("other", .int(other)), ("transfer", .bool(false))]))
        }
        v1.get("batches") { request, context in
            try Query.none(request, context)
            let store = try await ledgers.store(for: try context.requireUser())
            let batches = try await store.batches()
            return JSONResponse.make(.object([("batches", Contracts.batches(batches))]))
        }
        v1.post("batches/:id/undo") { request, context in
            try Query.none(request, context)
            let user = try context.requireUser()
            let id = try Query.pathID(context, "id")
            let result = try await ledgers.exclusive(user, "an undo") { store in
                try await store.undo(batchID: id)
            }
            let message =
                "batch \(id) undone: \(result.recordsRemoved) records removed, \(result.recordsKept) kept by other batches, \(result.transactionsRemoved) transactions removed"
            return JSONResponse.make(.object([("batch", .int(id)), ("undone", .bool(true)), ("message", .string(message))]))
        }
    }
}

/// A position in one user's `/v1/transactions` pages: the last id shown, bound to the user so
/// a cursor means nothing in another user's ledger (it is refused there, not reinterpreted).
enum TransactionCursor {
    static func encode(_ id: Int64, user: ServerUser) -> String {
        Data("\(user.id):\(id)".utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
    }

    static func decode(_ text: String, user: ServerUser) throws -> Int64 {
        var b64 = text
        while b64.count % 4 != 0 { b64 += "=" }
        guard let data = Data(base64Encoded: b64), let s = String(data: data, encoding: .utf8),
            let colon = s.lastIndex(of: ":"), s[..<colon] == user.id, let id = Int64(s[s.index(after: colon)...]), id >= 0
        else { throw APIError.badRequest("cursor is not one this server gave you; start again without a cursor") }
        return id
    }
}

/// `GET /v1/transactions`'s query.
struct TransactionsQuery: QueryParameters {
    var account: String?
    var from: QueryDate?
    var to: QueryDate?
    var limit: QueryPageSize?
    var cursor: String?
    enum CodingKeys: String, CodingKey, CaseIterable { case account, from, to, limit, cursor }
}

/// The query of a read that may name one account (`reconcile`, `transfers`).
struct AccountQuery: QueryParameters {
    var account: String?
    enum CodingKeys: String, CodingKey, CaseIterable { case account }
}

/// `POST /v1/links`: the record and the transaction it belongs to.
struct LinkBody: RequestBody {
    var record: Int64
    var transaction: Int64
    enum CodingKeys: String, CodingKey, CaseIterable { case record, transaction }
    static let shape = #"send {"record": <id>, "transaction": <id>}"#
}

/// `POST /v1/transfers`: the two legs of one transfer.
struct TransferBody: RequestBody {
    var out: Int64
    var into: Int64
    enum CodingKeys: String, CodingKey, CaseIterable {
        case out
        case into = "in"
    }
    static let shape = #"send {"out": <id>, "in": <id>}"#
}
