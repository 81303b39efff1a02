import Crypto
import Foundation
import MoneyFlowCore

/// Checks that a webhook really comes from Plaid and is fresh, as Plaid documents it
/// (plaid.com/docs/api/webhooks/webhook-verification/): the `Plaid-Verification` header is an
/// ES256 JWT whose `kid` names a key served by `/webhook_verification_key/get`; its payload holds
/// `iat` and the SHA-256 of the exact body. Only after every check passes is the body read.
///
/// The endpoint is anonymous, so nothing a stranger sends may cost an outbound call it can
/// avoid: every check that needs no key (shape, algorithm, `iat` within five minutes, body
/// digest) runs first, and a JWT that fails one is refused without contacting Plaid. Keys are
/// then cached by `kid` (an expired one stays cached and refused); a `kid` Plaid said it does
/// not know is refused without asking again for ``unknownKeyTTL``; and fetches of new kids go
/// one at a time within a global ``WebhookKeyFetchBudget`` (beyond it: ``PlaidWebhookError/Reason/throttled``).
/// A fetched new key, as Plaid's examples do, refreshes the cached keys not yet expired, so a
/// key rotated out at Plaid is refused from then on. Verified JWTs are remembered for their
/// window (``WebhookReplayWindow``) and a second copy is refused as a replay.
public actor PlaidWebhookVerifier {
    /// How far `iat` may be from now, either way (Plaid: reject webhooks older than 5 minutes;
    /// the same bound forward tolerates clock skew but not a token minted for later replay).
    public static let maxSkew: TimeInterval = 5 * 60
    /// How long a `kid` Plaid does not know is refused without asking Plaid again.
    public static let unknownKeyTTL: TimeInterval = 15 * 60
    /// At most this many unknown kids are remembered (the budget bounds how fast they come).
    static let maxUnknownKeys = 1024

    private let client: PlaidClient
    private let now: @Sendable () -> Date
    private var keys: [String: WebhookKey] = [:]
    /// Kids Plaid answered "no such key" for, with when that answer stops being trusted.
    private var unknown: [String: Date] = [:]
    /// The one fetch in flight: its kid, a number telling it from later fetches, and its task.
    private var fetching: (kid: String, serial: Int, task: Task<[String: WebhookKey], any Error>)?
    private var serial = 0
    private var budget: WebhookKeyFetchBudget
    private var replays = WebhookReplayWindow()

    public init(
        client: PlaidClient, budget: WebhookKeyFetchBudget = WebhookKeyFetchBudget(), now: @escaping @Sendable () -> Date = Date.init
    ) {
        // One try per key fetch: Plaid sends a refused webhook again, a retry here only holds
        // the anonymous request open.
        var client = client
        client.retry.maxAttempts = 1
        self.client = client
        self.budget = budget
        self.now = now
    }

    /// The webhook in `body` once `verificationHeader` (the `Plaid-Verification` header) proves
    /// it; otherwise ``PlaidWebhookError``. Plaid's own errors while fetching a key other than
    /// "no such key" (bad credentials, outages) and transport errors are thrown as they are.
    public func verify(body: Data, verificationHeader: String?) async throws -> PlaidWebhook {
        guard let text = verificationHeader?.trimmingCharacters(in: .whitespaces), !text.isEmpty else {
            throw PlaidWebhookError(.missingHeader, "the Plaid-Verification header is missing")
        }
        let jwt = try WebhookJWT(text)
        // Before any key is fetched: "none" or an HMAC would let the sender choose the proof.
        guard jwt.header.alg == "ES256" else {
            throw PlaidWebhookError(.wrongAlgorithm, "the JWT is signed with \(jwt.header.alg), only ES256 is accepted")
        }
        // The claims are not trusted yet, but a JWT whose claims fail cannot be valid either way:
        // refused here, it costs no call to Plaid.
        let age = now().timeIntervalSince1970 - TimeInterval(jwt.payload.iat)
        guard age <= Self.maxSkew else {
            throw PlaidWebhookError(.tooOld, "issued \(Int(age)) s ago, more than \(Int(Self.maxSkew)) s (a replay or a stuck queue)")
        }
        guard age >= -Self.maxSkew else {
            throw PlaidWebhookError(.fromTheFuture, "issued \(Int(-age)) s in the future; check this machine's clock")
        }
        let digest = SHA256.hash(data: body).map { String(format: "%02x", $0) }.joined()
        guard ConstantTime.equal(digest, jwt.payload.request_body_sha256.lowercased()) else {
            throw PlaidWebhookError(.bodyMismatch, "the body's SHA-256 differs from request_body_sha256 in the signed JWT")
        }
        let key = try await key(jwt.header.kid)
        if let expired = key.expiredAt {
            throw PlaidWebhookError(.expiredKey, "key \(jwt.header.kid) was rotated out at Plaid (expired_at \(expired))")
        }
        guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: jwt.signature),
            key.publicKey.isValidSignature(signature, for: jwt.signingInput)
        else { throw PlaidWebhookError(.badSignature, "the JWT signature does not verify with key \(jwt.header.kid)") }
        // By what the signature covers (an ECDSA signature can be re-shaped into another valid
        // one); no suspension between this check and the record: two copies cannot both pass.
        guard replays.firstSight(of: jwt.signingInput, issuedAt: jwt.payload.iat, now: now(), window: Self.maxSkew) else {
            throw PlaidWebhookError(.replayed, "this webhook (the same signed JWT) was received already")
        }
        return try PlaidWebhook.decode(body)
    }

    /// The key `kid` names: from the cache, or from Plaid when the budget allows, one fetch at
    /// a time however many webhooks wait for it.
    private func key(_ kid: String) async throws -> WebhookKey {
        if let key = keys[kid] { return key }
        if let until = unknown[kid], until > now() {
            throw PlaidWebhookError(.unknownKey, "Plaid has no verification key \(kid) (asked recently)")
        }
        let running: (serial: Int, task: Task<[String: WebhookKey], any Error>)
        if let f = fetching {
            guard f.kid == kid else { throw throttled("another verification key is being fetched") }
            running = (f.serial, f.task)
        } else {
            guard budget.take(at: now()) else { throw throttled("too many unknown verification keys lately") }
            let refresh = keys.filter { $0.value.expiredAt == nil }.map(\.key)
            serial += 1
            let task = Task { [client] in try await Self.fetch(kid, refreshing: refresh, client: client) }
            fetching = (kid, serial, task)
            running = (serial, task)
        }
        defer { if fetching?.serial == running.serial { fetching = nil } }
        let fetched: [String: WebhookKey]
        do { fetched = try await running.task.value } catch let e as PlaidWebhookError where e.reason == .unknownKey {
            rememberUnknown(kid)
            throw e
        }
        keys.merge(fetched) { _, new in new }
        guard let key = keys[kid] else { throw PlaidWebhookError(.unknownKey, "Plaid has no verification key \(kid)") }
        return key
    }

    private func throttled(_ why: String) -> PlaidWebhookError {
        let wait = max(1, Int(budget.wait(at: now()).rounded(.up)))
        return PlaidWebhookError(.throttled, "\(why); not asking Plaid for key now, send again later", retryAfter: wait)
    }

    private func rememberUnknown(_ kid: String) {
        let t = now()
        unknown = unknown.filter { $0.value > t }
        if unknown.count >= Self.maxUnknownKeys, let oldest = unknown.min(by: { $0.value < $1.value })?.key { unknown[oldest] = nil }
        unknown[kid] = t.addingTimeInterval(Self.unknownKeyTTL)
    }

    /// `kid`, plus fresh copies of the cached keys in `refresh` (a failure there keeps the copy).
    private static func fetch(_ kid: String, refreshing refresh: [String], client: PlaidClient) async throws -> [String: WebhookKey] {
        var out: [String: WebhookKey] = [:]
        do {
            out[kid] = try WebhookKey(response: try await client.webhookVerificationKey(keyID: kid), kid: kid)
        } catch let error as PlaidAPIError where error.httpStatus == 400 && error.errorCode != "INVALID_API_KEYS" {
            throw PlaidWebhookError(.unknownKey, "Plaid has no verification key \(kid) (\(error.errorCode))")
        }
        for other in refresh {
            if let data = try? await client.webhookVerificationKey(keyID: other), let key = try? WebhookKey(response: data, kid: other) {
                out[other] = key
            }
        }
        return out
    }

}

/// The body of `/webhook_verification_key/get`.
struct WebhookVerificationKeyGetRequest: Encodable, Sendable {
    var key_id: String
}
