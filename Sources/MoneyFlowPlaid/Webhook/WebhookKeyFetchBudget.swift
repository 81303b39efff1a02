import Foundation

/// How often the webhook endpoint may ask Plaid for a verification key: a token bucket shared
/// by every webhook, whoever sent it.
///
/// Why: the webhook endpoint is anonymous, and a JWT naming an unknown `kid` is the one thing
/// that makes it call Plaid. Without a global bound, anyone who can reach the server turns each
/// request into an outbound call (and, under Plaid's 429s, into several). Plaid rotates keys
/// rarely, so a handful of fetches per hour is plenty; a webhook refused for want of budget is
/// answered 503, and Plaid sends it again later.
public struct WebhookKeyFetchBudget: Sendable {
    /// Fetches allowed at once after a quiet period.
    public var burst: Int
    /// Time for one more fetch to be allowed.
    public var refill: TimeInterval
    private var tokens: Double
    private var updated: Date?

    public init(burst: Int = 3, refill: TimeInterval = 60) {
        self.burst = max(1, burst); self.refill = max(0.001, refill)
        tokens = Double(self.burst)
    }

    /// Takes one fetch from the budget; false when none is left at `now`.
    public mutating func take(at now: Date) -> Bool {
        if let updated {
            let earned = max(0, now.timeIntervalSince(updated)) / refill
            tokens = min(Double(burst), tokens + earned)
        }
        updated = now
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }

    /// Seconds until the next fetch is allowed (0 when one is allowed now): the `Retry-After`.
    public func wait(at now: Date) -> TimeInterval {
        let earned = updated.map { max(0, now.timeIntervalSince($0)) / refill } ?? 0
        let have = min(Double(burst), tokens + earned)
        return have >= 1 ? 0 : (1 - have) * refill
    }
}
