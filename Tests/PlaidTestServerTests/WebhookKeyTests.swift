import Foundation
import Testing

@testable import PlaidTestServer

/// `/webhook_verification_key/get`: the spec's request checks, a spec-valid `JWKPublicKey` for
/// the current and rotated-out keys (PlaidCalls checks every answer against the response schema).
@Suite struct WebhookKeyTests {
    @Test func servesCurrentAndExpiredKeysAsSpecJWKs() async throws {
        let server = try await PlaidTestServer.start(withDefaultInstitution: false)
        let calls = PlaidCalls(server: server)
        let first = server.webhookKeyID
        let reply = try await calls.post("/webhook_verification_key/get", ["key_id": .string(first)])
        #expect(reply.status == 200)
        let key = try #require(reply.json["key"])
        #expect(key["kid"]?.stringValue == first && key["kty"]?.stringValue == "EC" && key["crv"]?.stringValue == "P-256")
        #expect(key["alg"]?.stringValue == "ES256" && key["use"]?.stringValue == "sig" && key["expired_at"] == .null)
        #expect(key["x"]?.stringValue?.count == 43 && key["y"]?.stringValue?.count == 43)

        let second = server.rotateWebhookKey()
        #expect(second != first && server.webhookKeyID == second)
        let old = try await calls.post("/webhook_verification_key/get", ["key_id": .string(first)])
        #expect(old.json["key"]?["expired_at"]?.intValue != nil)
        let new = try await calls.post("/webhook_verification_key/get", ["key_id": .string(second)])
        #expect(new.json["key"]?["expired_at"] == .null && new.json["key"]?["x"] != key["x"])
        await server.stop()
    }

    @Test func requestsAreCheckedLikeEveryEndpoint() async throws {
        let server = try await PlaidTestServer.start(withDefaultInstitution: false)
        let calls = PlaidCalls(server: server)
        #expect(try await calls.post("/webhook_verification_key/get").errorCode == "MISSING_FIELDS")
        #expect(try await calls.post("/webhook_verification_key/get", ["key_id": .number("1")]).errorCode == "INVALID_FIELD")
        let extra: [String: PlaidJSON] = ["key_id": .string(server.webhookKeyID), "extra": .bool(true)]
        #expect(try await calls.post("/webhook_verification_key/get", extra).errorCode == "UNKNOWN_FIELDS")
        #expect(try await calls.post("/webhook_verification_key/get", ["key_id": .string("nope")]).errorCode == "INVALID_FIELD")
        #expect(
            try await calls.post("/webhook_verification_key/get", ["key_id": .string("k")], credentials: false).errorCode
                == "MISSING_FIELDS")
        await server.stop()
    }
}
