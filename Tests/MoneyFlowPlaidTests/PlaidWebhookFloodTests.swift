import Foundation
import MoneyFlowPlaid
import PlaidTestServer
import Synchronization
import Testing

/// What anonymous webhooks can make the server do at Plaid: nothing that a check without a key
/// can refuse, a bounded number of key fetches for the rest, and no second acceptance of a
/// webhook already accepted (issue #28, items 2 and 3).
@Suite struct PlaidWebhookFloodTests {
    static let body = PlaidWebhookVerifierTests.syncBody

    /// A JWT with Plaid's shape and a forger's claims: any `kid`, this body's digest, `iat`,
    /// and a signature no key made.
    static func forged(kid: String, body: Data = body, iat: Date = Date(), alg: String = "ES256") -> String {
        let header = JWTParts.encode(#"{"alg":"\#(alg)","kid":"\#(kid)","typ":"JWT"}"#)
        let payload = JWTParts.encode(
            #"{"iat":\#(Int(iat.timeIntervalSince1970)),"request_body_sha256":"\#(JWTParts.sha256Hex(body))"}"#)
        return "\(header).\(payload).\(JWTParts.encode(String(repeating: "s", count: 64)))"
    }

    @Test("300 forged webhooks of every kind cost at most the key-fetch budget in calls to Plaid")
    func forgedFloodIsBounded() async throws {
        try await WebhookWorld.run { w in
            // A genuine webhook first: its key is cached, as on a server that has run a while.
            let genuine = PlaidWebhookKeyTests.body("SYNC_UPDATES_AVAILABLE")
            #expect(await w.refusal(genuine, w.server.signWebhook(body: genuine)) == nil)
            var forgeries: [(Data, String)] = []
            for n in 0..<300 {
                switch n % 6 {
                case 0, 1: forgeries.append((Self.body, Self.forged(kid: UUID().uuidString.lowercased())))
                case 2: forgeries.append((Self.body, Self.forged(kid: "00000000-0000-0000-0000-000000000000")))
                case 3: forgeries.append((Self.body, Self.forged(kid: UUID().uuidString, iat: Date().addingTimeInterval(-900))))
                case 4: forgeries.append((Self.body + Data(" ".utf8), Self.forged(kid: UUID().uuidString)))
                default: forgeries.append((Self.body, Self.forged(kid: UUID().uuidString, alg: "HS256")))
                }
            }
            let verifier = w.verifier
            let reasons = await withTaskGroup(of: PlaidWebhookError.Reason?.self) { group in
                for (body, header) in forgeries {
                    group.addTask {
                        do { _ = try await verifier.verify(body: body, verificationHeader: header) } catch let e as PlaidWebhookError {
                            return e.reason
                        } catch { return nil }
                        return nil
                    }
                }
                return await group.reduce(into: [PlaidWebhookError.Reason?]()) { $0.append($1) }
            }
            #expect(reasons.count == 300 && reasons.allSatisfy { $0 != nil }, "every forgery refused")
            #expect(w.server.requests().count <= 5, "\(w.server.requests().count) calls to Plaid")
            // Genuine webhooks under the cached key still pass, flood or not.
            #expect(await w.refusal(Self.body, w.server.signWebhook(body: Self.body)) == nil)
            #expect(w.server.requests().count <= 5)
        }
    }

    @Test("a JWT that cannot be valid (stale, future, wrong body, bad kid) is refused before any call to Plaid")
    func keylessChecksComeFirst() async throws {
        try await WebhookWorld.run { w in
            let now = Date()
            #expect(await w.refusal(Self.body, w.server.signWebhook(body: Self.body, issuedAt: now.addingTimeInterval(-301))) == .tooOld)
            #expect(
                await w.refusal(Self.body, w.server.signWebhook(body: Self.body, issuedAt: now.addingTimeInterval(400))) == .fromTheFuture)
            #expect(await w.refusal(Self.body + Data(" ".utf8), w.server.signWebhook(body: Self.body)) == .bodyMismatch)
            #expect(await w.refusal(Self.body, Self.forged(kid: "../../etc/passwd")) == .badJWT)
            #expect(await w.refusal(Self.body, Self.forged(kid: String(repeating: "k", count: 129))) == .badJWT)
            #expect(w.server.requests().isEmpty, "\(w.server.requests().map(\.path))")
        }
    }

    @Test("a kid Plaid does not know is asked once, then refused from memory until its time is up")
    func unknownKidIsRemembered() async throws {
        let clock = TestClock(Date())
        try await WebhookWorld.run(now: { clock.now }) { w in
            let kid = UUID().uuidString.lowercased()
            for _ in 0..<5 {
                #expect(await w.refusal(Self.body, Self.forged(kid: kid, iat: clock.now)) == .unknownKey)
            }
            #expect(w.keyFetches().count == 1)
            clock.advance(PlaidWebhookVerifier.unknownKeyTTL + 1)
            #expect(await w.refusal(Self.body, Self.forged(kid: kid, iat: clock.now)) == .unknownKey)
            #expect(w.keyFetches().count == 2)
        }
    }

    @Test("one key fetch at a time: a second unknown kid meanwhile is told to come back, not fetched")
    func oneFetchInFlight() async throws {
        try await WebhookWorld.run { w in
            let hold = w.server.holdNext(path: "/webhook_verification_key/get")
            let verifier = w.verifier
            let first = Task { try? await verifier.verify(body: Self.body, verificationHeader: Self.forged(kid: "kid-one")) }
            await hold.waitUntilHeld()
            do {
                _ = try await verifier.verify(body: Self.body, verificationHeader: Self.forged(kid: "kid-two"))
                Issue.record("a second fetch was made or the forgery passed")
            } catch let e as PlaidWebhookError {
                #expect(e.reason == .throttled && (e.retryAfter ?? 0) >= 1, "\(e)")
            }
            hold.release()
            _ = await first.value
            #expect(w.keyFetches().map { $0.json?["key_id"]?.stringValue } == ["kid-one"])
        }
    }

    @Test("the budget refills over time, one fetch per refill period")
    func budgetRefills() {
        var budget = WebhookKeyFetchBudget(burst: 2, refill: 60)
        let t0 = Date(timeIntervalSince1970: 1_000_000)
        let taken = [0, 0, 59, 61, 62].map { budget.take(at: t0.addingTimeInterval(TimeInterval($0))) }
        #expect(taken == [true, true, false, true, false])
        #expect(budget.wait(at: t0.addingTimeInterval(62)) > 50)
    }
}

/// A clock a test moves by hand.
final class TestClock: Sendable {
    private let time: Mutex<Date>
    init(_ start: Date) { time = Mutex(start) }
    var now: Date { time.withLock { $0 } }
    func advance(_ seconds: TimeInterval) { time.withLock { $0 = $0.addingTimeInterval(seconds) } }
}

/// Replays of a genuine webhook inside its window (issue #28, item 3).
@Suite struct PlaidWebhookReplayTests {
    @Test("a verified webhook is accepted once; the same JWT again, even re-shaped or at once, is a replay")
    func replayIsRefused() async throws {
        try await WebhookWorld.run { w in
            let body = PlaidWebhookFloodTests.body
            // Whole seconds (iat's unit), so the new delivery below has a different iat however
            // long the 50 verifications take on a loaded machine.
            let issued = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down) - 10)
            let header = w.server.signWebhook(body: body, issuedAt: issued)
            let verifier = w.verifier
            let accepted = await withTaskGroup(of: Bool.self) { group in
                for _ in 0..<50 { group.addTask { (try? await verifier.verify(body: body, verificationHeader: header)) != nil } }
                return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(accepted == 1)
            #expect(await w.refusal(body, header) == .replayed)
            // The other valid signature of the same content (s -> n - s) is the same webhook.
            let parts = header.split(separator: ".").map(String.init)
            let flipped = [parts[0], parts[1], Self.flipS(parts[2])].joined(separator: ".")
            #expect(await w.refusal(body, flipped) == .replayed)
            // A new delivery (a new iat) of the same body is a new webhook.
            #expect(await w.refusal(body, w.server.signWebhook(body: body, issuedAt: issued.addingTimeInterval(1))) == nil)
        }
    }

    /// The base64url ECDSA signature r || s with s replaced by n - s (P-256's order n): valid as well.
    static func flipS(_ encoded: String) -> String {
        var s = encoded.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        s += String(repeating: "=", count: (4 - s.count % 4) % 4)
        let raw = [UInt8](Data(base64Encoded: s)!)
        let n: [UInt8] = [
            0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
            0xBC, 0xE6, 0xFA, 0xAD, 0xA7, 0x17, 0x9E, 0x84, 0xF3, 0xB9, 0xCA, 0xC2, 0xFC, 0x63, 0x25, 0x51,
        ]
        var out = [UInt8](repeating: 0, count: 32)
        var borrow = 0
        for k in stride(from: 31, through: 0, by: -1) {
            var d = Int(n[k]) - Int(raw[32 + k]) - borrow
            borrow = d < 0 ? 1 : 0
            if d < 0 { d += 256 }
            out[k] = UInt8(d)
        }
        return Data(raw.prefix(32) + out).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}
