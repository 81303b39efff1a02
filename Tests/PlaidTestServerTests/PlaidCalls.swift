import AsyncHTTPClient
import Foundation
import NIOCore
import Testing

@testable import PlaidTestServer

/// Real HTTP calls to a running test server over loopback (AsyncHTTPClient), shaped as a Plaid
/// client sends them, plus a minimal sync client that applies updates the way Plaid documents.
/// Every answer is checked against the spec's response schemas.
struct PlaidCalls {
    let server: PlaidTestServer
    var clientID = "test-client-id"
    var secret = "test-secret"

    struct Reply {
        let status: Int
        let json: PlaidJSON
        let raw: String
        var errorCode: String? { json["error_code"]?.stringValue }
        var errorType: String? { json["error_type"]?.stringValue }
    }

    /// POSTs `body` with credentials added; `headers` replace the default ones when given.
    func post(
        _ path: String, _ body: [String: PlaidJSON] = [:], credentials: Bool = true,
        headers: [(String, String)] = [("Plaid-Version", "2020-09-14"), ("Content-Type", "application/json")]
    ) async throws -> Reply {
        var members = body
        if credentials {
            members["client_id"] = members["client_id"] ?? .string(clientID)
            members["secret"] = members["secret"] ?? .string(secret)
        }
        return try await postRaw(path, PlaidJSON.object(members).serialized(), headers: headers)
    }

    func postRaw(
        _ path: String, _ text: String,
        headers: [(String, String)] = [("Plaid-Version", "2020-09-14"), ("Content-Type", "application/json")]
    ) async throws -> Reply {
        var request = HTTPClientRequest(url: server.baseURL + path)
        request.method = .POST
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        request.body = .bytes(ByteBuffer(string: text))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let bytes = try await response.body.collect(upTo: 1 << 22)
        let raw = String(buffer: bytes)
        let reply = Reply(status: Int(response.status.code), json: try PlaidJSON.parse(raw), raw: raw)
        // Every answer of every test is checked against the spec's response schema (or PlaidError).
        let problems = PlaidSchemas.spec.responseProblems(in: reply.json, path: path, status: reply.status)
        if !problems.isEmpty { Issue.record("\(path) answered off-spec: \(problems.joined(separator: "; "))") }
        return reply
    }

    /// The sandbox link path: `/sandbox/public_token/create` then `/item/public_token/exchange`.
    func link(institution: String = DefaultInstitution.id, days: Int? = nil) async throws -> (accessToken: String, itemID: String) {
        var options: [String: PlaidJSON] = [:]
        if let days { options["transactions"] = .object(["days_requested": .number(String(days))]) }
        let created = try await post(
            "/sandbox/public_token/create",
            [
                "institution_id": .string(institution), "initial_products": .array([.string("transactions")]),
                "options": .object(options),
            ])
        guard created.status == 200, let publicToken = created.json["public_token"]?.stringValue else {
            throw CallFailure(message: "public token: \(created.raw)")
        }
        let exchanged = try await post("/item/public_token/exchange", ["public_token": .string(publicToken)])
        guard exchanged.status == 200, let token = exchanged.json["access_token"]?.stringValue,
            let itemID = exchanged.json["item_id"]?.stringValue
        else { throw CallFailure(message: "exchange: \(exchanged.raw)") }
        return (token, itemID)
    }

    func sync(_ token: String, cursor: String?, count: Int?) async throws -> Reply {
        var body: [String: PlaidJSON] = ["access_token": .string(token)]
        if let cursor { body["cursor"] = .string(cursor) }
        if let count { body["count"] = .number(String(count)) }
        return try await post("/transactions/sync", body)
    }
}

/// What a client holds for one item: transactions by id, applied one complete update at a time.
struct SyncedLedger {
    var transactions: [String: PlaidJSON] = [:]
    var cursor = ""
    /// Every page of the last update, for tests that look at how it was split.
    var lastUpdatePages: [PlaidJSON] = []

    /// Runs `/transactions/sync` from the saved cursor until `has_more` is false, then applies the
    /// pages and saves the cursor (Plaid's rule: persist only after the whole update). Throws the
    /// error reply if a page fails.
    mutating func syncUpdate(_ calls: PlaidCalls, token: String, count: Int) async throws {
        var pages: [PlaidJSON] = []
        var next = cursor
        while true {
            let reply = try await calls.sync(token, cursor: next, count: count)
            guard reply.status == 200 else { throw SyncFailure(reply: reply) }
            pages.append(reply.json)
            next = reply.json["next_cursor"]?.stringValue ?? ""
            if reply.json["has_more"] != .bool(true) { break }
        }
        for page in pages {
            for t in (page["added"]?.arrayValue ?? []) + (page["modified"]?.arrayValue ?? []) {
                transactions[t["transaction_id"]!.stringValue!] = t
            }
            for r in page["removed"]?.arrayValue ?? [] { transactions[r["transaction_id"]!.stringValue!] = nil }
        }
        cursor = next
        lastUpdatePages = pages
    }

    /// The ledger as comparable rows: id, account, date, amount text, name, pending, pending id.
    var rows: Set<Row> {
        Set(
            transactions.values.map { t in
                Row(
                    id: t["transaction_id"]!.stringValue!, account: t["account_id"]!.stringValue!, date: t["date"]!.stringValue!,
                    amount: t["amount"]!.numberText!, name: t["name"]!.stringValue!, pending: t["pending"]!.boolValue!,
                    pendingID: t["pending_transaction_id"]?.stringValue)
            })
    }

    struct Row: Hashable {
        let id, account, date, amount, name: String
        let pending: Bool
        let pendingID: String?
    }

    static func rows(_ truth: [TruthTransaction]) -> Set<Row> {
        Set(
            truth.map {
                Row(
                    id: $0.transactionID, account: $0.accountID, date: $0.date, amount: $0.amount, name: $0.name,
                    pending: $0.pending, pendingID: $0.pendingTransactionID)
            })
    }
}

struct SyncFailure: Error {
    let reply: PlaidCalls.Reply
}

/// Runs `body` with a fresh server and always stops it.
@discardableResult
func withServer<T>(_ body: (PlaidTestServer, PlaidCalls) async throws -> T) async throws -> T {
    let server = try await PlaidTestServer.start()
    do {
        let result = try await body(server, PlaidCalls(server: server))
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}

struct CallFailure: Error {
    let message: String
}
