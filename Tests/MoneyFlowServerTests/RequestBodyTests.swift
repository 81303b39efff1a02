import Foundation
import MoneyFlowTestSupport
import Testing

/// JSON bodies decoded into typed values (`request.decode(as:context:)`): a bad body is a 400
/// that names the key and shows the shape the route takes.
@Suite("Request bodies: a bad one is a 400 naming the key")
struct RequestBodyTests {
    static func message(_ r: (json: Any?, status: Int, text: String)) -> String {
        (((r.json as? [String: Any])?["error"] as? [String: Any])?["message"] as? String) ?? ""
    }

    @Test func badBodiesNameTheKey() async throws {
        try await InProcessServer.run { h in
            let token = try await h.addUser("alice")
            let cases: [(String, String, String, String)] = [
                ("PATCH", "/v1/transactions/1", #"{"notes": "x"}"#, "unknown key 'notes': send a JSON object with any of \"description\""),
                ("PATCH", "/v1/transactions/1", #"{"note": 3}"#, "note must be a string: send a JSON object"),
                ("PATCH", "/v1/transactions/1", "", "send a JSON object with any of \"description\": \"...\""),
                ("PATCH", "/v1/accounts/A", #"{"ledger": "x"}"#, "unknown key 'ledger': send a JSON object with any of \"name\""),
                ("POST", "/v1/links", #"{"record": 1}"#, #"send {"record": <id>, "transaction": <id>}"#),
                ("POST", "/v1/transfers", #"{"out": 1, "in": "2"}"#, #"in must be a whole number: send {"out": <id>, "in": <id>}"#),
                ("POST", "/v1/transfers", "[1, 2]", #"send {"out": <id>, "in": <id>}"#),
            ]
            for (method, path, body, expected) in cases {
                let r = try await h.send(method, path, token: token, body: Data(body.utf8))
                #expect(r.status == 400, "\(method) \(path) \(body): \(r.status) \(r.text)")
                #expect(Self.message(r).hasPrefix(expected), "\(method) \(path) \(body): \(r.text)")
            }
        }
    }
}
