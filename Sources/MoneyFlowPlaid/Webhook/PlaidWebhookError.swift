/// Why a webhook was refused. The server answers it with 4xx and logs the one-line `message`;
/// nothing in a refused webhook is acted on.
public struct PlaidWebhookError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: String, Sendable {
        case missingHeader, badJWT, wrongAlgorithm, unknownKey, badKey, expiredKey, badSignature, tooOld, fromTheFuture,
            bodyMismatch, notJSON
    }

    public let reason: Reason
    public let message: String

    init(_ reason: Reason, _ message: String) {
        self.reason = reason; self.message = message
    }

    public var description: String { "Plaid webhook refused: \(message)" }
}
