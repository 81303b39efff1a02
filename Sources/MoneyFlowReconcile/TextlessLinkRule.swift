import MoneyFlowCore

/// When amount and date alone may link: the one place that decides whether a pair whose
/// texts share nothing is evidence or a guess (README "How the engine decides").
///
/// Text never pairs records on its own, but it is the only thing that tells two purchases of
/// the same amount a day apart at different merchants (`SAFEWAY` on the statement, `WHOLEFDS`
/// in the feed, each one's partner missing) from one purchase seen twice. A pair without any
/// text evidence is therefore not linked; it goes to review, unless evidence other than text
/// carries it:
/// - the provider ids agree, or
/// - the dates are exactly equal AND the amount is unique on both sides within
///   ``uniqueAmountWindowDays`` (no other record or transaction of that amount anywhere near:
///   nothing it could be confused with), or
/// - the two texts are a learned alias: at least ``aliasConfirmations`` other pairs of the
///   same import with exactly these two texts (as token sets) are carried by the evidence
///   above. A bank prints a legal entity (`拉扎斯网络科技（上海）有限公司`) or a descriptor
///   (`AMZN MKTP US`) where the feed names the brand (`饿了么`, `Amazon`): independent
///   exact-date, unique-amount pairs show that these texts name the same merchant.
///
/// Not used as evidence: a running balance. Only bank statements carry one and the feeds they
/// are paired with do not, so a balance cannot confirm a pairing across sources; within a
/// statement it checks completeness (the importers' balance chains), not identity.
enum TextlessLinkRule {
    /// Below this similarity (0...1, rare tokens weigh more) the texts count as sharing
    /// nothing: no token in common, or only tokens so common in the import that they weigh
    /// next to nothing. One shared merchant word ("星巴克" in "星巴克企业管理（中国）有限公司")
    /// scores far above.
    static let textEvidenceFloor = 0.1
    /// Days on either side of the row's date in which its amount must be unique (among the
    /// incoming rows and among the stored transactions) for an exact-date pair to stand
    /// without text: three and a half matching windows, half a month.
    static let uniqueAmountWindowDays = 14
    /// Distinct carried pairs (other rows and other transactions) that make two texts an alias.
    /// One is enough: a carried pair is already a same-day pair with an amount found nowhere
    /// else for two weeks, and only pairs of exactly the same two texts learn from it. Two
    /// cost the CMB scenario with weekly feed pages recall 0.846 instead of 0.923, at no
    /// precision gain (1.0 either way).
    static let aliasConfirmations = 1
}

extension MatchGroup {
    /// True when pair `p` has no text evidence and nothing else carries it: review, not link.
    /// (A posted record replacing a pending one the provider removed in the same update is
    /// carried by the provider's own lifecycle and has its own rule.)
    func isGuess(_ p: MatchPair) -> Bool {
        guard p.replacement < 0, p.sim < TextlessLinkRule.textEvidenceFloor, !p.externalIDAgrees, p.aliasConfirmations == 0 else { return false }
        return !carried(p)
    }

    /// Amount and date alone stand for the pair (see ``TextlessLinkRule``).
    func carried(_ p: MatchPair) -> Bool { p.exactDate && amountUnique[Int(p.row)] }

    /// Marks the textless pairs whose two texts other carried pairs of this group confirm as
    /// an alias (``TextlessLinkRule/aliasConfirmations``). The key is the unordered pair of
    /// token sets, so it does not depend on which side is being imported.
    mutating func learnAliases() {
        func text(_ ids: [Int32]) -> String { ids.map { tokens.strings[Int($0)] }.sorted().joined(separator: " ") }
        var keys: [Int: String] = [:]
        var confirmed: [String: (rows: Set<Int32>, cols: Set<Int32>)] = [:]
        for (k, p) in pairs.enumerated() where p.replacement < 0 && p.sim < TextlessLinkRule.textEvidenceFloor {
            let a = text(rowTokens[Int(p.row)]), b = text(colTokens[Int(p.col)] ?? [])
            guard !a.isEmpty, !b.isEmpty else { continue }
            let key = a < b ? a + "\u{1}" + b : b + "\u{1}" + a
            keys[k] = key
            if p.externalIDAgrees || carried(p) {
                confirmed[key, default: ([], [])].rows.insert(p.row)
                confirmed[key, default: ([], [])].cols.insert(p.col)
            }
        }
        for (k, key) in keys {
            guard let c = confirmed[key] else { continue }
            let p = pairs[k]
            // Other confirmations only: never the pair's own row or transaction.
            let n = min(c.rows.subtracting([p.row]).count, c.cols.subtracting([p.col]).count)
            if n >= TextlessLinkRule.aliasConfirmations { pairs[k].aliasConfirmations = Int32(n) }
        }
    }

    /// Per row: its amount occurs on no other row and on at most one stored transaction within
    /// ``TextlessLinkRule/uniqueAmountWindowDays`` of its date (the one it may pair with).
    /// Counts every live transaction, whatever supports it, so the answer does not depend on
    /// which side was imported first.
    func uniqueAmounts(index x: CandidateIndex) -> [Bool] {
        let w = TextlessLinkRule.uniqueAmountWindowDays
        // Days per amount, sorted, on each side: a count in a window is two binary searches
        // (a daily same-price coffee must not make this quadratic).
        var rowDays: [Int64: [Int]] = [:], candDays: [Int64: [Int]] = [:]
        for (row, i) in idx.enumerated() { rowDays[records[i].amount.minorUnits, default: []].append(rowDay[row]) }
        for k in rowDays.keys { rowDays[k]!.sort() }
        for (amount, range) in x.bucket {
            var days: [Int] = []
            for k in range { days.append(x.candDay[x.order[k]]) }
            candDays[amount] = days.sorted()
        }
        var out = [Bool](repeating: false, count: idx.count)
        for row in idx.indices {
            let amount = records[idx[row]].amount.minorUnits, day = rowDay[row]
            let rowsNear = Self.countWithin(rowDays[amount] ?? [], day - w, day + w)
            let transactionsNear = Self.countWithin(candDays[amount] ?? [], day - w, day + w)
            out[row] = rowsNear == 1 && transactionsNear <= 1
        }
        return out
    }

    /// How many values of sorted `a` lie in `lo...hi`.
    static func countWithin(_ a: [Int], _ lo: Int, _ hi: Int) -> Int {
        func firstAtLeast(_ v: Int) -> Int {
            var l = 0, h = a.count
            while l < h { let m = (l + h) / 2; if a[m] < v { l = m + 1 } else { h = m } }
            return l
        }
        return firstAtLeast(hi + 1) - firstAtLeast(lo)
    }
}
