import Foundation

/// Slows down password guessing on the sign-in page: failed attempts are counted per client
/// address and per user name over a sliding window; past either limit, sign-in is refused
/// (before any password is checked) until old failures leave the window. A success clears
/// the name's count (a person who mistyped once is not held back later).
actor SignInThrottle {
    struct Limits: Sendable {
        var perAddress = 20
        var perName = 5
        var window: TimeInterval = 15 * 60
    }

    let limits: Limits
    private var failures: [String: [Date]] = [:]

    init(limits: Limits = Limits()) { self.limits = limits }

    /// How long the caller must wait before trying again; nil when it may try now.
    func retryAfter(address: String, name: String, now: Date = Date()) -> TimeInterval? {
        let waits = [(Self.addressKey(address), limits.perAddress), (Self.nameKey(name), limits.perName)].compactMap { key, limit in
            let recent = prune(key, now: now)
            return recent.count >= limit ? recent[recent.count - limit].addingTimeInterval(limits.window).timeIntervalSince(now) : nil
        }
        return waits.max().map { max($0, 1) }
    }

    func failed(address: String, name: String, now: Date = Date()) {
        // Guessing many names must not grow the table without end: stale keys go first.
        if failures.count > 10_000 {
            failures = failures.filter { now.timeIntervalSince($0.value.last ?? .distantPast) < limits.window }
        }
        for key in [Self.addressKey(address), Self.nameKey(name)] {
            failures[key, default: []].append(now)
        }
    }

    func succeeded(name: String) { failures[Self.nameKey(name)] = nil }

    private func prune(_ key: String, now: Date) -> [Date] {
        let recent = (failures[key] ?? []).filter { now.timeIntervalSince($0) < limits.window }
        failures[key] = recent.isEmpty ? nil : recent
        return recent
    }

    private static func addressKey(_ a: String) -> String { "ip:" + a }
    private static func nameKey(_ n: String) -> String { "user:" + n.lowercased() }
}
