import Foundation
import MoneyFlowTestSupport
import Testing

/// What a route test talks to: the router in this process (``InProcessServer``, for a route's
/// logic) or the real `moneyflow serve` on loopback (``ServeHarness``, for signals, shutdown,
/// ports and the full stack). Both answer through ``send(_:_:token:body:headers:)``, which checks
/// every answer against the OpenAPI document, so a test moves from one to the other unchanged.
protocol ServerUnderTest: Sendable {
    /// The server's data folder (users, one ledger folder per user).
    var data: String { get }
    /// A new user; their bearer token.
    func addUser(_ name: String) async throws -> String
    /// One request as the client sends it; the body and the status of the answer.
    func respond(method: String, path: String, body: Data?, headers: [String: String]) async throws -> (Data, Int)
}

/// The document every answer is checked against (the one the server serves).
let serverContract = Result { try OpenAPIValidator.repositoryDocument() }

extension ServerUnderTest {
    func get(_ path: String, token: String?) async throws -> (json: Any?, status: Int, text: String) {
        try await send("GET", path, token: token)
    }

    func send(_ method: String, _ path: String, token: String?, body: Data? = nil, headers: [String: String] = [:]) async throws -> (
        json: Any?, status: Int, text: String
    ) {
        var h = headers
        if let token { h["Authorization"] = "Bearer \(token)" }
        let (data, status) = try await respond(method: method, path: path, body: body, headers: h)
        // Every answer must keep the contract (the OpenAPI document), errors included.
        let contract = try serverContract.get()
        if path != "/openapi.json" && contract.operation(method: method, path: path) != nil {
            let violations = contract.validateResponse(method: method, path: path, status: status, body: data)
            for v in violations { Issue.record("\(method) \(path) -> \(status) breaks the OpenAPI document: \(v)") }
        }
        return (try? JSONSerialization.jsonObject(with: data), status, String(decoding: data, as: UTF8.self))
    }

    /// Every transaction of the caller's ledger through the cursor pages.
    func allTransactions(token: String, limit: Int = 37) async throws -> [[String: Any]] {
        var out: [[String: Any]] = []
        var cursor: String?
        repeat {
            let path = "/v1/transactions?limit=\(limit)" + (cursor.map { "&cursor=\($0)" } ?? "")
            let r = try await get(path, token: token)
            guard r.status == 200, let o = r.json as? [String: Any], let page = o["transactions"] as? [[String: Any]] else {
                throw HarnessError("transactions page failed: \(r.status) \(r.text)")
            }
            out += page
            cursor = o["next_cursor"] as? String
        } while cursor != nil
        return out
    }
}

struct HarnessError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}
