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
///   ``Scoring/uniqueAmountWindowDays`` (no other record or transaction of that amount anywhere near:
///   nothing it could be confused with), or
/// - the two texts are a learned alias: at least ``Scoring/aliasConfirmations`` other pairs with
///   exactly these two texts (as token sets) are carried by the evidence above, in the same
///   import or as transactions the ledger already confirmed (``AliasLedgerView``: links that
///   say `carried`, or a user's link). A bank prints a legal entity (`拉扎斯网络科技（上海）有限公司`) or a descriptor
///   (`AMZN MKTP US`) where the feed names the brand (`饿了么`, `Amazon`): independent
///   exact-date, unique-amount pairs show that these texts name the same merchant.
///
/// Not used as evidence: a running balance. Only bank statements carry one and the feeds they
/// are paired with do not, so a balance cannot confirm a pairing across sources; within a
/// statement it checks completeness (the importers' balance chains), not identity.
enum TextlessLinkRule {
    // Its thresholds are in ``Scoring``: textEvidenceFloor, uniqueAmountWindowDays, aliasConfirmations.
}

extension MatchGroup {
    /// True when pair `p` has no text evidence and nothing else carries it: review, not link.
    /// (A posted record replacing a pending one the provider removed in the same update is
    /// carried by the provider's own lifecycle and has its own rule.)
    func isGuess(_ p: MatchPair) -> Bool {
        guard p.replacement < 0, p.sim < Scoring.textEvidenceFloor, !p.externalIDAgrees, p.aliasConfirmations == 0 else { return false }
        return !carried(p)
    }

    /// Amount and date alone stand for the pair (see ``TextlessLinkRule``).
    func carried(_ p: MatchPair) -> Bool { p.exactDate && amountUnique[Int(p.row)] }

    /// Marks the textless pairs whose two texts other carried pairs confirm as an alias
    /// (``Scoring/aliasConfirmations``): carried pairs of this group, and the
    /// ledger's confirmed transactions (``AliasLedgerView``) that `ledger` returns, asked only
    /// when some textless pair is neither carried nor confirmed within the import. The key is
    /// the unordered pair of token sets, so it does not depend on which side is being imported.
    mutating func learnAliases(ledger: () throws -> [ConfirmedPairing] = { [] }) rethrows {
        var keys: [Int: String] = [:]
        var confirmed: [String: (rows: Set<Int32>, cols: Set<Int32>)] = [:]
        for (k, p) in pairs.enumerated() where p.replacement < 0 && p.sim < Scoring.textEvidenceFloor {
            guard let key = Self.aliasKey(rowTokens[Int(p.row)], colTokens[Int(p.col)] ?? [], tokens) else { continue }
            keys[k] = key
            if p.externalIDAgrees || carried(p) {
                confirmed[key, default: ([], [])].rows.insert(p.row)
                confirmed[key, default: ([], [])].cols.insert(p.col)
            }
        }
        // Other confirmations only: never the pair's own row or transaction.
        var inImport: [Int: Int] = [:]
        var unanswered = false
        for (k, key) in keys {
            let p = pairs[k]
            let c = confirmed[key]
            let n = c.map { min($0.rows.subtracting([p.row]).count, $0.cols.subtracting([p.col]).count) } ?? 0
            inImport[k] = n
            if n < Scoring.aliasConfirmations && !p.externalIDAgrees && !carried(p) { unanswered = true }
        }
        // Each confirmed transaction of the ledger counts as one more carried pair (a row and a
        // column of its own).
        var stored: [String: Set<Int64>] = [:]
        if unanswered {
            var scratch = TokenTable()
            for c in try ledger() {
                let bank = scratch.add(c.bankDescription, c.bankCounterparty)
                let provider = scratch.add(c.providerDescription, c.providerCounterparty)
                guard let key = Self.aliasKey(bank, provider, scratch) else { continue }
                stored[key, default: []].insert(c.transactionID)
            }
        }
        for (k, key) in keys {
            let p = pairs[k]
            let fromLedger = stored[key].map { $0.subtracting([candidates[Int(p.col)].id]).count } ?? 0
            let n = inImport[k]! + fromLedger
            if n >= Scoring.aliasConfirmations {
                pairs[k].aliasConfirmations = Int32(n)
                pairs[k].aliasFromLedger = Int32(fromLedger)
            }
        }
    }

    /// The alias key of two texts given as token ids of `table`: the unordered pair of their
    /// token sets; nil when either text has no token.
    static func aliasKey(_ a: [Int32], _ b: [Int32], _ table: TokenTable) -> String? {
        func text(_ ids: [Int32]) -> String { ids.map { table.strings[Int($0)] }.sorted().joined(separator: " ") }
        let x = text(a), y = text(b)
        guard !x.isEmpty, !y.isEmpty else { return nil }
        return x < y ? x + "\u{1}" + y : y + "\u{1}" + x
    }

    /// Per row: its amount occurs on no other row and on at most one stored transaction within
    /// ``Scoring/uniqueAmountWindowDays`` of its date (the one it may pair with).
    /// Counts every live transaction, whatever supports it, so the answer does not depend on
    /// which side was imported first.
    func uniqueAmounts(index x: CandidateIndex) -> [Bool] {
        let w = Scoring.uniqueAmountWindowDays
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
