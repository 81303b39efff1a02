import Crypto
import Foundation
import MoneyFlowPlaid
import PlaidTestServer
import Testing

/// The verification key cache: fetched once per kid, refreshed on an unknown kid so a key
/// rotated out at Plaid stops verifying, and classification of what a verified webhook asks for.
@Suite struct PlaidWebhookKeyTests {
    static func body(_ code: String, type: String = "TRANSACTIONS", extra: String = "") -> Data {
        Data(#"{"webhook_type":"\#(type)","webhook_code":"\#(code)","item_id":"item-1"\#(extra)}"#.utf8)
    }

    @Test func rotationRefetchesAndTheOldKeyIsThenRefused() async throws {
        try await WebhookWorld.run { w in
            let old = w.server.webhookKeyID
            let first = Self.body("SYNC_UPDATES_AVAILABLE")
            #expect(await w.refusal(first, w.server.signWebhook(body: first)) == nil)
            let new = w.server.rotateWebhookKey()
            #expect(new != old && w.server.webhookKeyID == new)
            // Unknown kid: fetched, and the cached old key refreshed (now expired at Plaid).
            #expect(await w.refusal(first, w.server.signWebhook(body: first)) == nil)
            #expect(w.keyFetches().compactMap { $0.json?["key_id"]?.stringValue } == [old, new, old])
            #expect(await w.refusal(first, w.server.signWebhook(body: first, keyID: old)) == .expiredKey)
            // Both keys cached now: no more fetches (another webhook: the same body signed in the
            // same second would be the same JWT, a replay).
            let second = Self.body("DEFAULT_UPDATE")
            #expect(await w.refusal(second, w.server.signWebhook(body: second)) == nil)
            #expect(w.keyFetches().count == 3)
        }
    }

    @Test func expiredKeyIsRefusedWhenFirstSeen() async throws {
        try await WebhookWorld.run { w in
            let old = w.server.webhookKeyID
            w.server.rotateWebhookKey()
            let body = Self.body("SYNC_UPDATES_AVAILABLE")
            #expect(await w.refusal(body, w.server.signWebhook(body: body, keyID: old)) == .expiredKey)
            #expect(await w.refusal(body, w.server.signWebhook(body: body)) == nil)
        }
    }

    @Test func concurrentWebhooksWithOneNewKidFetchItOnce() async throws {
        try await WebhookWorld.run { w in
            let bodies = (0..<8).map { Self.body("SYNC_UPDATES_AVAILABLE", extra: #","n":\#($0)"#) }
            let headers = bodies.map { w.server.signWebhook(body: $0) }
            let verifier = w.verifier
            let results = await withTaskGroup(of: Bool.self) { group in
                for (b, h) in zip(bodies, headers) {
                    group.addTask { (try? await verifier.verify(body: b, verificationHeader: h)) != nil }
                }
                return await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(results == Array(repeating: true, count: 8))
            #expect(w.keyFetches().count == 1)
        }
    }

    @Test func whatAVerifiedWebhookAsksFor() async throws {
        try await WebhookWorld.run { w in
            func read(_ body: Data) async throws -> PlaidWebhook {
                try await w.verifier.verify(body: body, verificationHeader: w.server.signWebhook(body: body))
            }
            for code in ["SYNC_UPDATES_AVAILABLE", "DEFAULT_UPDATE", "INITIAL_UPDATE", "HISTORICAL_UPDATE"] {
                #expect(try await read(Self.body(code)).startsSync, "\(code)")
            }
            #expect(try await !read(Self.body("RECURRING_TRANSACTIONS_UPDATE")).startsSync)
            #expect(try await !read(Self.body("SYNC_UPDATES_AVAILABLE", type: "ITEM")).startsSync)
            for code in ["PENDING_EXPIRATION", "PENDING_DISCONNECT", "USER_PERMISSION_REVOKED"] {
                #expect(try await read(Self.body(code, type: "ITEM")).itemNeedsUser, "\(code)")
            }
            for code in ["LOGIN_REPAIRED", "WEBHOOK_UPDATE_ACKNOWLEDGED", "NEW_ACCOUNTS_AVAILABLE"] {
                #expect(try await !read(Self.body(code, type: "ITEM")).itemNeedsUser, "\(code)")
            }
            func error(_ type: String, _ code: String) -> Data {
                Self.body("ERROR", type: "ITEM", extra: #","error":{"error_type":"\#(type)","error_code":"\#(code)"}"#)
            }
            #expect(try await read(error("ITEM_ERROR", "ITEM_LOGIN_REQUIRED")).itemNeedsUser)
            #expect(try await read(error("ITEM_ERROR", "ITEM_NOT_FOUND")).itemNeedsUser)
            #expect(try await !read(error("INSTITUTION_ERROR", "INSTITUTION_DOWN")).itemNeedsUser)
            let bare = try await read(Self.body("ERROR", type: "ITEM", extra: #","error":null"#))
            #expect(!bare.itemNeedsUser && bare.errorCode == nil)
        }
    }
}

/// One test's server and verifier.
struct WebhookWorld {
    let server: PlaidTestServer
    let verifier: PlaidWebhookVerifier

    static func run(now: Date, _ body: (WebhookWorld) async throws -> Void) async throws {
        try await run(now: { now }, body)
    }

    static func run(now: (@Sendable () -> Date)? = nil, _ body: (WebhookWorld) async throws -> Void) async throws {
        let server = try await PlaidTestServer.start(withDefaultInstitution: false)
        let configuration = PlaidConfiguration(
            clientID: "test-client-id", secret: "test-secret", baseURL: URL(string: server.baseURL)!, environmentName: "custom")
        let client = PlaidClient(configuration: configuration, retry: RetryPolicy(maxAttempts: 1))
        let verifier = now.map { PlaidWebhookVerifier(client: client, now: $0) } ?? PlaidWebhookVerifier(client: client)
        do { try await body(WebhookWorld(server: server, verifier: verifier)) } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    /// The reason `verify` refused, nil when it accepted; any other error fails the test.
    func refusal(_ body: Data, _ header: String?) async -> PlaidWebhookError.Reason? {
        do {
            _ = try await verifier.verify(body: body, verificationHeader: header)
            return nil
        } catch let error as PlaidWebhookError {
            return error.reason
        } catch {
            Issue.record("verify threw \(error) instead of a PlaidWebhookError")
            return nil
        }
    }

    func keyFetches() -> [RecordedRequest] {
        server.requests().filter { $0.path == "/webhook_verification_key/get" }
    }
}

/// Hand-made JWT parts for forgeries.
enum JWTParts {
    static func encode(_ text: String) -> String {
        Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func sha256Hex(_ data: Data) -> String {
        SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }
}
