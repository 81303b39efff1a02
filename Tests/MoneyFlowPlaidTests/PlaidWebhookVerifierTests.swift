import Foundation
import MoneyFlowPlaid
import PlaidTestServer
import Testing

/// `PlaidWebhookVerifier` against the Plaid test server's real signing key and real
/// `/webhook_verification_key/get`: what Plaid signs is accepted, every forgery, replay and
/// downgrade the checks exist for is refused with its own reason.
@Suite struct PlaidWebhookVerifierTests {
    static let syncBody = Data(
        #"{"environment":"sandbox","historical_update_complete":true,"initial_update_complete":true,"item_id":"wz666MBjYWTp2PDzzggYhM6oWWmBb","webhook_code":"SYNC_UPDATES_AVAILABLE","webhook_type":"TRANSACTIONS"}"#
            .utf8)

    @Test func signedWebhookVerifiesAndIsRead() async throws {
        try await WebhookWorld.run { w in
            let hook = try await w.verifier.verify(body: Self.syncBody, verificationHeader: w.server.signWebhook(body: Self.syncBody))
            #expect(hook.webhookType == "TRANSACTIONS" && hook.webhookCode == "SYNC_UPDATES_AVAILABLE")
            #expect(hook.itemID == "wz666MBjYWTp2PDzzggYhM6oWWmBb" && hook.environment == "sandbox")
            #expect(hook.startsSync && !hook.itemNeedsUser)
            let error = Data(
                #"{"webhook_type":"ITEM","webhook_code":"ERROR","item_id":"i1","error":{"error_type":"ITEM_ERROR","error_code":"ITEM_LOGIN_REQUIRED","error_message":"m","display_message":null,"status":400},"environment":"sandbox"}"#
                    .utf8)
            let itemError = try await w.verifier.verify(body: error, verificationHeader: w.server.signWebhook(body: error))
            #expect(itemError.errorCode == "ITEM_LOGIN_REQUIRED" && itemError.itemNeedsUser && !itemError.startsSync)
            // Two webhooks under one kid: the key was fetched once, and answered 200.
            let fetches = w.keyFetches()
            #expect(fetches.count == 1 && fetches.allSatisfy { $0.status == 200 })
            #expect(fetches.first?.json?["key_id"]?.stringValue == w.server.webhookKeyID)
        }
    }

    @Test func tamperedBodyIsRefused() async throws {
        try await WebhookWorld.run { w in
            let header = w.server.signWebhook(body: Self.syncBody)
            let otherItem = Data(String(decoding: Self.syncBody, as: UTF8.self).replacingOccurrences(of: "wz666", with: "xz666").utf8)
            #expect(await w.refusal(otherItem, header) == .bodyMismatch)
            // Re-serialising changes the bytes: the digest covers the exact body, not its meaning.
            #expect(await w.refusal(Self.syncBody + Data(" ".utf8), header) == .bodyMismatch)
            #expect(await w.refusal(Self.syncBody, header) == nil)
        }
    }

    @Test func tamperedSignatureOrPayloadIsRefused() async throws {
        try await WebhookWorld.run { w in
            let parts = w.server.signWebhook(body: Self.syncBody).split(separator: ".").map(String.init)
            var signature = parts[2]
            signature.replaceSubrange(signature.startIndex...signature.startIndex, with: signature.first == "A" ? "B" : "A")
            #expect(await w.refusal(Self.syncBody, [parts[0], parts[1], signature].joined(separator: ".")) == .badSignature)
            // A payload naming a forged body's digest, under the genuine signature.
            let forged = Data("{\"webhook_type\":\"ITEM\",\"webhook_code\":\"USER_PERMISSION_REVOKED\"}".utf8)
            let payload = JWTParts.encode(
                #"{"iat":\#(Int(Date().timeIntervalSince1970)),"request_body_sha256":"\#(JWTParts.sha256Hex(forged))"}"#)
            #expect(await w.refusal(forged, [parts[0], payload, parts[2]].joined(separator: ".")) == .badSignature)
            // A signature that is not 64 bytes (r || s).
            #expect(await w.refusal(Self.syncBody, [parts[0], parts[1], JWTParts.encode("short")].joined(separator: ".")) == .badSignature)
        }
    }

    @Test func signatureByAnotherKeyIsRefused() async throws {
        try await WebhookWorld.run { w in
            let other = try await PlaidTestServer.start(withDefaultInstitution: false)
            let foreign = other.signWebhook(body: Self.syncBody)
            await other.stop()
            // Plaid's kid with another key's signature.
            let ours = w.server.signWebhook(body: Self.syncBody).split(separator: ".")
            let spliced = "\(ours[0]).\(ours[1]).\(foreign.split(separator: ".")[2])"
            #expect(await w.refusal(Self.syncBody, spliced) == .badSignature)
            // The other key's own kid: Plaid does not know it.
            #expect(await w.refusal(Self.syncBody, foreign) == .unknownKey)
            #expect(w.keyFetches().map(\.status) == [200, 400])
        }
    }

    @Test func algorithmsOtherThanES256AreRefusedBeforeAnyKeyFetch() async throws {
        try await WebhookWorld.run { w in
            let kid = w.server.webhookKeyID
            let payload = JWTParts.encode(
                #"{"iat":\#(Int(Date().timeIntervalSince1970)),"request_body_sha256":"\#(JWTParts.sha256Hex(Self.syncBody))"}"#)
            for alg in ["none", "HS256", "RS256", "ES384", "es256"] {
                let header = JWTParts.encode(#"{"alg":"\#(alg)","kid":"\#(kid)","typ":"JWT"}"#)
                let signature = alg == "none" ? "" : JWTParts.encode(String(repeating: "s", count: 64))
                #expect(await w.refusal(Self.syncBody, "\(header).\(payload).\(signature)") == .wrongAlgorithm, "\(alg)")
            }
            #expect(w.keyFetches().isEmpty)
        }
    }

    @Test func issuedAtMustBeWithinFiveMinutesEitherWay() async throws {
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        try await WebhookWorld.run(now: now) { w in
            func at(_ offset: TimeInterval) async -> PlaidWebhookError.Reason? {
                await w.refusal(Self.syncBody, w.server.signWebhook(body: Self.syncBody, issuedAt: now.addingTimeInterval(offset)))
            }
            #expect(await at(-301) == .tooOld)
            #expect(await at(-3600) == .tooOld)
            #expect(await at(-299) == nil)
            #expect(await at(299) == nil)
            #expect(await at(301) == .fromTheFuture)
        }
    }

    @Test func missingOrMalformedHeaderIsRefused() async throws {
        try await WebhookWorld.run { w in
            #expect(await w.refusal(Self.syncBody, nil) == .missingHeader)
            #expect(await w.refusal(Self.syncBody, " ") == .missingHeader)
            let good = w.server.signWebhook(body: Self.syncBody).split(separator: ".")
            for bad in [
                "abc", "\(good[0]).\(good[1])", "\(good[0]).\(good[1]).\(good[2]).x", "\(good[0]).!!.\(good[2])",
                "\(JWTParts.encode("[1]")).\(good[1]).\(good[2])", "\(good[0]).\(JWTParts.encode(#"{"iat":"soon"}"#)).\(good[2])",
                String(repeating: "a", count: 9000),
            ] {
                #expect(await w.refusal(Self.syncBody, bad) == .badJWT, "\(bad.prefix(40))")
            }
            #expect(w.keyFetches().isEmpty)
        }
    }

    @Test func signedBodyThatIsNotAWebhookIsRefused() async throws {
        try await WebhookWorld.run { w in
            for text in ["hello", "[]", #"{"webhook_type":"ITEM"}"#] {
                let body = Data(text.utf8)
                #expect(await w.refusal(body, w.server.signWebhook(body: body)) == .notJSON, "\(text)")
            }
        }
    }
}
