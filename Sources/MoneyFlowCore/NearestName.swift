/// "Did you mean" for names the user typed: a misspelt manifest key, subcommand or account.
public enum NearestName {
    /// The candidate closest to `word` by edit distance (case-insensitive), when it is close
    /// enough to be a plausible typo: at most 2 edits, and fewer than half the word's length.
    public static func nearest(_ word: String, in candidates: [String]) -> String? {
        let w = Array(word.lowercased())
        var best: (name: String, distance: Int)?
        for c in candidates {
            let d = distance(w, Array(c.lowercased()))
            if d < (best?.distance ?? Int.max) { best = (c, d) }
        }
        guard let best, best.distance <= 2, best.distance * 2 < max(w.count, 2) else { return nil }
        return best.name
    }

    /// `" (did you mean 'x'?)"`, or empty when nothing is close.
    public static func hint(_ word: String, in candidates: [String]) -> String {
        nearest(word, in: candidates).map { " (did you mean '\($0)'?)" } ?? ""
    }

    /// Levenshtein distance, with a swap of two neighbouring characters counted as one edit.
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        return d[a.count][b.count]
    }
}
