import Foundation

/// Identifiers shaped like Plaid's: item, account and transaction ids are 37 random base62
/// characters (case-sensitive, so a client that lower-cases them breaks here as it would at
/// Plaid); tokens are `<kind>-sandbox-<uuid>`; request ids 15 base62 characters.
enum Identifiers {
    private static let base62 = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")

    static func base62(_ length: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return String((0..<length).map { _ in base62[Int(generator.next(upperBound: UInt64(base62.count)))] })
    }

    static func objectID() -> String { base62(37) }
    static func requestID() -> String { base62(15) }
    static func accessToken() -> String { "access-sandbox-" + UUID().uuidString.lowercased() }
    static func publicToken() -> String { "public-sandbox-" + UUID().uuidString.lowercased() }
    static func linkToken() -> String { "link-sandbox-" + UUID().uuidString.lowercased() }

    /// ISO 8601 UTC with seconds, as Plaid writes timestamps (`2026-11-24T09:56:17Z`).
    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }
}
