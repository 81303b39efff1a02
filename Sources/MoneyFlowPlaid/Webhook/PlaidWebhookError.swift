/// Why a webhook was refused. The server answers it with 4xx (``Reason/throttled``: 503, so
/// Plaid sends it again later) and logs the one-line `message`; nothing in a refused webhook is
/// acted on.
public struct PlaidWebhookError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: String, Sendable {
        case missingHeader, badJWT, wrongAlgorithm, unknownKey, badKey, expiredKey, badSignature, tooOld, fromTheFuture,
            bodyMismatch, notJSON
        /// The same signed JWT came a second time within its window.
        case replayed
        /// The key is not cached and no key fetch is allowed now (see ``WebhookKeyFetchBudget``).
        case throttled
    }

    public let reason: Reason
    public let message: String
    /// Seconds after which sending again may succeed (``Reason/throttled`` only).
    public let retryAfter: Int?

    init(_ reason: Reason, _ message: String, retryAfter: Int? = nil) {
        self.reason = reason; self.message = message; self.retryAfter = retryAfter
    }

    public var description: String { "Plaid webhook refused: \(message)" }
}
