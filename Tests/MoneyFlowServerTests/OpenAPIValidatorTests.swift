import Foundation
import Testing

/// The validator must catch each way a response can break the document; otherwise the contract
/// tests that rely on it could not fail.
@Suite("OpenAPI validator")
struct OpenAPIValidatorTests {
    static let transaction = """
        {"id": 12, "account": "CMB 8705", "date": "2026-06-01", "amount": "-5.00", "currency": "CNY",
         "description": "快捷支付", "counterparty": "上海公共交通卡股份有限公司", "note": null,
         "balance": "16852.17", "pending": false,
         "sources": [{"id": 40, "kind": "cmb-pdf", "external_id": null, "file": "statement.zip",
                      "line": null, "page": 1, "row": 2}],
         "category": "Expenses:Transport:PublicTransit", "category_source": "rule",
         "category_reason": {"kind": "rule", "text": "rule 2 \\"metro\\""}}
        """

    /// The README's example transaction with `edit` applied to its text.
    static func transaction(_ edit: (String) -> String) throws -> JSONValue { try JSONValue.parse(edit(transaction)) }

    static func paths(_ v: [Violation]) -> [String] { v.map(\.path) }

    @Test("the README's transaction example satisfies Transaction")
    func valid() throws {
        let v = try OpenAPIValidator.repositoryDocument()
        #expect(v.validate(try Self.transaction { $0 }, component: "Transaction") == [])
    }

    @Test("a missing key, an extra key, a wrong type, a bad enum and a bad amount are each caught at their path")
    func catches() throws {
        let v = try OpenAPIValidator.repositoryDocument()
        let missing = try Self.transaction { $0.replacingOccurrences(of: #""note": null,"#, with: "") }
        #expect(Self.paths(v.validate(missing, component: "Transaction")) == ["$.note"])
        let extra = try Self.transaction { $0.replacingOccurrences(of: #""pending": false"#, with: #""pending": false, "colour": "red""#) }
        #expect(Self.paths(v.validate(extra, component: "Transaction")) == ["$.colour"])
        let wrongType = try Self.transaction { $0.replacingOccurrences(of: #""id": 12"#, with: #""id": "12""#) }
        #expect(Self.paths(v.validate(wrongType, component: "Transaction")) == ["$.id"])
        let boolForInt = try Self.transaction { $0.replacingOccurrences(of: #""page": 1"#, with: #""page": true"#) }
        #expect(Self.paths(v.validate(boolForInt, component: "Transaction")) == ["$.sources[0].page"])
        let badEnum = try Self.transaction { $0.replacingOccurrences(of: #""cmb-pdf""#, with: #""qif""#) }
        #expect(Self.paths(v.validate(badEnum, component: "Transaction")) == ["$.sources[0].kind"])
        let numberAmount = try Self.transaction { $0.replacingOccurrences(of: #""-5.00""#, with: "-5.00") }
        #expect(Self.paths(v.validate(numberAmount, component: "Transaction")) == ["$.amount"])
        let badAmount = try Self.transaction { $0.replacingOccurrences(of: #""-5.00""#, with: #""-5,00""#) }
        #expect(Self.paths(v.validate(badAmount, component: "Transaction")) == ["$.amount"])
        let badDate = try Self.transaction { $0.replacingOccurrences(of: "2026-06-01", with: "01/06/2026") }
        #expect(Self.paths(v.validate(badDate, component: "Transaction")) == ["$.date"])
        let nullBalance = try Self.transaction { $0.replacingOccurrences(of: #""16852.17""#, with: "null") }
        #expect(v.validate(nullBalance, component: "Transaction") == [], "balance is nullable through a type array")
        let nullAmount = try Self.transaction { $0.replacingOccurrences(of: #""-5.00""#, with: "null") }
        #expect(Self.paths(v.validate(nullAmount, component: "Transaction")) == ["$.amount"])
    }

    @Test("concrete paths find their operation; unknown paths, methods and statuses are violations")
    func operations() throws {
        let v = try OpenAPIValidator.repositoryDocument()
        #expect(v.operation(method: "POST", path: "/v1/batches/7/undo")?.template == "/v1/batches/{id}/undo")
        #expect(v.operation(method: "DELETE", path: "/v1/links/3")?.template == "/v1/links/{record}")
        #expect(v.operation(method: "POST", path: "/v1/links")?.template == "/v1/links")
        #expect(v.operation(method: "GET", path: "/v1/transactions?limit=5")?.template == "/v1/transactions")
        #expect(v.operation(method: "GET", path: "/v1/batches/7/undo") == nil)
        #expect(v.operation(method: "GET", path: "/v1/nothing") == nil)

        let undo = Data(#"{"batch": 7, "undone": true, "message": "undid batch 7"}"#.utf8)
        #expect(v.validateResponse(method: "POST", path: "/v1/batches/7/undo", status: 200, body: undo) == [])
        let notUndone = Data(#"{"batch": 7, "undone": false, "message": "x"}"#.utf8)
        #expect(Self.paths(v.validateResponse(method: "POST", path: "/v1/batches/7/undo", status: 200, body: notUndone)) == ["$.undone"])
        #expect(Self.paths(v.validateResponse(method: "GET", path: "/v1/nothing", status: 200, body: undo)) == ["$"])
        let teapot = v.validateResponse(method: "POST", path: "/v1/batches/7/undo", status: 418, body: undo)
        #expect(teapot.count == 1 && teapot[0].message.contains("418"))

        let notFound = Data(#"{"error": {"code": "not_found", "message": "no batch 7"}}"#.utf8)
        #expect(v.validateResponse(method: "POST", path: "/v1/batches/7/undo", status: 404, body: notFound) == [])
        let badCode = Data(#"{"error": {"code": "NotFound", "message": "no batch 7"}}"#.utf8)
        #expect(Self.paths(v.validateResponse(method: "POST", path: "/v1/batches/7/undo", status: 404, body: badCode)) == ["$.error.code"])
        #expect(Self.paths(v.validateResponse(method: "GET", path: "/healthz", status: 200, body: Data("ok".utf8))) == ["$"])
        #expect(Self.paths(v.validateResponse(method: "GET", path: "/healthz", status: 200, body: nil)) == ["$"])
    }

    /// The keywords our document does not use yet (oneOf, maximum, allOf) on a small document.
    @Test("oneOf needs exactly one match, anyOf at least one; minimum/maximum bound numbers; unknown keywords are reported")
    func composition() throws {
        let doc = """
            {"openapi": "3.1.0", "paths": {}, "components": {"schemas": {
              "Small": {"type": "integer", "minimum": 1, "maximum": 10},
              "Either": {"oneOf": [{"type": "integer"}, {"type": "number", "minimum": 5}]},
              "Any": {"anyOf": [{"$ref": "#/components/schemas/Small"}, {"type": "null"}]},
              "Both": {"allOf": [{"type": "string", "minLength": 2}, {"pattern": "^a"}]},
              "Odd": {"type": "string", "if": {"const": "x"}}
            }}}
            """
        let v = try OpenAPIValidator(data: Data(doc.utf8))
        #expect(v.validate(.int(10), component: "Small") == [])
        #expect(Self.paths(v.validate(.int(11), component: "Small")) == ["$"])
        #expect(Self.paths(v.validate(.int(0), component: "Small")) == ["$"])
        #expect(v.validate(.int(3), component: "Either") == [])
        #expect(v.validate(.number(2.5), component: "Either").count == 1, "matches neither")
        #expect(v.validate(.int(7), component: "Either").count == 1, "matches both")
        #expect(v.validate(.null, component: "Any") == [])
        #expect(v.validate(.int(99), component: "Any").count == 1)
        #expect(v.validate(.string("ab"), component: "Both") == [])
        #expect(v.validate(.string("b"), component: "Both").count == 2)
        #expect(v.validate(.string("x"), component: "Odd").count == 1, "`if` is not handled, so it cannot pass silently")
        #expect(Self.paths(v.validate(.int(1), component: "Missing")) == ["$"])
    }
}
