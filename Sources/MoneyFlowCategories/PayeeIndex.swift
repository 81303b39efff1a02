/// The user's decisions by payee key (``PayeeNormalizer``), answering "what did the user decide
/// for this payee, or for another branch of it?".
///
/// A query matches a taught key when the two are equal, or when one is a prefix of the other at a
/// word boundary and the shorter has at least `minPrefixLength` characters (`星巴克` covers
/// `星巴克咖啡`), except a taught prefix whose taught longer form the query contradicts (`美团`
/// taught beside `美团外卖` does not cover `美团买菜`). With `exactOnly` (people: `张三` is not `张三丰`)
/// only equal keys match.
struct PayeeIndex: Sendable {
    /// Account → ids of the decisions, per key.
    private var votes: [String: [String: [Int64]]] = [:]
    private var sortedKeys: [String] = []
    let exactOnly: Bool
    static let minPrefixLength = 2
    /// Keys scanned after a query's lower bound (a query that prefixes more keys is too vague).
    static let maxExtensions = 16

    init(exactOnly: Bool) { self.exactOnly = exactOnly }

    mutating func add(key: String, account: String, id: Int64) {
        guard !key.isEmpty else { return }
        votes[key, default: [:]][account, default: []].append(id)
    }

    /// Call after the last ``add(key:account:id:)``.
    mutating func seal() { sortedKeys = votes.keys.sorted() }

    /// The taught keys `key` matches and the merged votes (account → decision ids), or nil.
    func lookup(_ key: String) -> (keys: [String], votes: [String: [Int64]])? {
        guard !key.isEmpty else { return nil }
        if let v = votes[key] { return ([key], v) }
        if exactOnly { return nil }
        var matched: [String] = []
        // Taught keys that are a prefix of the query, unless the user taught a longer form of that
        // prefix that the query contradicts: with `美团外卖` taught, `美团` does not cover `美团买菜`.
        let chars = Array(key.unicodeScalars)
        if chars.count > Self.minPrefixLength {
            for n in Self.minPrefixLength..<chars.count where Self.isBoundary(chars, at: n) {
                let prefix = String(String.UnicodeScalarView(chars[0..<n]))
                guard votes[prefix] != nil else { continue }
                let contradicted = extensions(of: prefix).contains { $0 != prefix && !key.hasPrefix($0) && !$0.hasPrefix(key) }
                if !contradicted { matched.append(prefix) }
            }
        }
        // Taught keys the query is a prefix of.
        if chars.count >= Self.minPrefixLength {
            for k in extensions(of: key) where Self.isBoundary(Array(k.unicodeScalars), at: chars.count) { matched.append(k) }
        }
        guard !matched.isEmpty else { return nil }
        var merged: [String: [Int64]] = [:]
        for k in matched { for (account, ids) in votes[k]! { merged[account, default: []].append(contentsOf: ids) } }
        return (matched.sorted(), merged)
    }

    /// Taught keys starting with `prefix` (itself included), at most ``maxExtensions``.
    private func extensions(of prefix: String) -> [String] {
        var lo = 0, hi = sortedKeys.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if sortedKeys[mid] < prefix { lo = mid + 1 } else { hi = mid }
        }
        var out: [String] = []
        var i = lo
        while i < sortedKeys.count, out.count < Self.maxExtensions, sortedKeys[i].hasPrefix(prefix) {
            out.append(sortedKeys[i])
            i += 1
        }
        return out
    }

    /// A prefix of `n` characters ends a word: between two Chinese characters, or before a space.
    static func isBoundary(_ chars: [Unicode.Scalar], at n: Int) -> Bool {
        guard n > 0, n < chars.count else { return n == chars.count }
        if chars[n] == " " { return true }
        return PayeeNormalizer.isCJK(chars[n - 1].value) && PayeeNormalizer.isCJK(chars[n].value)
    }
}
