import Foundation

/// Interned text tokens for one planning run: every distinct token (see
/// ``TextSimilarity/tokens(_:)``) gets a small integer, every text a sorted array of them, and
/// every token an informativeness weight (inverse document frequency over the texts seen), so
/// a shared merchant name counts for much more than a shared city.
///
/// Built for throughput: ASCII text (most bank and provider text) is tokenised byte by byte
/// without Unicode folding; other text goes through ``TextSimilarity/tokens(_:)``.
struct TokenTable {
    private var ids: [String: Int32] = [:]
    private(set) var strings: [String] = []
    /// First four characters of each token (interned) for tokens of 4+ characters, else -1:
    /// the prefix rule (`starbucks` vs `starbucks0123`) only looks at tokens sharing one.
    private var prefix4: [Int32] = []
    private var prefixIDs: [String: Int32] = [:]
    /// Number of texts (documents) each token occurs in, and the number of texts counted.
    private var documentFrequency: [Int32] = []
    private var documents = 0
    /// Weight per token, valid after ``finishWeights()``.
    private(set) var weight: [Double] = []

    /// Tokens of each distinct text seen (descriptions repeat: same merchants, same stores).
    private var cache: [String: [Int32]] = [:]

    /// Sorted, distinct token ids of `text` and `more` (e.g. description and counterparty)
    /// read as one text; counts it as one document.
    mutating func add(_ text: String, _ more: String? = nil) -> [Int32] {
        let out = tokens(of: text, more)
        count(out, documents: 1)
        return out
    }

    /// Sorted, distinct token ids of `text` and `more` read as one text, without counting a
    /// document. Tokens new to the table get ids in the order they occur (`text` first).
    mutating func tokens(of text: String, _ more: String?) -> [Int32] {
        var out = tokens(of: text)
        if let more, !more.isEmpty {
            let b = tokens(of: more)
            if !b.isEmpty { out = Self.union(out, b) }
        }
        return out
    }

    /// Counts `n` documents that hold exactly `tokens` (distinct ids).
    mutating func count<S: Sequence<Int32>>(_ tokens: S, documents n: Int) {
        for t in tokens { documentFrequency[Int(t)] += Int32(n) }
        documents += n
    }

    private mutating func tokens(of part: String) -> [Int32] {
        if let hit = cache[part] { return hit }
        var out: [Int32] = []
        if part.utf8.allSatisfy({ $0 < 0x80 }) {
            asciiTokens(part, into: &out)
        } else {
            // A `Set`'s order changes from process to process (seeded hashing): new tokens are
            // given ids in sorted order, so the ids, and the order scores are summed in, do not.
            for t in TextSimilarity.tokens(part).sorted() { out.append(intern(t)) }
        }
        out.sort()
        var w = 0
        for (k, t) in out.enumerated() where k == 0 || t != out[k - 1] { out[w] = t; w += 1 }
        out.removeLast(out.count - w)
        cache[part] = out
        return out
    }

    static func union(_ a: [Int32], _ b: [Int32]) -> [Int32] {
        var out: [Int32] = []
        out.reserveCapacity(a.count + b.count)
        var i = 0, j = 0
        while i < a.count || j < b.count {
            if j == b.count || (i < a.count && a[i] < b[j]) {
                out.append(a[i]); i += 1
            } else if i == a.count || b[j] < a[i] {
                out.append(b[j]); j += 1
            } else {
                out.append(a[i]); i += 1; j += 1
            }
        }
        return out
    }

    /// Computes token weights from the document frequencies: ln((N + 10) / df), so a token
    /// present in every text still weighs a little and small samples stay near uniform.
    mutating func finishWeights() {
        let n = Double(documents + 10)
        weight = documentFrequency.map { log(n / Double(max(1, $0))) }
    }

    /// The weights of `tokens` summed in their order (sorted ids: the order fixes the sum to the last bit).
    func totalWeight<S: Sequence<Int32>>(_ tokens: S) -> Double {
        var s = 0.0
        for t in tokens { s += weight[Int(t)] }
        return s
    }

    /// Weighted overlap coefficient of two sorted token lists (0...1): shared weight over the
    /// lighter side's weight, so a clean merchant name contained in raw bank text scores 1.
    /// With nothing shared, a token that is a prefix of the other side's (4+ characters)
    /// scores 0.5.
    func similarity<A: RandomAccessCollection<Int32>, B: RandomAccessCollection<Int32>>(
        _ a: A, _ wa: Double, _ b: B, _ wb: Double
    ) -> Double {
        guard !a.isEmpty, !b.isEmpty else { return 0 }
        var i = a.startIndex, j = b.startIndex, shared = 0.0
        while i < a.endIndex && j < b.endIndex {
            let x = a[i], y = b[j]
            if x == y {
                shared += weight[Int(x)]; a.formIndex(after: &i); b.formIndex(after: &j)
            } else if x < y { a.formIndex(after: &i) } else { b.formIndex(after: &j) }
        }
        if shared > 0 { return min(1, shared / min(wa, wb)) }
        for x in a where prefix4[Int(x)] >= 0 {
            for y in b where prefix4[Int(y)] == prefix4[Int(x)] {
                let sx = strings[Int(x)], sy = strings[Int(y)]
                if sx.hasPrefix(sy) || sy.hasPrefix(sx) { return 0.5 }
            }
        }
        return 0
    }

    /// The id of `token`, a new one (the next) when the table has not seen it.
    mutating func intern(_ token: String) -> Int32 {
        if let id = ids[token] { return id }
        let id = Int32(strings.count)
        ids[token] = id
        strings.append(token)
        documentFrequency.append(0)
        if token.count >= 4 {
            let p = String(token.prefix(4))
            if let q = prefixIDs[p] {
                prefix4.append(q)
            } else {
                let q = Int32(prefixIDs.count)
                prefixIDs[p] = q
                prefix4.append(q)
            }
        } else {
            prefix4.append(-1)
        }
        return id
    }

    /// ASCII fast path with exactly the rules of ``TextSimilarity/tokens(_:)``: words of
    /// letters and digits, lowercased, at least two characters, not a stopword, less than half
    /// digits.
    private mutating func asciiTokens(_ text: String, into out: inout [Int32]) {
        var word: [UInt8] = []
        word.reserveCapacity(32)
        func flush(_ word: inout [UInt8], _ table: inout TokenTable) {
            defer { word.removeAll(keepingCapacity: true) }
            guard word.count >= 2 else { return }
            var digits = 0
            for b in word where b >= 0x30 && b <= 0x39 { digits += 1 }
            guard digits * 2 < word.count else { return }
            let s = String(decoding: word, as: UTF8.self)
            guard !TextSimilarity.stopwords.contains(s) else { return }
            out.append(table.intern(s))
        }
        for var b in text.utf8 {
            let isDigit = b >= 0x30 && b <= 0x39
            let isUpper = b >= 0x41 && b <= 0x5A
            let isLower = b >= 0x61 && b <= 0x7A
            if isUpper { b += 0x20 }
            if isDigit || isUpper || isLower { word.append(b) } else if !word.isEmpty { flush(&word, &self) }
        }
        if !word.isEmpty { flush(&word, &self) }
    }
}
