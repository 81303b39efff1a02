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
        // Each row's and column's text (its sorted tokens) is spelled once per distinct token
        // set and numbered; a key is the unordered pair of two numbers. (Spelling the key per
        // pair cost a fifth of a plan.) Token ids of one table name distinct tokens, and tokens
        // hold no space, so equal id lists and equal spellings are the same thing.
        var textIDs: [String: UInt32] = [:]
        var numbered: [Int32: UInt32] = [:] // by token set (``GroupTexts``: equal sets, equal numbers)
        let texts = self.texts
        func number(_ set: Int32) -> UInt32? {
            guard set != 0 else { return nil } // the empty set
            if let id = numbered[set] { return id }
            let text = Self.aliasText(texts.tokens(ofSet: set), texts.table)
            let id = textIDs[text] ?? UInt32(textIDs.count)
            textIDs[text] = id
            numbered[set] = id
            return id
        }
        let n = idx.count, m = candidates.count
        var rowText = [UInt32?](repeating: nil, count: n), colText = [UInt32?](repeating: nil, count: m)
        var rowDone = [Bool](repeating: false, count: n), colDone = [Bool](repeating: false, count: m)
        var keys: [(pair: Int, key: UInt64)] = []
        var confirmed: [UInt64: (rows: Set<Int32>, cols: Set<Int32>)] = [:]
        // Pairs whose texts name different places (``PlaceRule``) have their text evidence
        // withheld, not absent: they neither teach nor use an alias.
        for (k, p) in pairs.enumerated() where p.replacement < 0 && p.sim < Scoring.textEvidenceFloor && !p.placesDisagree {
            let (row, col) = (Int(p.row), Int(p.col))
            if !rowDone[row] { rowDone[row] = true; rowText[row] = number(texts.rowSet[row]) }
            if !colDone[col] { colDone[col] = true; colText[col] = number(texts.colSet[col]) }
            guard let a = rowText[row], let b = colText[col] else { continue }
            let key = Self.aliasKey(a, b)
            keys.append((k, key))
            if p.externalIDAgrees || carried(p) {
                confirmed[key, default: ([], [])].rows.insert(p.row)
                confirmed[key, default: ([], [])].cols.insert(p.col)
            }
        }
        // Other confirmations only: never the pair's own row or transaction.
        var inImport = [Int](repeating: 0, count: keys.count)
        var unanswered = false
        for (j, (k, key)) in keys.enumerated() {
            let p = pairs[k]
            let c = confirmed[key]
            let n = c.map { min($0.rows.count - ($0.rows.contains(p.row) ? 1 : 0), $0.cols.count - ($0.cols.contains(p.col) ? 1 : 0)) } ?? 0
            inImport[j] = n
            if n < Scoring.aliasConfirmations && !p.externalIDAgrees && !carried(p) { unanswered = true }
        }
        // Each confirmed transaction of the ledger counts as one more carried pair (a row and a
        // column of its own). A text no pair of this group has cannot confirm any of them.
        var stored: [UInt64: Set<Int64>] = [:]
        if unanswered {
            var scratch = TokenTable()
            for c in try ledger() {
                let bank = scratch.add(c.bankDescription, c.bankCounterparty)
                let provider = scratch.add(c.providerDescription, c.providerCounterparty)
                guard let a = textIDs[Self.aliasText(bank, scratch)], let b = textIDs[Self.aliasText(provider, scratch)] else { continue }
                stored[Self.aliasKey(a, b), default: []].insert(c.transactionID)
            }
        }
        for (j, (k, key)) in keys.enumerated() {
            let p = pairs[k]
            let id = candidates[Int(p.col)].id
            let fromLedger = stored[key].map { $0.count - ($0.contains(id) ? 1 : 0) } ?? 0
            let n = inImport[j] + fromLedger
            if n >= Scoring.aliasConfirmations {
                pairs[k].aliasConfirmations = Int32(n)
                pairs[k].aliasFromLedger = Int32(fromLedger)
            }
        }
    }

    /// A text as the alias key sees it: its token set (ids of `table`), sorted and spelled.
    static func aliasText<S: Sequence<Int32>>(_ ids: S, _ table: TokenTable) -> String {
        ids.map { table.strings[Int($0)] }.sorted().joined(separator: " ")
    }

    /// The alias key of two numbered texts: their unordered pair, so it does not depend on
    /// which side is being imported.
    static func aliasKey(_ a: UInt32, _ b: UInt32) -> UInt64 { UInt64(min(a, b)) << 32 | UInt64(max(a, b)) }

    /// Per row: its amount occurs on no other row and on at most one stored transaction within
    /// ``Scoring/uniqueAmountWindowDays`` of its date (the one it may pair with).
    /// Counts every live transaction, whatever supports it, so the answer does not depend on
    /// which side was imported first.
    func uniqueAmounts(index x: CandidateIndex) -> [Bool] {
        let w = Scoring.uniqueAmountWindowDays
        // Rows in (amount, day) order and the candidates' days sorted within each amount's range
        // of the index: the rows and transactions of a row's amount within its window are two
        // windows that only move forward along each amount's run (a daily same-price coffee
        // must not make this quadratic, and a sweep reads memory in order).
        var keys = [AmountDay](repeating: AmountDay(amount: 0, day: 0, row: 0), count: idx.count)
        for row in idx.indices { keys[row] = AmountDay(amount: records[idx[row]].amount.minorUnits, day: rowDay[row], row: row) }
        AmountDay.sort(&keys)
        var candDays = [Int](repeating: 0, count: x.order.count)
        candDays.withUnsafeMutableBufferPointer { days in
            for range in x.bucket.values {
                for k in range { days[k] = x.candDay[x.order[k]] }
                var slot = UnsafeMutableBufferPointer(rebasing: days[range])
                slot.sort()
            }
        }
        var out = [Bool](repeating: false, count: idx.count)
        var start = 0
        while start < keys.count {
            let amount = keys[start].amount
            var end = start + 1
            while end < keys.count && keys[end].amount == amount { end += 1 }
            let cands = x.bucket[amount] ?? 0..<0
            var lo = start, hi = start, cLo = cands.lowerBound, cHi = cands.lowerBound
            for k in start..<end {
                let day = keys[k].day
                while keys[lo].day < day - w { lo += 1 }
                while hi < end && keys[hi].day <= day + w { hi += 1 }
                while cLo < cands.upperBound && candDays[cLo] < day - w { cLo += 1 }
                if cHi < cLo { cHi = cLo }
                while cHi < cands.upperBound && candDays[cHi] <= day + w { cHi += 1 }
                out[keys[k].row] = hi - lo == 1 && cHi - cLo <= 1
            }
            start = end
        }
        return out
    }

    /// A row's (or a candidate's) amount and day (in that order), and the row (or candidate).
    struct AmountDay: Comparable {
        var amount: Int64
        var day: Int
        var row: Int
        static func < (a: Self, b: Self) -> Bool { (a.amount, a.day, a.row) < (b.amount, b.day, b.row) }
    }
}
