import Foundation

/// A failure injected by `failNext`: the next `remaining` matching requests fail with `kind`.
struct FailureRule: Sendable {
    let path: String
    /// Nil: any request to `path`.
    let itemID: String?
    var remaining: Int
    let kind: InjectedFailure

    func error(for path: String) -> PlaidAPIError {
        switch kind {
        case .rateLimit: return .rateLimit(RateLimiter.limits[path]?.code ?? "RATE_LIMIT")
        case .internalError: return .internalServerError
        case .institutionDown: return .institutionDown
        case .institutionNotResponding: return .institutionNotResponding
        }
    }
}

/// Plaid's documented Sandbox per-item rate limits (plaid.com/docs/errors/rate-limit-exceeded/,
/// LIVE_API.md §1.4), over a sliding minute. A refused request does not count.
struct RateLimiter: Sendable {
    static let limits: [String: (perMinute: Int, code: String)] = [
        "/transactions/sync": (50, "TRANSACTIONS_SYNC_LIMIT"),
        "/transactions/refresh": (2, "TRANSACTIONS_REFRESH_LIMIT"),
        "/accounts/get": (100, "ACCOUNTS_LIMIT"),
        "/item/get": (40, "ITEM_GET_LIMIT"),
        // Plaid documents the limit but no dedicated error code for /item/remove.
        "/item/remove": (100, "RATE_LIMIT"),
    ]

    var enabled = true
    private var hits: [String: [Date]] = [:]

    /// Counts the request, or answers the 429 Plaid would.
    mutating func admit(path: String, itemID: String, now: Date = Date()) -> PlaidAPIError? {
        guard enabled, let limit = Self.limits[path] else { return nil }
        let key = path + " " + itemID
        var recent = (hits[key] ?? []).filter { now.timeIntervalSince($0) < 60 }
        defer { hits[key] = recent }
        guard recent.count < limit.perMinute else { return .rateLimit(limit.code) }
        recent.append(now)
        return nil
    }
}
