/// Suggests the valid key a misspelt one was probably meant to be.
public enum KeySuggestion {
    /// The valid key with the smallest edit distance, when it is close enough to be a typo
    /// (at most a third of the key's length, at least 2).
    public static func nearest(to key: String, in valid: [String]) -> String? {
        let scored = valid.map { ($0, distance(Array(key.lowercased()), Array($0))) }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        return best.1 <= max(2, key.count / 3) ? best.0 : nil
    }

    /// Levenshtein distance.
    public static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        var prev = Array(0...b.count)
        for i in 1...a.count {
            var cur = [i] + Array(repeating: 0, count: b.count)
            for j in stride(from: 1, through: b.count, by: 1) {
                cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            prev = cur
        }
        return prev[b.count]
    }
}
