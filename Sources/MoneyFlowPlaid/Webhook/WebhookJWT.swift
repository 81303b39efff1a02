import Crypto
import Foundation

/// The `Plaid-Verification` header, split but not yet trusted: a compact JWS
/// (`base64url(header).base64url(payload).base64url(signature)`). Nothing read here is believed
/// before ``PlaidWebhookVerifier`` has checked the signature over `signingInput`.
struct WebhookJWT {
    struct Header: Decodable {
        var alg: String
        var kid: String
    }

    struct Payload: Decodable {
        var iat: Int64
        var request_body_sha256: String
    }

    let header: Header
    let payload: Payload
    /// `header.payload` exactly as received: what the signature covers.
    let signingInput: Data
    let signature: Data

    /// A real header is well under 1 KiB; anything much larger is refused before decoding.
    static let maxLength = 8192

    init(_ text: String) throws {
        guard text.utf8.count <= Self.maxLength else { throw Self.bad("longer than \(Self.maxLength) bytes") }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw Self.bad("\(parts.count) parts instead of 3") }
        guard let headerBytes = Self.base64URL(parts[0]), let payloadBytes = Self.base64URL(parts[1]),
            let signature = Self.base64URL(parts[2])
        else { throw Self.bad("a part is not base64url") }
        do { header = try JSONDecoder().decode(Header.self, from: headerBytes) } catch {
            throw Self.bad("header: \(PlaidClient.describe(error))")
        }
        do { payload = try JSONDecoder().decode(Payload.self, from: payloadBytes) } catch {
            throw Self.bad("payload: \(PlaidClient.describe(error))")
        }
        // Plaid's kids are UUIDs; anything else is refused before it reaches a log or a request.
        guard (1...128).contains(header.kid.utf8.count),
            header.kid.unicodeScalars.allSatisfy({
                $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "-_.".unicodeScalars.contains($0))
            })
        else { throw Self.bad("kid is not 1-128 letters, digits, '-', '_' or '.'") }
        signingInput = Data("\(parts[0]).\(parts[1])".utf8)
        self.signature = signature
    }

    private static func bad(_ detail: String) -> PlaidWebhookError {
        PlaidWebhookError(.badJWT, "the Plaid-Verification header is not a JWT (\(detail))")
    }

    /// Unpadded base64url (RFC 7515 §2), as JWTs and JWKs write bytes; nil for anything else.
    static func base64URL<S: StringProtocol>(_ text: S) -> Data? {
        guard !text.contains("=") else { return nil }
        var s = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        if s.count % 4 == 1 { return nil }
        s += String(repeating: "=", count: (4 - s.count % 4) % 4)
        return Data(base64Encoded: s)
    }
}

/// A webhook verification key from `/webhook_verification_key/get` (the spec's `JWKPublicKey`).
struct WebhookKey: Sendable {
    let publicKey: P256.Signing.PublicKey
    /// Unix time; set once Plaid has rotated the key out.
    let expiredAt: Int64?

    /// Reads the response body; only an EC P-256 signing key for ES256 is accepted.
    init(response: Data, kid: String) throws {
        struct Response: Decodable { var key: JWK }
        struct JWK: Decodable {
            var kty: String
            var crv: String
            var alg: String?
            var kid: String
            var x: String
            var y: String
            var expired_at: Int64?
        }
        let jwk: JWK
        do { jwk = try JSONDecoder().decode(Response.self, from: response).key } catch {
            throw PlaidWebhookError(.badKey, "the verification key Plaid sent for \(kid) is unreadable (\(PlaidClient.describe(error)))")
        }
        guard jwk.kid == kid else { throw PlaidWebhookError(.badKey, "Plaid sent key \(jwk.kid) when asked for \(kid)") }
        guard jwk.kty == "EC", jwk.crv == "P-256", jwk.alg == nil || jwk.alg == "ES256" else {
            throw PlaidWebhookError(.badKey, "key \(kid) is \(jwk.kty)/\(jwk.crv)/\(jwk.alg ?? "-"), not an ES256 P-256 key")
        }
        guard let x = WebhookJWT.base64URL(jwk.x), let y = WebhookJWT.base64URL(jwk.y), x.count == 32, y.count == 32,
            let key = try? P256.Signing.PublicKey(rawRepresentation: x + y)
        else { throw PlaidWebhookError(.badKey, "key \(kid) is not a point on P-256") }
        publicKey = key
        expiredAt = jwk.expired_at
    }
}
