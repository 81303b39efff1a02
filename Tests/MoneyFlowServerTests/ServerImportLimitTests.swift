import Foundation
import MoneyFlowHTTPTestSupport
import MoneyFlowTestSupport
import Testing

/// An upload beyond one import's limits (a PDF nested too deep, with too many objects) is
/// refused with 422 and the one-line message naming the file and the limit.
@Suite("moneyflow serve: per-import limits")
struct ServerImportLimitTests {
    @Test func aHostilePDFIsRefusedWith422NamingTheFileAndTheLimit() async throws {
        try await InProcessServer.run(maxBodyBytes: 8 << 20) { h in
            let token = try await h.addUser("dora")
            let cases: [(name: String, body: Data, limit: String)] = [
                ("nested.pdf", HostilePDF.nestedArrays(depth: 20_000), "nested more than 100 deep"),
                ("objects.pdf", HostilePDF.manyObjects(count: 100_001), "more than 100000 objects"),
            ]
            for c in cases {
                let r = try await h.send("POST", "/v1/imports?filename=\(c.name)", token: token, body: c.body)
                #expect(r.status == 422, "\(c.name): \(r.status) \(r.text)")
                let error = (r.json as? [String: Any])?["error"] as? [String: Any]
                let message = error?["message"] as? String ?? ""
                #expect(message.contains(c.name) && message.contains(c.limit), "\(message)")
            }
        }
    }
}
