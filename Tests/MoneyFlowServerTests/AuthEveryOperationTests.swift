import Foundation
import MoneyFlowHTTPTestSupport
import MoneyFlowTestSupport
import Testing

/// Every operation the OpenAPI document names, probed on the server's router (in process): without a token and
/// with tokens the server never issued, each answers 401 before it does anything. The list of
/// operations is read from the document, so a route added to it is probed without anyone
/// remembering to; only these three are open by design.
@Suite("moneyflow serve: every operation needs a token", .serialized)
struct AuthEveryOperationTests {
    static let open: Set<String> = ["GET /healthz", "GET /openapi.json", "POST /v1/plaid/webhook"]

    /// A concrete path for a template: each `{parameter}` filled by its schema's type.
    static func concrete(_ template: String, _ op: JSONValue) -> String {
        var path = template
        for p in op["parameters"]?.array ?? [] where p["in"]?.string == "path" {
            guard let name = p["name"]?.string else { continue }
            path = path.replacingOccurrences(of: "{\(name)}", with: p["schema"]?["type"]?.string == "integer" ? "1" : "x")
        }
        return path
    }

    @Test("no token or a token the server never issued: 401 on every operation but health, the document and the webhook")
    func everyOperation() async throws {
        let doc = try OpenAPIValidator.repositoryDocument().document
        try await InProcessServer.run { h in
            let alice = try await h.addUser("alice")
            var probed: [String] = []
            var openInDocument: Set<String> = []
            for (template, item) in try #require(doc["paths"]?.object) {
                for method in OpenAPIDocumentTests.methods {
                    guard let op = item[method] else { continue }
                    let name = "\(method.uppercased()) \(template)"
                    if op["security"] == .array([]) { openInDocument.insert(name) }
                    if Self.open.contains(name) { continue }
                    let path = Self.concrete(template, op)
                    let body: Data? = op["requestBody"] == nil ? nil : Data("{}".utf8)
                    for token in [nil, "mf_" + String(repeating: "A", count: 43), alice + "x", String(alice.dropFirst(3))] {
                        let r = try await h.send(method.uppercased(), path, token: token, body: body)
                        #expect(r.status == 401, "\(name) with \(token == nil ? "no token" : "an unknown token") -> \(r.status) \(r.text)")
                        #expect(((r.json as? [String: Any])?["error"] as? [String: Any])?["code"] as? String == "unauthorized", "\(name)")
                    }
                    // Alice's own token gets past the check (the route answers for itself, never 401).
                    let mine = try await h.send(method.uppercased(), path, token: alice, body: body)
                    #expect(mine.status != 401, "\(name) refuses a valid token: \(mine.text)")
                    probed.append(name)
                }
            }
            #expect(openInDocument == Self.open, "the document's open operations are exactly health, the document and the webhook")
            // Every operation of the document that is not open was probed (none skipped by a filter).
            let all = try #require(doc["paths"]?.object).flatMap { t, item in
                OpenAPIDocumentTests.methods.filter { item[$0] != nil }.map { "\($0.uppercased()) \(t)" }
            }
            #expect(Set(probed) == Set(all).subtracting(Self.open))
            #expect(probed.count == all.count - Self.open.count)
        }
    }
}
