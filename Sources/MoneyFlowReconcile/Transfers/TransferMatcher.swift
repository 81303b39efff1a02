import MoneyFlowCore

/// A pairing of an outflow with an inflow of another account: a transfer, or a candidate.
public struct TransferPair: Sendable, Hashable {
    /// The leg money left (transaction id).
    public var out: Int64
    /// The leg money arrived on (transaction id).
    public var into: Int64
    public var score: Double
    public var reasons: [MatchReason]
    public init(out: Int64, into: Int64, score: Double, reasons: [MatchReason]) {
        self.out = out; self.into = into; self.score = score; self.reasons = reasons
    }
}

/// What the user decided about two legs, resolved to today's transaction ids.
public struct TransferVerdict: Sendable, Hashable {
    public var out: Int64
    public var into: Int64
    /// True: they are one transfer. False: they are not (never pair them again).
    public var together: Bool
    public init(out: Int64, into: Int64, together: Bool) { self.out = out; self.into = into; self.together = together }
}

/// The transfers among a set of legs: linked pairs (by the engine or the user) and the pairs
/// offered for review.
public struct TransferOutcome: Sendable, Hashable {
    public var linked: [TransferPair] = []
    /// Pairs the user linked (a subset of `linked`, by out/into).
    public var userLinked: Set<Int64> = []
    public var review: [TransferPair] = []
    public init() {}
}

/// Decides which outflows and inflows of a ledger's own accounts are one transfer.
///
/// The outcome is a function of the set of legs and the user's verdicts only: ids are never
/// compared, so importing the same files in any order, twice, or overlapping gives the same
/// transfers. An outflow and an inflow are candidates when they are in different accounts, of
/// the same amount and currency, at most ``TransferEvidence/windowDays`` apart, and
/// ``TransferEvidence`` has something to say. The engine then links a candidate when its
/// evidence is strong and each leg is the other's single best candidate (higher score, then
/// nearer date), repeating while links are found; whatever stays contested or weak is offered
/// for review, never guessed. Legs in different currencies (a CNY debit paying a USD card row)
/// are only ever offered for review, with both amounts: no exchange rate here can vouch for them.
public enum TransferMatcher {
    struct Edge {
        var out: Int
        var into: Int
        var evidence: TransferEvidence
        var gap: Int
        /// Better candidates compare greater: strong first, then score, then the nearer date.
        var rank: (Int, Double, Int) { (evidence.strong ? 1 : 0, evidence.score, -gap) }
    }

    public static func decide(_ legs: [TransferLeg], verdicts: [TransferVerdict] = []) -> TransferOutcome {
        let index = Dictionary(legs.enumerated().map { ($0.element.id, $0.offset) }, uniquingKeysWith: { a, _ in a })
        var outcome = TransferOutcome()
        var settled = Set<Int>()
        var apart = Set<[Int64]>()
        // The user's word first (newest first, as given): a linked pair is final; "not a
        // transfer" removes that pairing.
        for v in verdicts {
            guard let o = index[v.out], let i = index[v.into] else { continue }
            if !v.together { apart.insert([v.out, v.into]); continue }
            guard !settled.contains(o), !settled.contains(i) else { continue }
            settled.formUnion([o, i])
            let evidence = TransferEvidence.between(legs[o], legs[i])
            outcome.linked.append(
                TransferPair(
                    out: v.out, into: v.into, score: 1, reasons: [MatchReason("user", "linked by you")] + (evidence?.reasons ?? [])))
            outcome.userLinked.insert(v.out)
        }
        var (edges, crossCurrency) = candidates(legs, skipping: settled, apart: apart)
        // Mutual single best, repeated: each round links pairs whose legs prefer each other
        // strictly over every alternative; linking them can make other pairs unique.
        while true {
            var bestOut = [Int: (Int, Double, Int)](), bestIn = [Int: (Int, Double, Int)]()
            var countOut = [Int: Int](), countIn = [Int: Int]()
            for e in edges {
                tally(e.out, e.rank, &bestOut, &countOut)
                tally(e.into, e.rank, &bestIn, &countIn)
            }
            let chosen = edges.filter { e in
                e.evidence.strong && bestOut[e.out]! == e.rank && countOut[e.out] == 1 && bestIn[e.into]! == e.rank && countIn[e.into] == 1
            }
            if chosen.isEmpty { break }
            for e in chosen {
                settled.formUnion([e.out, e.into])
                outcome.linked.append(
                    TransferPair(out: legs[e.out].id, into: legs[e.into].id, score: e.evidence.score, reasons: e.evidence.reasons))
            }
            edges.removeAll { settled.contains($0.out) || settled.contains($0.into) }
        }
        crossCurrency.removeAll { settled.contains($0.out) || settled.contains($0.into) }
        outcome.review = (edges + crossCurrency).map { e in
            TransferPair(out: legs[e.out].id, into: legs[e.into].id, score: e.evidence.score, reasons: e.evidence.reasons)
        }
        outcome.linked.sort { ($0.out, $0.into) < ($1.out, $1.into) }
        outcome.review.sort { ($0.out, $0.into) < ($1.out, $1.into) }
        return outcome
    }

    /// The legs that can influence each other's outcome (connected by candidate pairs or a
    /// user's link), as sets of transaction ids; legs with no candidate are left out. Deciding
    /// each group alone gives what deciding them all together gives.
    public static func groups(_ legs: [TransferLeg], verdicts: [TransferVerdict] = []) -> [Set<Int64>] {
        var parent = Array(legs.indices)
        func root(_ x: Int) -> Int {
            var x = x
            while parent[x] != x { parent[x] = parent[parent[x]]; x = parent[x] }
            return x
        }
        var joined = Set<Int>()
        func join(_ a: Int, _ b: Int) {
            joined.formUnion([a, b])
            let (ra, rb) = (root(a), root(b))
            if ra != rb { parent[max(ra, rb)] = min(ra, rb) }
        }
        let (same, cross) = candidates(legs, skipping: [], apart: [])
        for e in same + cross { join(e.out, e.into) }
        let index = Dictionary(legs.enumerated().map { ($0.element.id, $0.offset) }, uniquingKeysWith: { a, _ in a })
        for v in verdicts where v.together {
            if let o = index[v.out], let i = index[v.into] { join(o, i) }
        }
        var byRoot = [Int: Set<Int64>]()
        for n in joined { byRoot[root(n), default: []].insert(legs[n].id) }
        return Array(byRoot.values)
    }

    private static func tally(_ leg: Int, _ rank: (Int, Double, Int), _ best: inout [Int: (Int, Double, Int)], _ count: inout [Int: Int]) {
        if let b = best[leg] {
            if rank > b { best[leg] = rank; count[leg] = 1 } else if rank == b { count[leg, default: 0] += 1 }
        } else {
            best[leg] = rank; count[leg] = 1
        }
    }

    /// Same-currency candidates (equal amounts) and cross-currency ones (worded or naming the
    /// other account on both… see ``crossCurrencyEvidence``), among legs not settled yet.
    static func candidates(_ legs: [TransferLeg], skipping settled: Set<Int>, apart: Set<[Int64]>) -> (same: [Edge], cross: [Edge]) {
        let window = TransferEvidence.windowDays
        var outs: [Int] = [], ins: [Int] = []
        for (n, leg) in legs.enumerated() where !settled.contains(n) && leg.amount.minorUnits != 0 {
            if leg.amount.minorUnits < 0 { outs.append(n) } else { ins.append(n) }
        }
        // Each leg's wording, looked up once and only when a pair needs it (`nil`: not yet).
        var words = [String??](repeating: nil, count: legs.count)
        func word(_ n: Int) -> String? {
            if let known = words[n] { return known }
            let w = TransferEvidence.firstWord(in: legs[n].text)
            words[n] = .some(w)
            return w
        }
        // Inflows by amount, then day, for the equal-amount pairs (a daily coffee of one price
        // must not cost its square); by day, for the cross-currency ones, when the legs hold
        // two currencies at all (only inflows worded as a transfer, arriving on a card or in a
        // paired account: the others can never make a cross-currency pair strong enough).
        var inByAmount = [Money: [Int]]()
        for i in ins { inByAmount[legs[i].amount, default: []].append(i) }
        for key in inByAmount.keys { inByAmount[key]!.sort { legs[$0].date < legs[$1].date } }
        let severalCurrencies = Set(legs.map(\.amount.currency)).count > 1
        let insByDay =
            severalCurrencies
            ? ins.filter { legs[$0].accountIsCredit || !legs[$0].pairedAccounts.isEmpty || word($0) != nil }.sorted { legs[$0].date < legs[$1].date }
            : []
        var same: [Edge] = [], cross: [Edge] = []
        for o in outs {
            let out = legs[o]
            let wanted = Money(minorUnits: -out.amount.minorUnits, currency: out.amount.currency)
            let sameAmount = inByAmount[wanted] ?? []
            var j = lowerBound(sameAmount, legs, day: out.date.dayNumber - window)
            while j < sameAmount.count, legs[sameAmount[j]].date.dayNumber <= out.date.dayNumber + window {
                let i = sameAmount[j]
                j += 1
                let into = legs[i]
                let gap = abs(into.date.dayNumber - out.date.dayNumber)
                guard into.accountID != out.accountID, gap <= window, !apart.contains([out.id, into.id]),
                    let evidence = TransferEvidence.between(out, into, outWord: word(o), inWord: word(i))
                else { continue }
                same.append(Edge(out: o, into: i, evidence: evidence, gap: gap))
            }
            guard !insByDay.isEmpty, word(o) != nil else { continue }
            // Money bought in another currency reaches the other account after it left (a day
            // of booking slack), never a week before.
            let lo = out.date.dayNumber - 1, hi = out.date.dayNumber + window
            var k = lowerBound(insByDay, legs, day: lo)
            while k < insByDay.count, legs[insByDay[k]].date.dayNumber <= hi {
                let i = insByDay[k]
                k += 1
                let into = legs[i]
                guard into.amount.currency != out.amount.currency, into.accountID != out.accountID,
                    !apart.contains([out.id, into.id]),
                    let evidence = crossCurrencyEvidence(out, into, outWord: word(o), inWord: word(i))
                else { continue }
                cross.append(Edge(out: o, into: i, evidence: evidence, gap: abs(into.date.dayNumber - out.date.dayNumber)))
            }
        }
        return (same, cross)
    }

    /// A cross-currency pair is offered only when the outflow is worded as a repayment or an
    /// exchange (or names the account), it reaches the other account within the window after
    /// leaving, and the evidence would be strong for equal amounts (the inflow worded too, or
    /// arriving on a card): otherwise every foreign purchase would be a candidate. It is never
    /// strong itself.
    static func crossCurrencyEvidence(_ out: TransferLeg, _ into: TransferLeg, outWord: String?, inWord: String?) -> TransferEvidence? {
        guard var e = TransferEvidence.between(out, into, outWord: outWord, inWord: inWord), e.strong else { return nil }
        // A plain transfer to someone (转账, 汇款, TRANSFER) in one currency and a repayment in
        // another are strangers unless the outflow names the account: only repayment and
        // exchange wording (购汇还款, PAYMENT …) proposes a pair by itself.
        let named = e.reasons.contains { $0.factor == "account" }
        guard named || !TransferEvidence.genericWords.contains(outWord ?? "") else { return nil }
        e.strong = false
        e.reasons.append(MatchReason("currency", "\(out.amount) paid \(into.amount): different currencies, please confirm"))
        return e
    }

    private static func lowerBound(_ sorted: [Int], _ legs: [TransferLeg], day: Int) -> Int {
        var lo = 0, hi = sorted.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if legs[sorted[mid]].date.dayNumber < day { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
