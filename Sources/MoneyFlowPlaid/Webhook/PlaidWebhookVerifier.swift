import Crypto
import Foundation
import MoneyFlowCore

/// Checks that a webhook really comes from Plaid and is fresh, as Plaid documents it
/// (plaid.com/docs/api/webhooks/webhook-verification/): the `Plaid-Verification` header is an
/// ES256 JWT whose `kid` names a key served by `/webhook_verification_key/get`; its payload holds
/// `iat` and the SHA-256 of the exact body. Only after every check passes is the body read.
///
/// Keys are cached by `kid`. An unknown `kid` fetches it and, as Plaid's examples do, refreshes
/// the cached keys not yet expired, so a key rotated out at Plaid is refused from then on.
/// An actor so concurrent webhooks share one cache and one fetch per `kid`.
public actor PlaidWebhookVerifier {
    /// How far `iat` may be from now, either way (Plaid: reject webhooks older than 5 minutes;
    /// the same bound forward tolerates clock skew but not a token minted for later replay).
    public static let maxSkew: TimeInterval = 5 * 60

    private let client: PlaidClient
    private let now: @Sendable () -> Date
    private var keys: [String: WebhookKey] = [:]
    private var fetching: [String: Task<[String: WebhookKey], any Error>] = [:]

    public init(client: PlaidClient, now: @escaping @Sendable () -> Date = Date.init) {
        self.client = client
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
        let key = try await key(jwt.header.kid)
        if let expired = key.expiredAt {
            throw PlaidWebhookError(.expiredKey, "key \(jwt.header.kid) was rotated out at Plaid (expired_at \(expired))")
        }
        guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: jwt.signature),
            key.publicKey.isValidSignature(signature, for: jwt.signingInput)
        else { throw PlaidWebhookError(.badSignature, "the JWT signature does not verify with key \(jwt.header.kid)") }
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
        return try PlaidWebhook.decode(body)
    }

    /// The key `kid` names, from the cache or Plaid; one fetch per `kid` however many webhooks wait.
    private func key(_ kid: String) async throws -> WebhookKey {
        if let key = keys[kid] { return key }
        let task: Task<[String: WebhookKey], any Error>
        if let running = fetching[kid] {
            task = running
        } else {
            let refresh = keys.filter { $0.value.expiredAt == nil }.map(\.key)
            task = Task { [client] in try await Self.fetch(kid, refreshing: refresh, client: client) }
            fetching[kid] = task
        }
        defer { fetching[kid] = nil }
        let fetched = try await task.value
        keys.merge(fetched) { _, new in new }
        guard let key = keys[kid] else { throw PlaidWebhookError(.unknownKey, "Plaid has no verification key \(kid)") }
        return key
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
