import Foundation
import MoneyFlowCore

extension Reconciler {
    /// Weight of text similarity (0...1) in a pair's score: enough to prefer the right
    /// merchant three days off over a wrong one on the same day, never able to pair different
    /// amounts or dates outside the window (those never become pairs at all).
    static let textWeight = 1.0

    /// Score lost for a date gap: grows faster than linearly (two 1-2 day lags beat a 0 and a
    /// 3), and a provider date AFTER the bank's posting date costs extra (posting lags run the
    /// other way).
    static func datePenalty(_ signedLag: Int) -> Double {
        let g = Double(abs(signedLag))
        return 0.05 * g + 0.03 * g * g + (signedLag < 0 ? 0.05 * g : 0)
    }

    /// Components with at most this many rows are solved as one assignment; larger ones (a
    /// daily same-price coffee chains the whole history together) in date-ordered blocks.
    static let exactComponentLimit = 24
    /// Rows decided per block of a large component; as many following rows take part in each
    /// block's assignment (so a row's choice accounts for the rows after it) without being decided.
    static let blockRows = 12

    /// Matches the open rows against stored transactions, per account and currency. Stored
    /// records the engine decided earlier within reach of these rows (see ``reopenMargin``)
    /// are planned again together with them, as if they arrived in this same file; those
    /// whose decision changes come back as relinks. Records in `settled` (updated, superseded
    /// or removed by this plan) are not reopened.
    func match(open: [Int], records: [IncomingRecord], accountIDs: [String: Int64], view: any LedgerView,
               removedIDs: Set<String>, claimedPending: Set<Int64>, settled: Set<Int64>) throws -> (decisions: [(Int, RecordDecision)], relinks: [RelinkEffect]) {
        guard !open.isEmpty else { return ([], []) }
        // Group by account and currency; fetch candidates once per group.
        var groups: [String: [Int]] = [:]
        for i in open { groups["\(accountIDs[records[i].accountKey]!)|\(records[i].amount.currency)", default: []].append(i) }
        var out: [(Int, RecordDecision)] = []
        var relinks: [RelinkEffect] = []
        for key in groups.keys.sorted() {
            var idx = groups[key]!
            let first = records[idx[0]]
            let accountID = accountIDs[first.accountKey]!
            let currency = first.amount.currency
            var lo = Int.max, hi = Int.min
            for i in idx { let d = records[i].date.dayNumber; lo = min(lo, d); hi = max(hi, d) }
            let window = max(options.dateWindowDays, options.pendingWindowDays)
            var reopening = Reopening()
            if options.reopenEarlierDecisions, let reopener = view as? any ReopeningLedgerView {
                let kinds = Set(idx.map { records[$0].sourceKind })
                let margin = Self.reopenMargin * window
                reopening = try reopener.reopenable(accountID: accountID, currency: currency, kinds: kinds,
                                                    from: LocalDate(dayNumber: lo - margin), through: LocalDate(dayNumber: hi + margin),
                                                    except: settled)
            }
            var rows = records
            if !reopening.records.isEmpty {
                // Reopened records join as extra rows after the file's own.
                for r in reopening.records {
                    idx.append(rows.count)
                    var rec = r.record
                    rec.accountKey = first.accountKey
                    rows.append(rec)
                    lo = min(lo, rec.date.dayNumber); hi = max(hi, rec.date.dayNumber)
                }
            }
            // Wide enough to see whether an amount is unique near each row (TextlessLinkRule).
            let reach = max(window, TextlessLinkRule.uniqueAmountWindowDays)
            var candidates = try view.candidateTransactions(accountID: accountID, currency: currency,
                                                            from: LocalDate(dayNumber: lo - reach), through: LocalDate(dayNumber: hi + reach))
            if !reopening.remainders.isEmpty {
                // A transaction is offered as it would be without its reopened records.
                candidates = candidates.compactMap { c in
                    if let remainder = reopening.remainders[c.id] { return remainder }
                    return c
                }
            }
            guard !candidates.isEmpty else {
                relinks += Self.relinks(reopening, base: records.count, decisions: [])
                continue
            }
            var group = MatchGroup(rows: idx, records: rows, candidates: candidates, options: options, firstReopened: records.count)
            // The ledger teaches aliases through transactions this plan does not re-decide:
            // a reopened record's transaction speaks through the plan itself (as one combined
            // file would), never twice.
            let replanned = Set(reopening.records.map(\.transactionID))
            let ledgerPairings: () throws -> [ConfirmedPairing] = {
                guard let aliases = view as? any AliasLedgerView else { return [] }
                return try aliases.confirmedPairings(accountID: accountID, currency: currency).filter { !replanned.contains($0.transactionID) }
            }
            try group.findPairs(view: view, removedIDs: removedIDs, claimedPending: claimedPending, ledgerPairings: ledgerPairings)
            let decided = group.decide()
            out += decided.filter { $0.0 < records.count }.map { ($0.0, Self.resolve($0.1, base: records.count)) }
            relinks += Self.relinks(reopening, base: records.count, decisions: decided)
        }
        return (out, relinks)
    }

    /// Reopened records are gathered from this many matching windows on either side of the
    /// file's dates: a record that far away can still share a candidate with one of its rows.
    /// All amounts are reopened, not only the file's: token weights come from the texts in
    /// the plan, so the neighbourhood as a whole is what makes the plan weigh text as one
    /// combined file would (restricting to the file's amounts broke order independence on 2
    /// of 60 generated ledgers).
    static let reopenMargin = 2

    /// The relinks of a group: reopened records (rows `base...`) whose new decision differs
    /// from where they stand.
    static func relinks(_ reopening: Reopening, base: Int, decisions: [(Int, RecordDecision)]) -> [RelinkEffect] {
        var decided: [Int: RecordDecision] = [:]
        for (i, d) in decisions where i >= base { decided[i - base] = d }
        var out: [RelinkEffect] = []
        for (k, r) in reopening.records.enumerated() {
            let d = resolve(decided[k] ?? .new, base: base)
            let unchanged: Bool
            switch (r.standing, d) {
            case (.linked, .link(let t, _, _)): unchanged = t == r.transactionID
            case (.standalone, .new), (.review, .needsReview): unchanged = true
            default: unchanged = false
            }
            if !unchanged {
                out.append(RelinkEffect(recordID: r.recordID, fromTransactionID: r.transactionID, from: r.standing, decision: d, record: r.record))
            }
        }
        return out
    }

    /// A review candidate "this transaction, which another row wants as much" may name a
    /// reopened row; that row is not an entry of the plan, so only the transaction is kept.
    static func resolve(_ d: RecordDecision, base: Int) -> RecordDecision {
        guard case .needsReview(let candidates) = d, candidates.contains(where: { ($0.incomingIndex ?? -1) >= base }) else { return d }
        return .needsReview(candidates: candidates.map { c in
            guard let i = c.incomingIndex, i >= base else { return c }
            var c = c
            c.incomingIndex = nil
            return c
        })
    }
}

/// One candidate pairing of an incoming record (row) with a stored transaction (column).
struct MatchPair {
    var row: Int32
    var col: Int32
    /// Day gap used for scoring (signed: bank date minus provider date).
    var lag: Int32
    var sim: Double
    var score: Double
    var externalIDAgrees = false
    /// The dates agree exactly (before any pending allowance); see ``TextlessLinkRule``.
    var exactDate = false
    /// Other carried pairs with the same two texts (a learned alias), see ``TextlessLinkRule``;
    /// `aliasFromLedger` of them are confirmed transactions of the ledger.
    var aliasConfirmations: Int32 = 0
    var aliasFromLedger: Int32 = 0
    /// Index into ``MatchGroup/replacements`` for a posted provider record replacing a removed
    /// pending one, else -1 (keeps the pair a plain value: no reference counting).
    var replacement: Int32 = -1
}

/// A posted provider record replacing a pending one removed in the same update (tips).
struct PendingReplacement {
    var pendingRecordID: Int64
    var pendingExternalID: String
    var tip: Int64
}

/// The matching work for one account and currency: pairs of incoming rows and stored
/// candidate transactions, their connected components, and the optimal decisions.
///
/// Cost: candidates are found by binary search in amount buckets sorted by date (O(log n)
/// per row plus the pairs found), text is tokenised once per record, and each component is a
/// small assignment problem; a near tie is confirmed by re-solving only when the dual bound of
/// the optimum cannot rule it out.
struct MatchGroup {
    let idx: [Int]
    let records: [IncomingRecord]
    let candidates: [CandidateTransaction]
    let options: ReconcileOptions
    var pairs: [MatchPair] = []
    var replacements: [PendingReplacement] = []
    var tokens = TokenTable()
    var rowTokens: [[Int32]] = []
    var rowWeight: [Double] = []
    var colTokens: [[Int32]?] = []
    var colWeight: [Double] = []
    var rowDegree: [Int32] = []
    /// Live transactions of the row's amount within its date window, whatever supports them.
    var rowRivals: [Int32] = []
    var colDegree: [Int32] = []
    var rowDay: [Int] = []
    /// Per row: no other record or transaction of its amount nearby (``uniqueAmounts(index:)``).
    var amountUnique: [Bool] = []

    /// Records from this index on are stored records planned again (see ``Reconciler/match``).
    let firstReopened: Int

    init(rows idx: [Int], records: [IncomingRecord], candidates: [CandidateTransaction], options: ReconcileOptions,
         firstReopened: Int = .max) {
        self.idx = idx; self.records = records; self.candidates = candidates; self.options = options
        self.firstReopened = firstReopened
    }

    static func kindBit(_ k: SourceKind) -> UInt8 {
        switch k { case .cmbPDF: 1; case .cmbCSV: 2; case .plaid: 4; case .csv: 8; case .ofx: 16 }
    }

    /// `ledgerPairings`: the ledger's confirmed pairings that may teach aliases (asked at most once).
    mutating func findPairs(view: any LedgerView, removedIDs: Set<String>, claimedPending: Set<Int64>,
                            ledgerPairings: () throws -> [ConfirmedPairing] = { [] }) throws {
        let n = idx.count, m = candidates.count
        // Candidate dates (primary, plus other supporting dates in a flat side table) and
        // supporting kinds, once.
        var candDay = [Int](repeating: 0, count: m), minDay = [Int](repeating: 0, count: m)
        var extraStart = [Int32](repeating: 0, count: m + 1), extraDays: [Int] = []
        var kinds = [UInt8](repeating: 0, count: m)
        var span = 0
        for c in 0..<m {
            let d0 = candidates[c].date.dayNumber
            var lo = d0, hi = d0
            for d in candidates[c].otherDates {
                let x = d.dayNumber
                if x != d0 { extraDays.append(x); lo = min(lo, x); hi = max(hi, x) }
            }
            candDay[c] = d0; minDay[c] = lo
            extraStart[c + 1] = Int32(extraDays.count)
            span = max(span, hi - lo)
            var k: UInt8 = 0
            for s in candidates[c].supportingKinds { k |= Self.kindBit(s) }
            kinds[c] = k
        }
        // Amount buckets in date order: one sorted array, a range per amount.
        let amounts = candidates.map(\.amount.minorUnits)
        var order = Array(0..<m)
        order.sort { (amounts[$0], minDay[$0], $0) < (amounts[$1], minDay[$1], $1) }
        var bucket: [Int64: Range<Int>] = [:]
        var s = 0
        while s < m {
            let a = amounts[order[s]]
            var e = s + 1
            while e < m && amounts[order[e]] == a { e += 1 }
            bucket[a] = s..<e
            s = e
        }
        // Pending provider transactions whose removal arrives in this same update (tips).
        var tipCandidates: [Int] = []
        if !removedIDs.isEmpty {
            for c in 0..<m where candidates[c].pending && candidates[c].supportingKinds == [.plaid] {
                if let e = candidates[c].externalIDs.first, removedIDs.contains(e) { tipCandidates.append(c) }
            }
        }
        rowDay = idx.map { records[$0].date.dayNumber }
        let index = CandidateIndex(candDay: candDay, minDay: minDay, extraStart: extraStart, extraDays: extraDays,
                                   kinds: kinds, order: order, bucket: bucket, span: span)
        // Exact-amount pairs: rows are independent, so big imports scan on every core
        // (contiguous row ranges, concatenated in row order: the same pairs in the same order).
        let workers = min(ProcessInfo.processInfo.activeProcessorCount, 8, max(1, n / 20_000))
        var scans: [PairScan]
        if workers == 1 {
            scans = [scan(rows: 0..<n, index: index)]
        } else {
            let me = self
            let results = UnsafeSlots<PairScan>(count: workers, initial: PairScan())
            DispatchQueue.concurrentPerform(iterations: workers) { w in
                results.set(w, me.scan(rows: (n * w / workers)..<(n * (w + 1) / workers), index: index))
            }
            scans = results.all
        }
        rowRivals = scans.flatMap(\.rivals)
        pairs = scans.flatMap(\.pairs)
        let hasBankCandidate = scans.flatMap(\.hasBankCandidate)
        scans = []
        for row in 0..<n where !tipCandidates.isEmpty {
            let i = idx[row]
            let day = rowDay[row]
            let amount = records[i].amount.minorUnits
            // Plaid posted without pending_transaction_id replacing a pending one (tips) — only
            // when the bank has no row of that exact amount for it: then the posted record
            // belongs with the bank's row, and the pending one goes with its removal.
            // (Not for a reopened record: its pending partner was settled by its own import.)
            if records[i].sourceKind == .plaid && !records[i].pending && !hasBankCandidate[row] && i < firstReopened {
                for c in tipCandidates {
                    let t = candidates[c]
                    let pa = t.amount.minorUnits, qa = amount
                    guard (pa < 0) == (qa < 0), abs(qa) >= abs(pa), Double(abs(qa)) <= Double(abs(pa)) * (1 + options.tipAllowance) else { continue }
                    let g = day - t.date.dayNumber
                    guard g >= -1 && g <= options.pendingWindowDays else { continue }
                    // A pending already replaced through pending_transaction_id is taken.
                    guard let pendingID = t.externalIDs.first, let px = try view.record(kind: .plaid, externalID: pendingID),
                          !claimedPending.contains(px.id) else { continue }
                    pairs.append(MatchPair(row: Int32(row), col: Int32(c), lag: Int32(g), sim: 0, score: 0, replacement: Int32(replacements.count)))
                    replacements.append(PendingReplacement(pendingRecordID: px.id, pendingExternalID: pendingID, tip: abs(qa) - abs(pa)))
                }
            }
        }
        guard !pairs.isEmpty else { return }
        amountUnique = uniqueAmounts(index: index)
        // Text: tokens of every record that has a pair, weighted by how rare they are.
        rowTokens = [[Int32]](repeating: [], count: n)
        colTokens = [[Int32]?](repeating: nil, count: m)
        rowDegree = [Int32](repeating: 0, count: n)
        colDegree = [Int32](repeating: 0, count: m)
        for p in pairs {
            let (row, col) = (Int(p.row), Int(p.col))
            if rowDegree[row] == 0 { rowTokens[row] = tokens.add(records[idx[row]].description, records[idx[row]].counterparty) }
            if colTokens[col] == nil { colTokens[col] = tokens.add(candidates[col].description, candidates[col].counterparty) }
            rowDegree[row] += 1
            colDegree[col] += 1
        }
        tokens.finishWeights()
        rowWeight = rowTokens.map { tokens.totalWeight($0) }
        colWeight = colTokens.map { $0.map { tokens.totalWeight($0) } ?? 0 }
        var kept = 0
        for k in pairs.indices {
            var p = pairs[k]
            let (row, col) = (Int(p.row), Int(p.col))
            p.sim = tokens.similarity(rowTokens[row], rowWeight[row], colTokens[col]!, colWeight[col])
            if p.replacement >= 0 {
                // A changed amount needs the same merchant; an equal one a short gap at least.
                let tip = replacements[Int(p.replacement)].tip
                guard p.sim >= 0.3 || (tip == 0 && p.lag <= 3) else { continue }
                p.score = 0.9 - Reconciler.datePenalty(Int(p.lag)) + Reconciler.textWeight * p.sim - (tip == 0 ? 0 : 0.1)
            } else {
                p.score = 1.0 - Reconciler.datePenalty(Int(p.lag)) + Reconciler.textWeight * p.sim + (p.externalIDAgrees ? 0.5 : 0)
            }
            pairs[kept] = p
            kept += 1
        }
        pairs.removeLast(pairs.count - kept)
        try learnAliases(ledger: ledgerPairings)
    }

    /// Exact-amount pairs of rows `rows` (no text yet), their rival counts, and whether a
    /// bank-own transaction is among their candidates.
    func scan(rows: Range<Int>, index x: CandidateIndex) -> PairScan {
        var out = PairScan()
        out.rivals = [Int32](repeating: 0, count: rows.count)
        out.hasBankCandidate = [Bool](repeating: false, count: rows.count)
        let searchWindow = max(options.dateWindowDays, options.pendingWindowDays)
        for row in rows {
            let i = idx[row]
            let day = rowDay[row]
            let kind = records[i].sourceKind
            let bankIsIncoming = kind.isBankOwn
            let rowKind = Self.kindBit(kind)
            let rowPending = records[i].pending
            let rowExternalID = records[i].externalID
            guard let range = x.bucket[records[i].amount.minorUnits] else { continue }
            // First candidate whose earliest date can still be within the window.
            var lo = range.lowerBound, hi = range.upperBound
            let from = day - searchWindow - x.span
            while lo < hi { let mid = (lo + hi) / 2; if x.minDay[x.order[mid]] < from { lo = mid + 1 } else { hi = mid } }
            var k = lo
            while k < range.upperBound {
                let c = x.order[k]
                k += 1
                if x.minDay[c] > day + searchWindow { break }
                // Smallest lag, signed as bank date minus provider date (positive = the usual posting lag).
                var lag = bankIsIncoming ? day - x.candDay[c] : x.candDay[c] - day
                for e in Int(x.extraStart[c])..<Int(x.extraStart[c + 1]) {
                    let d = bankIsIncoming ? day - x.extraDays[e] : x.extraDays[e] - day
                    if abs(d) < abs(lag) || (abs(d) == abs(lag) && d > lag) { lag = d }
                }
                // A pending authorization posts days later: allow the pending window and
                // forgive the first two days of lag.
                let pendingSide = rowPending || candidates[c].pending
                guard abs(lag) <= (pendingSide ? options.pendingWindowDays : options.dateWindowDays) else { continue }
                // A rival whether or not a record like this one already supports it: what
                // an earlier import linked must weigh as it would within one import.
                out.rivals[row - rows.lowerBound] += 1
                guard x.kinds[c] & rowKind == 0 else { continue }
                let exactDate = lag == 0
                if pendingSide { lag = lag > 0 ? max(0, lag - 2) : lag }
                var pair = MatchPair(row: Int32(row), col: Int32(c), lag: Int32(lag), sim: 0, score: 0)
                pair.exactDate = exactDate
                if let e = rowExternalID, candidates[c].externalIDs.contains(e) { pair.externalIDAgrees = true }
                if x.kinds[c] & ~Self.kindBit(.plaid) != 0 { out.hasBankCandidate[row - rows.lowerBound] = true }
                out.pairs.append(pair)
            }
        }
        return out
    }

    // MARK: Decisions

    /// Decides every row that has a pair: components of the pair graph, each solved optimally
    /// (large ones in date-ordered blocks), abstaining on near ties.
    mutating func decide() -> [(Int, RecordDecision)] {
        guard !pairs.isEmpty else { return [] }
        let n = idx.count, m = candidates.count
        var parent = Array(0..<(n + m))
        func find(_ x: Int) -> Int {
            var x = x
            while parent[x] != x { parent[x] = parent[parent[x]]; x = parent[x] }
            return x
        }
        for p in pairs {
            let a = find(Int(p.row)), b = find(n + Int(p.col))
            if a != b { parent[a] = b }
        }
        // Pairs grouped by component (counting sort by root).
        var start = [Int](repeating: 0, count: n + m + 1)
        var root = [Int](repeating: 0, count: pairs.count)
        for (k, p) in pairs.enumerated() { root[k] = find(Int(p.row)); start[root[k] + 1] += 1 }
        for x in 0..<(n + m) { start[x + 1] += start[x] }
        var fill = start
        var byComponent = [Int](repeating: 0, count: pairs.count)
        for k in pairs.indices { byComponent[fill[root[k]]] = k; fill[root[k]] += 1 }

        var components: [Range<Int>] = []
        for x in 0..<(n + m) where start[x + 1] > start[x] { components.append(start[x]..<start[x + 1]) }
        // Components are independent: big imports solve them on every core, in contiguous
        // shares of about equal pair counts (each share in its own solver, so the result does
        // not depend on the number of threads).
        let workers = min(ProcessInfo.processInfo.activeProcessorCount, 8, max(1, pairs.count / 20_000))
        if workers == 1 {
            var solver = ComponentSolver(group: self)
            for c in components { solver.solve(pairIndices: byComponent[c]) }
            return solver.out
        }
        var shares: [Range<Int>] = []
        var first = 0, acc = 0
        for (k, c) in components.enumerated() {
            acc += c.count
            if acc * workers >= pairs.count * (shares.count + 1) || k == components.count - 1 {
                shares.append(first..<(k + 1)); first = k + 1
            }
        }
        let group = self, parts = components, split = shares, members = byComponent
        let results = UnsafeSlots<[(Int, RecordDecision)]>(count: shares.count, initial: [])
        DispatchQueue.concurrentPerform(iterations: split.count) { w in
            var solver = ComponentSolver(group: group)
            for c in parts[split[w]] { solver.solve(pairIndices: members[c]) }
            results.set(w, solver.out)
        }
        return results.all.flatMap { $0 }
    }
}

/// Candidates of one account and currency arranged for the date sweep.
struct CandidateIndex: Sendable {
    var candDay: [Int], minDay: [Int], extraStart: [Int32], extraDays: [Int], kinds: [UInt8], order: [Int]
    var bucket: [Int64: Range<Int>]
    var span: Int
}

/// What scanning a range of rows found.
struct PairScan: Sendable {
    var pairs: [MatchPair] = []
    var rivals: [Int32] = []
    var hasBankCandidate: [Bool] = []
}

/// One result slot per worker of a `concurrentPerform`: each worker writes only its own slot,
/// and the slots are read after all workers finished.
final class UnsafeSlots<T>: @unchecked Sendable {
    private let slots: UnsafeMutablePointer<T>
    private let count: Int
    init(count: Int, initial: T) {
        self.count = count
        slots = .allocate(capacity: count)
        slots.initialize(repeating: initial, count: count)
    }
    deinit { slots.deinitialize(count: count); slots.deallocate() }
    func set(_ i: Int, _ value: T) { slots[i] = value }
    var all: [T] { Array(UnsafeBufferPointer(start: slots, count: count)) }
}
