import Crypto
import Foundation

/// The verified webhook JWTs seen while they could still be accepted, by their SHA-256, so a
/// captured webhook cannot be played again inside its five minutes.
///
/// Why: a JWT is valid for ``PlaidWebhookVerifier/maxSkew`` after its `iat`; each genuine copy
/// would start a sync and hold its user's writing slot. Plaid signs every delivery anew (its
/// retries carry a new `iat`), so a JWT seen twice is a replay. Only JWTs that passed every
/// other check are remembered, and each is forgotten once its `iat` is out of the window, so
/// the set holds at most the genuine webhooks of ten minutes.
struct WebhookReplayWindow: Sendable {
    private var seen: [String: Int64] = [:]

    /// Records the signed part of a JWT (`header.payload`) issued at `iat`; false when it was
    /// recorded already (a replay).
    mutating func firstSight(of signed: Data, issuedAt iat: Int64, now: Date, window: TimeInterval) -> Bool {
        let cutoff = Int64(now.timeIntervalSince1970 - window)
        seen = seen.filter { $0.value >= cutoff }
        let digest = SHA256.hash(data: signed).map { String(format: "%02x", $0) }.joined()
        guard seen[digest] == nil else { return false }
        seen[digest] = iat
        return true
    }

    var count: Int { seen.count }
}
