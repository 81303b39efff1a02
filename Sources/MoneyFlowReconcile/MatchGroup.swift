import Foundation
import MoneyFlowCore

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
    /// Token sets and place claims of the paired rows and columns.
    var texts = GroupTexts()
    var rowDegree: [Int32] = []
    /// Live transactions of the row's amount within its date window, whatever supports them.
    var rowRivals: [Int32] = []
    var colDegree: [Int32] = []
    var rowDay: [Int] = []
    /// Per row: no other record or transaction of its amount nearby (``uniqueAmounts(index:)``).
    var amountUnique: [Bool] = []

    /// Records from this index on are stored records planned again (see ``Reconciler/match``).
    let firstReopened: Int
    /// Plaid `account_id` per record (indexed like `records`; nil or missing when unknown).
    let plaidAccountIDs: [String?]
    /// Plaid accounts of the incoming file's item.
    let sameItemPlaidAccounts: Set<String>

    init(
        rows idx: [Int], records: [IncomingRecord], candidates: [CandidateTransaction], options: ReconcileOptions,
        firstReopened: Int = .max, plaidAccountIDs: [String?] = [], sameItemPlaidAccounts: Set<String> = []
    ) {
        self.idx = idx; self.records = records; self.candidates = candidates; self.options = options
        self.firstReopened = firstReopened; self.plaidAccountIDs = plaidAccountIDs
        self.sameItemPlaidAccounts = sameItemPlaidAccounts
    }

    /// A Plaid record whose Plaid account is known may join a transaction that Plaid records
    /// already support when every one of them is of a Plaid account of another item: a
    /// re-linked bank (a new item, new account ids) re-delivering history the old item
    /// delivered. Records of one Plaid account never join each other (two equal coffees on a
    /// day stay two), nor those of two accounts of one item (merged into one store account by
    /// `--account`, a card's purchase and the checking account's are two).
    func otherPlaidAccountsOnly(record i: Int, candidate c: Int) -> Bool {
        guard i < plaidAccountIDs.count, let mine = plaidAccountIDs[i] else { return false }
        let theirs = candidates[c].plaidAccountIDs
        return !theirs.isEmpty && theirs.allSatisfy { !$0.isEmpty && $0 != mine && !sameItemPlaidAccounts.contains($0) }
    }

    static func kindBit(_ k: SourceKind) -> UInt8 {
        switch k {
        case .cmbPDF: 1;
        case .cmbCSV: 2;
        case .plaid: 4;
        case .csv: 8;
        case .ofx: 16;
        case .alipay: 32;
        case .wechat: 64
        }
    }

    /// The bits of every statement kind, and of every feed kind (``SourceRole``).
    static let statementBits = bits { $0.role == .statement }
    static let feedBits = bits { $0.role == .feed }
    private static func bits(_ p: (SourceKind) -> Bool) -> UInt8 { SourceKind.allCases.filter(p).reduce(0) { $0 | kindBit($1) } }

    /// True when only sources that send pending records support a transaction (a pending
    /// provider transaction a posted one may replace).
    static func onlyPendingSenders(_ kinds: SourceKindSet) -> Bool { !kinds.isEmpty && kinds.allSatisfy(\.sendsPendingRecords) }

    /// A record of kind `rowKind` may join a transaction its kinds (`kinds`, bits) support:
    /// never one a record of its own kind supports (two equal coffees stay two), except a
    /// provider's records of another item's accounts (``otherPlaidAccountsOnly(record:candidate:)``);
    /// and a feed never joins a transaction that feeds alone support: a feed confirms the
    /// statement's rows, and two feeds' records of one amount (a WeChat and an Alipay payment
    /// from one card) are two payments until the statement shows one.
    func mayJoin(record i: Int, kind: SourceKind, rowKind: UInt8, candidate c: Int, kinds: UInt8) -> Bool {
        if kinds & rowKind != 0 { return kind.hasProviderAccountIDs && otherPlaidAccountsOnly(record: i, candidate: c) }
        if kind.role == .feed && kinds & Self.statementBits == 0 && kinds & Self.feedBits != 0 { return false }
        return true
    }

    /// `ledgerPairings`: the ledger's confirmed pairings that may teach aliases (asked at most once).
    mutating func findPairs(
        view: any LedgerView, removedIDs: Set<String>, claimedPending: Set<Int64>,
        ledgerPairings: () throws -> [ConfirmedPairing] = { [] }
    ) throws {
        let n = idx.count, m = candidates.count
        // Candidate dates (primary, plus other supporting dates in a flat side table) and
        // supporting kinds, once.
        var candDay = [Int](repeating: 0, count: m), minDay = [Int](repeating: 0, count: m), maxDay = minDay
        var authorized = [Int](repeating: AuthorizationRule.none, count: m)
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
            candDay[c] = d0; minDay[c] = lo; maxDay[c] = hi
            for d in candidates[c].authorizedDates {
                authorized[c] = max(authorized[c], AuthorizationRule.believed(d.dayNumber, posted: hi))
            }
            extraStart[c + 1] = Int32(extraDays.count)
            span = max(span, hi - lo)
            var k: UInt8 = 0
            for s in candidates[c].supportingKinds { k |= Self.kindBit(s) }
            kinds[c] = k
        }
        // Amount buckets in date order: one sorted array, a range per amount.
        let amounts = candidates.map(\.amount.minorUnits)
        // Sorted as packed (amount, day, index) keys, not indices through a closure reading three
        // arrays per comparison: the keys are distinct, so the order is the same.
        var keyed = [AmountDay](repeating: AmountDay(amount: 0, day: 0, row: 0), count: m)
        for c in 0..<m { keyed[c] = AmountDay(amount: amounts[c], day: minDay[c], row: c) }
        AmountDay.sort(&keyed)
        let order = keyed.map(\.row)
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
            for c in 0..<m where candidates[c].pending && Self.onlyPendingSenders(candidates[c].supportingKinds) {
                if let e = candidates[c].externalIDs.first, removedIDs.contains(e) { tipCandidates.append(c) }
            }
        }
        rowDay = idx.map { records[$0].date.dayNumber }
        let index = CandidateIndex(
            candDay: candDay, minDay: minDay, extraStart: extraStart, extraDays: extraDays,
            kinds: kinds, order: order, maxDay: maxDay, authorized: authorized, bucket: bucket, span: span)
        // Exact-amount pairs: rows are independent, so big imports scan on every core
        // (contiguous row ranges, concatenated in row order: the same pairs in the same order).
        let workers = min(ProcessInfo.processInfo.activeProcessorCount, 8, max(1, n / 20_000))
        var scans: [PairScan]
        if workers == 1 {
            scans = [scan(rows: 0..<n, index: index)]
        } else {
            let me = self
            scans = ParallelMap.map(workers, workers: workers) { w, _ in
                me.scan(rows: ParallelMap.range(of: w, workers: workers, count: n), index: index)
            }
        }
        // Joined at their exact sizes, each worker's list released once copied (peak memory).
        var rivalChunks: [[Int32]] = [], pairChunks: [[MatchPair]] = [], bankChunks: [[Bool]] = []
        for w in scans.indices {
            rivalChunks.append(scans[w].rivals); pairChunks.append(scans[w].pairs); bankChunks.append(scans[w].hasBankCandidate)
        }
        scans = []
        rowRivals = ParallelMap.joined(&rivalChunks)
        pairs = ParallelMap.joined(&pairChunks)
        let hasBankCandidate = ParallelMap.joined(&bankChunks)
        for row in 0..<n where !tipCandidates.isEmpty {
            let i = idx[row]
            let day = rowDay[row]
            let amount = records[i].amount.minorUnits
            // Plaid posted without pending_transaction_id replacing a pending one (tips) — only
            // when the bank has no row of that exact amount for it: then the posted record
            // belongs with the bank's row, and the pending one goes with its removal.
            // (Not for a reopened record: its pending partner was settled by its own import.)
            if records[i].sourceKind.sendsPendingRecords && !records[i].pending && !hasBankCandidate[row] && i < firstReopened {
                for c in tipCandidates {
                    let t = candidates[c]
                    let pa = t.amount.minorUnits, qa = amount
                    guard (pa < 0) == (qa < 0), abs(qa) >= abs(pa), Double(abs(qa)) <= Double(abs(pa)) * (1 + options.tipAllowance) else {
                        continue
                    }
                    let g = day - t.date.dayNumber
                    guard g >= -1 && g <= options.pendingWindowDays else { continue }
                    // A pending already replaced through pending_transaction_id is taken.
                    guard let pendingID = t.externalIDs.first, let px = try view.record(kind: records[i].sourceKind, externalID: pendingID),
                        !claimedPending.contains(px.id)
                    else { continue }
                    pairs.append(
                        MatchPair(row: Int32(row), col: Int32(c), lag: Int32(g), sim: 0, score: 0, replacement: Int32(replacements.count)))
                    replacements.append(PendingReplacement(pendingRecordID: px.id, pendingExternalID: pendingID, tip: abs(qa) - abs(pa)))
                }
            }
        }
        guard !pairs.isEmpty else { return }
        amountUnique = uniqueAmounts(index: index)
        // Text: tokens of every record that has a pair, weighted by how rare they are.
        rowDegree = [Int32](repeating: 0, count: n)
        colDegree = [Int32](repeating: 0, count: m)
        for p in pairs {
            rowDegree[Int(p.row)] += 1
            colDegree[Int(p.col)] += 1
        }
        texts = GroupTexts(pairs: pairs, rows: idx, records: records, candidates: candidates)
        // Taken out of the group while scored, so the workers' copy of the group does not share
        // (and force a copy of) the list being written.
        var list = pairs
        pairs = []
        score(&list)
        pairs = list
        try learnAliases(ledger: ledgerPairings)
    }

    /// Gives every pair its text similarity and score, in place, and drops the pairs a
    /// replacement rule rejects (the others keep their order). In place because at a million
    /// rows the pair list is the largest thing a plan builds: a scored copy beside it (and the
    /// workers' parts of that copy) was the import's peak memory. Pairs are independent: many
    /// are scored on every core, each worker one contiguous run of the list.
    func score(_ pairs: inout [MatchPair]) {
        let count = pairs.count
        let workers = min(ProcessInfo.processInfo.activeProcessorCount, 8, max(1, count / 50_000))
        let me = self
        ParallelMap.updateInPlace(&pairs, workers: workers) { _, p in
            let (row, col) = (Int(p.row), Int(p.col))
            // Sides naming two different stores or states are no evidence of one purchase,
            // however alike their texts (``PlaceRule``).
            p.placesDisagree = me.texts.placesDisagree(row: row, col: col)
            p.sim = p.placesDisagree ? 0 : me.texts.similarity(row: row, col: col)
            if p.replacement >= 0 {
                // A changed amount needs the same merchant; an equal one a short gap at least.
                let tip = me.replacements[Int(p.replacement)].tip
                if let score = Scoring.replacementScore(lag: Int(p.lag), similarity: p.sim, tip: tip) {
                    p.score = score
                } else {
                    p.row = -1 // rejected: removed below
                }
            } else {
                p.score = Scoring.pairScore(lag: Int(p.lag), similarity: p.sim, externalIDAgrees: p.externalIDAgrees)
            }
        }
        var kept = 0
        for k in 0..<count where pairs[k].row >= 0 {
            if kept != k { pairs[kept] = pairs[k] }
            kept += 1
        }
        pairs.removeLast(count - kept)
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
            let rowAuthorized =
                records[i].authorizedDate.map { AuthorizationRule.believed($0.dayNumber, posted: day) } ?? AuthorizationRule.none
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
                // Posted before the other side says the payment was authorized: another payment.
                guard
                    AuthorizationRule.allows(
                        day: day, authorized: rowAuthorized, latestDay: x.maxDay[c], candidateAuthorized: x.authorized[c])
                else { continue }
                // Smallest lag, signed as bank date minus provider date (positive = the usual posting lag).
                var lag = bankIsIncoming ? day - x.candDay[c] : x.candDay[c] - day
                for e in Int(x.extraStart[c])..<Int(x.extraStart[c + 1]) {
                    let d = bankIsIncoming ? day - x.extraDays[e] : x.extraDays[e] - day
                    if abs(d) < abs(lag) || (abs(d) == abs(lag) && d > lag) { lag = d }
                }
                // A pending authorization posts days later: allow the pending window and
                // forgive the first days of lag (``Scoring/pendingForgivenDays``).
                let pendingSide = rowPending || candidates[c].pending
                guard abs(lag) <= (pendingSide ? options.pendingWindowDays : options.dateWindowDays) else { continue }
                // A rival whether or not a record like this one already supports it: what
                // an earlier import linked must weigh as it would within one import.
                out.rivals[row - rows.lowerBound] += 1
                guard mayJoin(record: i, kind: kind, rowKind: rowKind, candidate: c, kinds: x.kinds[c]) else { continue }
                let exactDate = lag == 0
                if pendingSide { lag = lag > 0 ? max(0, lag - Scoring.pendingForgivenDays) : lag }
                var pair = MatchPair(row: Int32(row), col: Int32(c), lag: Int32(lag), sim: 0, score: 0)
                pair.exactDate = exactDate
                if let e = rowExternalID, candidates[c].externalIDs.contains(e) { pair.externalIDAgrees = true }
                if x.kinds[c] & Self.statementBits != 0 { out.hasBankCandidate[row - rows.lowerBound] = true }
                out.pairs.append(pair)
            }
        }
        return out
    }
}
