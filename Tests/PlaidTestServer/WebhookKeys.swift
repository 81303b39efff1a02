import Crypto
import Foundation

/// The server's webhook signing keys, as Plaid keeps them: one current P-256 key that signs
/// new webhooks, and every earlier key, still answerable by `/webhook_verification_key/get`
/// but with `expired_at` set (so a receiver can tell a rotated-out key from an unknown one).
struct WebhookKeys: Sendable {
    struct Key: Sendable {
        let kid: String
        let privateKey: P256.Signing.PrivateKey
        let createdAt: Int
        var expiredAt: Int?
    }

    private(set) var keys: [String: Key] = [:]
    private(set) var currentKID: String

    init() {
        let key = Self.newKey()
        keys[key.kid] = key
        currentKID = key.kid
    }

    var current: Key { keys[currentKID]! }

    /// A new current key; the previous one is marked expired now.
    mutating func rotate() -> String {
        keys[currentKID]?.expiredAt = Int(Date().timeIntervalSince1970)
        let key = Self.newKey()
        keys[key.kid] = key
        currentKID = key.kid
        return key.kid
    }

    /// The public half of `kid` as the spec's `JWKPublicKey` (coordinates base64url, no padding).
    func jwk(_ kid: String) -> PlaidJSON? {
        guard let key = keys[kid] else { return nil }
        let raw = key.privateKey.publicKey.rawRepresentation // x || y, 32 bytes each
        return .object([
            "alg": .string("ES256"), "crv": .string("P-256"), "kty": .string("EC"), "use": .string("sig"),
            "kid": .string(kid), "x": .string(WebhookJWT.base64URL(raw.prefix(32))),
            "y": .string(WebhookJWT.base64URL(raw.suffix(32))), "created_at": .number(String(key.createdAt)),
            "expired_at": key.expiredAt.map { .number(String($0)) } ?? .null,
        ])
    }

    private static func newKey() -> Key {
        Key(
            kid: UUID().uuidString.lowercased(), privateKey: P256.Signing.PrivateKey(),
            createdAt: Int(Date().timeIntervalSince1970), expiredAt: nil)
    }
}

/// The `Plaid-Verification` header Plaid sends with a webhook: a compact JWT (ES256) whose
/// payload carries `iat` and the hex SHA-256 of the exact body.
enum WebhookJWT {
    static func sign(body: Data, issuedAt: Date, key: WebhookKeys.Key) throws -> String {
        let header = PlaidJSON.object(["alg": .string("ES256"), "kid": .string(key.kid), "typ": .string("JWT")])
        let digest = SHA256.hash(data: body).map { String(format: "%02x", $0) }.joined()
        let payload = PlaidJSON.object([
            "iat": .number(String(Int(issuedAt.timeIntervalSince1970.rounded(.down)))),
            "request_body_sha256": .string(digest),
        ])
        let input = base64URL(Data(header.serialized().utf8)) + "." + base64URL(Data(payload.serialized().utf8))
        let signature = try key.privateKey.signature(for: Data(input.utf8))
        return input + "." + base64URL(signature.rawRepresentation)
    }

    static func base64URL<D: DataProtocol>(_ bytes: D) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
