import Foundation

/// A nearest-neighbour vote over the transactions' texts: each taught transaction is a TF-IDF
/// vector of its tokens (Chinese character bigrams, Latin words); a query's neighbours are the
/// taught vectors with the highest cosine similarity, and they vote for their accounts weighted
/// by similarity.
///
/// Why this and not a classifier that always answers: a merchant never taught shares few tokens
/// with any taught one, so its best similarity is low and the vote declines. Tokens the model has
/// never seen still count in the query's length, so an unknown text cannot look similar through
/// the one common word (`咖啡`) it shares with a taught one. Deterministic: ties broken by id.
struct TextClassifier: Sendable {
    struct Neighbour: Sendable { var id: Int64; var account: String; var similarity: Double }

    private var vocabulary: [UInt64: Int] = [:]
    private var idf: [Double] = []
    /// Token → (example, weight) postings.
    private var postings: [[(example: Int, weight: Double)]] = []
    private var exampleIDs: [Int64] = []
    private var exampleAccounts: [String] = []
    private var unseenIDF = 1.0

    var isEmpty: Bool { exampleIDs.isEmpty }

    /// `tokens` of each example sorted and unique (``tokens(_:)``).
    init(examples: [(id: Int64, account: String, tokens: [UInt64])]) {
        var df: [Int] = []
        var tokenIDs: [[Int]] = []
        for e in examples {
            var ids: [Int] = []
            for t in e.tokens {
                let id: Int
                if let known = vocabulary[t] { id = known } else { id = df.count; vocabulary[t] = id; df.append(0) }
                df[id] += 1
                ids.append(id)
            }
            tokenIDs.append(ids)
        }
        let n = Double(examples.count)
        idf = df.map { log((n + 1) / (Double($0) + 1)) + 1 }
        unseenIDF = log(n + 1) + 1
        postings = [[(example: Int, weight: Double)]](repeating: [], count: df.count)
        for (k, ids) in tokenIDs.enumerated() {
            let norm = sqrt(ids.reduce(0) { $0 + idf[$1] * idf[$1] })
            guard norm > 0 else { continue }
            for t in ids { postings[t].append((k, idf[t] / norm)) }
        }
        exampleIDs = examples.map(\.id)
        exampleAccounts = examples.map(\.account)
    }

    /// The `k` most similar taught transactions with similarity ≥ `minSimilarity`, most similar
    /// first (ties: lower id first). `tokens` sorted and unique, so every process sums in the same order.
    func neighbours(of tokens: [UInt64], k: Int, minSimilarity: Double) -> [Neighbour] {
        guard !tokens.isEmpty, !exampleIDs.isEmpty else { return [] }
        var known: [(Int, Double)] = []
        var normSquared = 0.0
        for t in tokens {
            if let id = vocabulary[t] {
                known.append((id, idf[id]))
                normSquared += idf[id] * idf[id]
            } else {
                normSquared += unseenIDF * unseenIDF
            }
        }
        guard !known.isEmpty else { return [] }
        let norm = sqrt(normSquared)
        var scores: [Int: Double] = [:]
        for (t, w) in known {
            let q = w / norm
            for p in postings[t] { scores[p.example, default: 0] += q * p.weight }
        }
        var out: [Neighbour] = []
        for (e, s) in scores where s >= minSimilarity {
            out.append(Neighbour(id: exampleIDs[e], account: exampleAccounts[e], similarity: min(s, 1)))
        }
        out.sort { $0.similarity != $1.similarity ? $0.similarity > $1.similarity : $0.id < $1.id }
        return Array(out.prefix(k))
    }

    /// The tokens of normalised texts (``PayeeNormalizer/words(_:)``), sorted and unique: each
    /// pair of neighbouring Chinese characters (a lone one as itself) and each Latin word, as
    /// 64-bit codes (a bigram's code is its two scalars; a word's is its FNV-1a hash).
    static func tokens(_ texts: [[PayeeNormalizer.Word]]) -> [UInt64] {
        var out: [UInt64] = []
        for words in texts {
            for w in words {
                if w.cjk {
                    if w.scalars.count == 1 { out.append(1 << 62 | UInt64(w.scalars[0])); continue }
                    for i in 0..<(w.scalars.count - 1) { out.append(1 << 63 | UInt64(w.scalars[i]) << 21 | UInt64(w.scalars[i + 1])) }
                } else {
                    var h: UInt64 = 0xcbf2_9ce4_8422_2325
                    for v in w.scalars { h = (h ^ UInt64(v)) &* 0x100_0000_01b3 }
                    out.append(h & (1 << 62 - 1))
                }
            }
        }
        out.sort()
        var unique: [UInt64] = []
        unique.reserveCapacity(out.count)
        for t in out where unique.last != t { unique.append(t) }
        return unique
    }
}
