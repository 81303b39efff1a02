import Foundation

/// How long to wait before trying a Plaid call again, and how often: bounded exponential backoff
/// with jitter, in one place for every endpoint.
///
/// Plaid's rate limits are counted per minute (`/transactions/sync`: 50 per item) and it sends
/// no Retry-After, so a rate-limited call waits longer (from ``rateLimitBaseDelay``) than one that
/// met a 5xx or an institution outage. Jitter (50-100 % of the step) keeps many items or cron
/// jobs from retrying in lockstep. The total wait is bounded: at most ``maxAttempts`` tries,
/// no single wait above ``maxDelay``.
public struct RetryPolicy: Sendable {
    public var maxAttempts: Int
    public var baseDelay: Duration
    public var rateLimitBaseDelay: Duration
    public var maxDelay: Duration

    public init(
        maxAttempts: Int = 6, baseDelay: Duration = .seconds(1), rateLimitBaseDelay: Duration = .seconds(15),
        maxDelay: Duration = .seconds(60)
    ) {
        self.maxAttempts = maxAttempts; self.baseDelay = baseDelay; self.rateLimitBaseDelay = rateLimitBaseDelay
        self.maxDelay = maxDelay
    }

    /// `MONEYFLOW_PLAID_BACKOFF_MS` sets the base step in milliseconds (default 1000); the
    /// rate-limit step and the cap scale with it (15x and 60x). Tests and impatient users on a
    /// proxy set it low; the number of attempts stays the same.
    public static func fromEnvironment(_ env: [String: String] = ProcessInfo.processInfo.environment) -> RetryPolicy {
        guard let text = env["MONEYFLOW_PLAID_BACKOFF_MS"], let ms = Int(text), ms >= 0, ms <= 60_000 else { return RetryPolicy() }
        return RetryPolicy(
            baseDelay: .milliseconds(ms), rateLimitBaseDelay: .milliseconds(ms * 15), maxDelay: .milliseconds(ms * 60))
    }

    /// The wait before retry number `attempt` (1 = the first retry); `unit` is a random number in
    /// 0..<1 (injected so the schedule is testable).
    public func delay(attempt: Int, rateLimited: Bool, unit: Double) -> Duration {
        let base = rateLimited ? rateLimitBaseDelay : baseDelay
        var step = base
        for _ in 1..<max(1, attempt) where step < maxDelay { step = step * 2 }
        if step > maxDelay { step = maxDelay }
        return step * (0.5 + 0.5 * min(max(unit, 0), 1))
    }
}
