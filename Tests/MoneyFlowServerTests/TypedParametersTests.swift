import Foundation
import MoneyFlowTestSupport
import Testing

/// Queries and JSON bodies decode into typed values: what used to be silently defaulted (an
/// unknown or repeated query parameter, a body value of the wrong type) is a 400 whose one-line
/// message names the parameter.
@Suite("Typed parameters: a wrong one is a 400 naming it")
struct TypedParametersTests {
    static func error(_ r: (json: Any?, status: Int, text: String)) -> (code: String, message: String) {
        let e = (r.json as? [String: Any])?["error"] as? [String: Any]
        return (e?["code"] as? String ?? "", e?["message"] as? String ?? "")
    }

    @Test("unknown and repeated query parameters, and query values of the wrong type")
    func queries() async throws {
        try await InProcessServer.run { h in
            let token = try await h.addUser("alice")
            let cases: [(String, String, String)] = [
                ("GET", "/v1/transactions?acount=Chase", "unknown query parameter 'acount': this route takes account, from, to, limit, cursor"),
                ("GET", "/v1/transactions?account=A&account=B", "query parameter 'account' is given more than once"),
                ("GET", "/v1/accounts?verbose=1", "unknown query parameter 'verbose': this route takes none"),
                ("GET", "/v1/export?format=csv&form=2026-01-01", "unknown query parameter 'form'"),
                ("POST", "/v1/batches/1/undo?dry_run=true", "unknown query parameter 'dry_run': this route takes none"),
                ("POST", "/v1/imports?filename=a.csv&dryrun=true", "unknown query parameter 'dryrun'"),
                ("POST", "/v1/imports?filename=a.csv&dry_run=maybe", "dry_run must be true or false"),
                ("GET", "/v1/transactions?limit=abc", "limit must be a whole number from 1 to 1000"),
                ("GET", "/v1/transactions?from=2026-13-01", "from must be a date YYYY-MM-DD"),
            ]
            for (method, path, expected) in cases {
                let r = try await h.send(method, path, token: token, body: method == "POST" ? Data("a,b\n".utf8) : nil)
                #expect(r.status == 400, "\(method) \(path): \(r.status) \(r.text)")
                #expect(Self.error(r).code == "bad_request", "\(method) \(path): \(r.text)")
                #expect(Self.error(r).message.hasPrefix(expected), "\(method) \(path): \(r.text)")
            }
            // What a route takes still reads as before.
            #expect(try await h.get("/v1/transactions?limit=5&account=", token: token).status != 400)
            #expect(try await h.get("/v1/export?format=csv&", token: token).status == 200)
        }
    }

    @Test("JSON body values of the wrong type are refused before anything runs (no Plaid keys needed)")
    func bodies() async throws {
        try await InProcessServer.run { h in
            let token = try await h.addUser("alice")
            let cases: [(String, String, String)] = [
                ("/v1/plaid/link-token", #"{"days": "abc"}"#, "days must be a whole number: send {\"days\""),
                ("/v1/plaid/link-token", #"{"item": "item-1"}"#, "unknown key 'item': send {\"days\""),
                ("/v1/plaid/link-token", #"{"redirect_uri": 7}"#, "redirect_uri must be a string"),
                ("/v1/plaid/sync", #"{"items": "item-1"}"#, "items must be a list"),
                ("/v1/plaid/sync", #"{"items": [1]}"#, "items has an element that is not a string"),
                ("/v1/plaid/sync", #"{"refresh": "yes"}"#, "refresh must be true or false"),
                ("/v1/plaid/exchange", #"{"public_token": null}"#, "public_token must not be null"),
                ("/v1/accounts/A/merge", #"{"from": "B", "dry_run": "yes"}"#, "dry_run must be true or false"),
            ]
            for (path, body, expected) in cases {
                let r = try await h.send("POST", path, token: token, body: Data(body.utf8))
                #expect(r.status == 400, "POST \(path) \(body): \(r.status) \(r.text)")
                #expect(Self.error(r).message.hasPrefix(expected), "POST \(path) \(body): \(r.text)")
            }
            // An empty body still means the defaults where the route has them (then: no Plaid keys).
            #expect(try await h.send("POST", "/v1/plaid/sync", token: token, body: Data()).status == 503)
            #expect(try await h.send("POST", "/v1/plaid/link-token", token: token, body: Data("{}".utf8)).status == 503)
        }
    }
}
