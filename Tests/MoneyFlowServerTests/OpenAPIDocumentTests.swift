import Foundation
import Testing

@testable import MoneyFlowServer

/// The document is a well-formed OpenAPI 3.1 description of every route of the API, and the
/// server embeds exactly the committed file.
@Suite("OpenAPI document")
struct OpenAPIDocumentTests {
    static let methods = ["get", "put", "post", "delete", "patch", "head", "options", "trace"]

    /// Every route of docs/API (issue 16, and issue 24's additions): method and path template.
    static let routes: Set<String> = [
        "GET /healthz", "GET /openapi.json", "POST /v1/imports", "GET /v1/accounts", "GET /v1/transactions", "GET /v1/reconcile",
        "GET /v1/review", "POST /v1/links", "DELETE /v1/links/{record}", "GET /v1/transfers", "POST /v1/transfers",
        "DELETE /v1/transfers/{transaction}", "GET /v1/batches", "POST /v1/batches/{id}/undo",
        "POST /v1/plaid/link-token", "POST /v1/plaid/exchange", "GET /v1/plaid/items", "POST /v1/plaid/sync", "POST /v1/plaid/webhook",
        "GET /v1/transactions/{id}", "PATCH /v1/transactions/{id}", "PATCH /v1/accounts/{name}", "POST /v1/accounts/{name}/merge",
        "GET /v1/export", "GET /v1/profiles", "PUT /v1/profiles/{name}", "DELETE /v1/profiles/{name}",
    ]

    /// Every `$ref` string anywhere under `value`.
    static func refs(_ value: JSONValue) -> [String] {
        switch value {
        case .object(let o): return (o["$ref"]?.string.map { [$0] } ?? []) + o.values.flatMap(refs)
        case .array(let a): return a.flatMap(refs)
        default: return []
        }
    }

    @Test("the embedded resource is the committed file")
    func embedded() throws {
        #expect(PackageResources.openapi_json == Array(try Data(contentsOf: OpenAPIValidator.documentURL)))
    }

    @Test("3.1.0 with info, exactly the API's routes, unique operationIds, declared path parameters, documented statuses")
    func structure() throws {
        let v = try OpenAPIValidator.repositoryDocument()
        let doc = v.document
        #expect(doc["openapi"]?.string == "3.1.0")
        #expect(doc["info"]?["title"]?.string != nil && doc["info"]?["version"]?.string != nil)
        var routes: Set<String> = []
        var operationIDs: [String] = []
        for (template, item) in try #require(doc["paths"]?.object) {
            for method in Self.methods {
                guard let op = item[method] else { continue }
                routes.insert("\(method.uppercased()) \(template)")
                operationIDs.append(try #require(op["operationId"]?.string, "\(method) \(template) has no operationId"))
                let declared = Set(
                    (op["parameters"]?.array ?? []).filter { $0["in"]?.string == "path" }.compactMap { $0["name"]?.string })
                let inTemplate = Set(
                    template.split(separator: "/").filter { $0.hasPrefix("{") }.map { String($0.dropFirst().dropLast()) })
                #expect(declared == inTemplate, "\(method) \(template): path parameters \(declared) vs \(inTemplate)")
                let statuses = try #require(op["responses"]?.object, "\(method) \(template) has no responses").keys
                #expect(statuses.contains("200"), "\(method) \(template) documents no 200")
                #expect(statuses.allSatisfy { Int($0).map { (200...599).contains($0) } ?? false })
                // Error statuses answer with the one error object.
                for status in statuses where !status.hasPrefix("2") {
                    let body = Data(#"{"error": {"code": "internal", "message": "x"}}"#.utf8)
                    let path = template.replacingOccurrences(of: "{record}", with: "1").replacingOccurrences(of: "{id}", with: "1")
                    #expect(
                        v.validateResponse(method: method, path: path, status: Int(status)!, body: body) == [],
                        "\(method) \(template) \(status)")
                }
            }
        }
        #expect(routes == Self.routes)
        #expect(Set(operationIDs).count == operationIDs.count, "duplicate operationIds: \(operationIDs.sorted())")
    }

    @Test("every $ref resolves and every component schema is one the validator reads")
    func references() throws {
        let v = try OpenAPIValidator.repositoryDocument()
        let refs = Self.refs(v.document)
        #expect(refs.count > 50)
        for r in refs { #expect(v.resolve(r) != nil, "unresolved \(r)") }
        // Validating null against each schema walks its keywords; an unknown keyword is reported.
        for (name, _) in try #require(v.document["components"]?["schemas"]?.object) {
            let problems = v.validate(.null, component: name).filter { $0.message.contains("does not handle") }
            #expect(problems == [], "\(name)")
        }
    }

    @Test("bearer auth on /v1 except the webhook; none on /healthz and /openapi.json")
    func security() throws {
        let doc = try OpenAPIValidator.repositoryDocument().document
        #expect(doc["components"]?["securitySchemes"]?["bearerAuth"]?["scheme"]?.string == "bearer")
        #expect(doc["security"] == .array([.object(["bearerAuth": .array([])])]))
        for (template, item) in try #require(doc["paths"]?.object) {
            for method in Self.methods {
                guard let op = item[method] else { continue }
                let open = ["/healthz", "/openapi.json", "/v1/plaid/webhook"].contains(template)
                #expect((op["security"] == .array([])) == open, "\(method) \(template)")
                #expect((op["responses"]?["401"] != nil) == (template.hasPrefix("/v1/")), "\(method) \(template): 401 documented")
            }
        }
    }
}
