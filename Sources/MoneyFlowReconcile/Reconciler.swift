import Foundation
import MoneyFlowCore

/// Tunables of the matching engine.
public struct ReconcileOptions: Sendable, Hashable {
    /// Largest date gap (days) between a bank record and a provider record of the same
    /// transaction (posting lag; authorized dates count too).
    public var dateWindowDays: Int = 4
    /// Largest gap (days) between a pending record and the posted record that replaces it.
    public var pendingWindowDays: Int = 7
    /// How much a posted amount may exceed its pending amount (tips), as a fraction.
    public var tipAllowance: Double = 0.30
    /// Best and second-best assignments closer than this (in score units) are not guessed:
    /// the records go to review.
    public var reviewMargin: Double = 0.1
    /// Put every record into this account (by name) instead of the importer's account.
    public var accountOverride: String?
    public init() {}
}

/// Plans an import: for each incoming record, already present / update / link / new / review,
/// plus provider lifecycle effects. Pure: reads the store through ``LedgerView`` only, and the
/// result does not depend on file or row order (up to interchangeable identical rows).
public struct Reconciler: Sendable {
    public var options: ReconcileOptions
    public init(options: ReconcileOptions = ReconcileOptions()) { self.options = options }

    public func plan(_ input: ImportedStatement, fileName: String, fileSHA256: String, view: any LedgerView) throws -> ImportPlan {
        var statement = input
        Self.collapseProviderDuplicates(&statement)
        // The same bytes again (a replayed sync page, a re-downloaded export): nothing in it is
        // newer than what the store has, so it may add what is missing but never updates or removes.
        if try view.fileAlreadyImported(sha256: fileSHA256) {
            statement.modifiedExternalIDs = []
            statement.removals = []
            statement.sync = nil
        }
        let records = statement.records
        let accounts = try resolveAccounts(statement, view: view)
        var accountIDs: [String: Int64] = [:]
        for a in accounts { if let id = a.accountID { accountIDs[a.key] = id } }
        if let override = options.accountOverride, let id = try view.accountID(named: override) {
            for r in records { accountIDs[r.accountKey] = id }
        }
        let fingerprints = Fingerprint.keys(for: records)
        var decisions = [RecordDecision?](repeating: nil, count: records.count)
        var incomingByExternal: [String: Int] = [:]
        for (i, r) in records.enumerated() { if let e = r.externalID { incomingByExternal[e] = i } }
        var supersededPending = Set<Int64>()      // store record ids superseded in this update

        // 1. Identity: provider id, fingerprint, user decisions, provider pending->posted.
        let lookup = try IdentityLookup(records: records, fingerprints: fingerprints, accountIDs: accountIDs,
                                        removals: statement.removals.map(\.externalID), view: view)
        for (i, r) in records.enumerated() {
            let accountID = accountIDs[r.accountKey]
            if let accountID {
                if let ext = r.externalID, let ex = try lookup.record(kind: r.sourceKind, externalID: ext), ex.accountID == accountID {
                    decisions[i] = statement.modifiedExternalIDs.contains(ext) ? .update(recordID: ex.id) : .alreadyPresent(recordID: ex.id)
                    continue
                }
                if let ex = try lookup.record(accountID: accountID, kind: r.sourceKind, fingerprint: fingerprints[i]) {
                    decisions[i] = statement.modifiedExternalIDs.contains(r.externalID ?? "") ? .update(recordID: ex.id) : .alreadyPresent(recordID: ex.id)
                    continue
                }
                if let user = try lookup.userDecision(accountID: accountID, kind: r.sourceKind, fingerprint: fingerprints[i]) {
                    switch user {
                    case .linked(let t): decisions[i] = .link(transactionID: t, score: 1, reasons: [MatchReason("user", "linked by user earlier")])
                    case .standalone: decisions[i] = .new
                    }
                    continue
                }
            }
            if let p = r.pendingExternalID, !r.pending {
                if let j = incomingByExternal[p], j < i, records[j].pending {
                    decisions[i] = .supersedeIncoming(pendingIndex: j, reasons: [MatchReason("pending_transaction_id", p)])
                    continue
                }
                if let accountID, let px = try lookup.record(kind: .plaid, externalID: p), px.accountID == accountID, let t = px.transactionID {
                    decisions[i] = .supersede(pendingRecordID: px.id, transactionID: t, reasons: [MatchReason("pending_transaction_id", p)])
                    supersededPending.insert(px.id)
                    continue
                }
            }
        }
        // Incoming pending records superseded by a later incoming posted record must be new first.
        for (i, d) in decisions.enumerated() {
            if case .supersedeIncoming(let j, _)? = d, decisions[j] == nil { decisions[j] = .new }
            _ = i
        }

        // 2. Matching against stored transactions of other sources (and pending ones).
        let removedIDs = Set(statement.removals.map(\.externalID))
        var open: [Int] = []
        for i in records.indices where decisions[i] == nil && accountIDs[records[i].accountKey] != nil { open.append(i) }
        let matches = try match(open: open, records: records, accountIDs: accountIDs, view: view, removedIDs: removedIDs,
                                claimedPending: supersededPending)
        for (i, d) in matches {
            decisions[i] = d
            if case .supersede(let pid, _, _) = d { supersededPending.insert(pid) }
        }

        // 3. Everything else is new.
        let entries = records.indices.map { i in PlanEntry(index: i, fingerprint: fingerprints[i], decision: decisions[i] ?? .new) }

        // 4. Provider removals.
        var removals: [RemovalEffect] = []
        for rem in statement.removals {
            if let ex = try lookup.record(kind: .plaid, externalID: rem.externalID), ex.state == .active || supersededPending.contains(ex.id) {
                if let key = rem.accountKey, let acc = accountIDs[key], acc != ex.accountID { continue }
                removals.append(RemovalEffect(externalID: rem.externalID, recordID: ex.id, supersededInThisUpdate: supersededPending.contains(ex.id)))
            } else {
                removals.append(RemovalEffect(externalID: rem.externalID, recordID: nil, supersededInThisUpdate: false))
            }
        }
        return ImportPlan(fileName: fileName, fileSHA256: fileSHA256, statement: statement, accounts: accounts, entries: entries, removals: removals)
    }

    /// Within one update a transaction may be added then modified, or added then removed:
    /// keep the last version, and drop records that the same update removes.
    static func collapseProviderDuplicates(_ s: inout ImportedStatement) {
        let removed = Set(s.removals.map(\.externalID))
        var lastIndex: [String: Int] = [:]
        for (i, r) in s.records.enumerated() { if let e = r.externalID { lastIndex[e] = i } }
        // A pending record that a posted record EARLIER in the file already replaces is stale
        // (an export holding both): the posted one stands for the transaction.
        var supersededLater = Set<String>()
        var seenPosted = Set<String>()
        for r in s.records {
            if let p = r.pendingExternalID, !r.pending { seenPosted.insert(p) }
            if let e = r.externalID, r.pending, seenPosted.contains(e) { supersededLater.insert(e) }
        }
        var kept: [IncomingRecord] = []
        for (i, r) in s.records.enumerated() {
            guard let e = r.externalID else { kept.append(r); continue }
            if lastIndex[e] != i || removed.contains(e) || supersededLater.contains(e) { continue }
            kept.append(r)
        }
        guard kept.count != s.records.count else { return }
        // Removals of records never stored are harmless; they stay for the audit trail.
        s.records = kept
    }

    func resolveAccounts(_ s: ImportedStatement, view: any LedgerView) throws -> [AccountResolution] {
        var out: [AccountResolution] = []
        var usedNames = Set<String>()
        for f in s.accounts {
            if let override = options.accountOverride {
                out.append(AccountResolution(key: f.key, accountID: try view.accountID(named: override), name: override, facts: f))
                continue
            }
            if let id = try view.accountID(forKey: f.key) {
                out.append(AccountResolution(key: f.key, accountID: id, name: f.suggestedName, facts: f))
                continue
            }
            var name = f.suggestedName
            var n = 2
            while try view.accountID(named: name) != nil || usedNames.contains(name) {
                name = "\(f.suggestedName) (\(n))"; n += 1
            }
            usedNames.insert(name)
            out.append(AccountResolution(key: f.key, accountID: nil, name: name, facts: f))
        }
        return out
    }

    // MARK: Matching

    struct Pair {
        var row: Int          // index into open records
        var col: Int          // index into candidates
        var score: Double
        var reasons: [MatchReason]
        var supersedes: Int64?
    }

    func match(open: [Int], records: [IncomingRecord], accountIDs: [String: Int64], view: any LedgerView,
               removedIDs: Set<String>, claimedPending: Set<Int64>) throws -> [(Int, RecordDecision)] {
        guard !open.isEmpty else { return [] }
        // Group by account and currency; fetch candidates once per group.
        var groups: [String: [Int]] = [:]
        for i in open { groups["\(accountIDs[records[i].accountKey]!)|\(records[i].amount.currency)", default: []].append(i) }
        var out: [(Int, RecordDecision)] = []
        for key in groups.keys.sorted() {
            let idx = groups[key]!
            let first = records[idx[0]]
            let accountID = accountIDs[first.accountKey]!
            let dates = idx.map { records[$0].date }
            let window = max(options.dateWindowDays, options.pendingWindowDays)
            let candidates = try view.candidateTransactions(accountID: accountID, currency: first.amount.currency,
                                                            from: dates.min()!.adding(days: -window), through: dates.max()!.adding(days: window))
            guard !candidates.isEmpty else { continue }
            out += try matchGroup(idx, records: records, candidates: candidates, view: view, removedIDs: removedIDs, claimedPending: claimedPending)
        }
        return out
    }

    /// Score lost for a date gap: grows faster than linearly (two 1-2 day lags beat a 0 and a
    /// 3), and a provider date AFTER the bank's posting date costs extra (posting lags run the
    /// other way).
    /// Weight of text similarity (0...1) in a pair's score: enough to settle a one-day
    /// difference between an obviously right and an obviously wrong merchant, never enough to
    /// beat a different amount (amounts must be equal to pair at all).
    static let textWeight = 0.5

    static func datePenalty(_ signedLag: Int) -> Double {
        let g = Double(abs(signedLag))
        return 0.10 * g + 0.04 * g * g + (signedLag < 0 ? 0.08 * g : 0)
    }

    func matchGroup(_ idx: [Int], records: [IncomingRecord], candidates: [CandidateTransaction], view: any LedgerView,
                    removedIDs: Set<String>, claimedPending: Set<Int64>) throws -> [(Int, RecordDecision)] {
        // Bucket candidates by amount; sweep by date inside buckets.
        var byAmount: [Int64: [Int]] = [:]
        for (c, t) in candidates.enumerated() { byAmount[t.amount.minorUnits, default: []].append(c) }
        let pendingCandidates = candidates.indices.filter { candidates[$0].pending && candidates[$0].supportingKinds == [.plaid] }
        var candTokens: [Int: Set<String>] = [:]
        func tokens(_ c: Int) -> Set<String> {
            if let t = candTokens[c] { return t }
            let t = TextSimilarity.tokens(candidates[c].description + " " + (candidates[c].counterparty ?? ""))
            candTokens[c] = t
            return t
        }
        var pairs: [Pair] = []
        for (row, i) in idx.enumerated() {
            let r = records[i]
            let rTokens = TextSimilarity.tokens(r.description + " " + (r.counterparty ?? ""))
            // Lags are measured between posted dates only: an authorized date earlier than the
            // posting would make a provider record dated after the bank's row look perfect.
            let rDates = [r.date]
            /// Smallest lag between the record and the candidate, signed as bank date minus
            /// provider date (positive = the usual posting lag).
            func lag(_ t: CandidateTransaction) -> Int {
                var best = Int.max
                let bankIsIncoming = r.sourceKind.isBankOwn
                for a in rDates {
                    for b in [t.date] + t.otherDates {
                        let d = bankIsIncoming ? a.dayNumber - b.dayNumber : b.dayNumber - a.dayNumber
                        if abs(d) < abs(best) || (abs(d) == abs(best) && d > best) { best = d }
                    }
                }
                return best
            }
            let firstPairOfRow = pairs.count
            // Exact amount, other source kind.
            for c in byAmount[r.amount.minorUnits] ?? [] {
                let t = candidates[c]
                guard !t.supportingKinds.contains(r.sourceKind) else { continue }
                var l = lag(t)
                // A pending authorization posts days later: allow the pending window and
                // forgive the first two days of lag.
                let pendingSide = r.pending || t.pending
                guard abs(l) <= (pendingSide ? options.pendingWindowDays : options.dateWindowDays) else { continue }
                if pendingSide { l = l > 0 ? max(0, l - 2) : l }
                let sim = TextSimilarity.similarity(rTokens, tokens(c))
                var score = 1.0 - Self.datePenalty(l) + Self.textWeight * sim
                var reasons = [MatchReason("amount", "equal \(r.amount.decimalString)"), MatchReason("date", "\(abs(l)) day(s) apart"),
                               MatchReason("text", String(format: "similarity %.2f", sim))]
                if let e = r.externalID, t.externalIDs.contains(e) { score += 0.5; reasons.append(MatchReason("external_id", "agree")) }
                pairs.append(Pair(row: row, col: c, score: score, reasons: reasons, supersedes: nil))
            }
            // Plaid posted without pending_transaction_id replacing a pending one (tips) — only
            // when the bank has no row of that exact amount for it: then the posted record
            // belongs with the bank's row, and the pending one goes with its removal.
            let hasBankCandidate = pairs[firstPairOfRow...].contains { candidates[$0.col].supportingKinds.contains(where: \.isBankOwn) }
            if r.sourceKind == .plaid && !r.pending && !hasBankCandidate {
                for c in pendingCandidates {
                    let t = candidates[c]
                    let pa = t.amount.minorUnits, qa = r.amount.minorUnits
                    guard (pa < 0) == (qa < 0), abs(qa) >= abs(pa), Double(abs(qa)) <= Double(abs(pa)) * (1 + options.tipAllowance) else { continue }
                    let g = r.date.dayNumber - t.date.dayNumber
                    guard g >= -1 && g <= options.pendingWindowDays else { continue }
                    // Plaid removes the pending record in the same update that brings the posted
                    // one; a pending already replaced through pending_transaction_id is taken.
                    guard let pendingID = t.externalIDs.first, removedIDs.contains(pendingID),
                          let px = try view.record(kind: .plaid, externalID: pendingID), !claimedPending.contains(px.id) else { continue }
                    let sim = TextSimilarity.similarity(rTokens, tokens(c))
                    let tip = abs(qa) - abs(pa)
                    // A changed amount needs the same merchant; an equal one a short gap at least.
                    guard sim >= 0.3 || (tip == 0 && g <= 3) else { continue }
                    let score = 0.9 - Self.datePenalty(g) + Self.textWeight * sim - (tip == 0 ? 0 : 0.1)
                    let reasons = [MatchReason("pending", "posted replaces pending \(pendingID) (removed in this update)"),
                                   MatchReason("amount", tip == 0 ? "equal" : "tip \(Money.format(minorUnits: tip, exponent: r.amount.exponent))"),
                                   MatchReason("date", "\(g) day(s) later"), MatchReason("text", String(format: "similarity %.2f", sim))]
                    pairs.append(Pair(row: row, col: c, score: score, reasons: reasons, supersedes: px.id))
                }
            }
        }
        guard !pairs.isEmpty else { return [] }
        // Connected components (union-find over rows and columns).
        let nRows = idx.count
        var parent = Array(0..<(nRows + candidates.count))
        func find(_ x: Int) -> Int { var x = x; while parent[x] != x { parent[x] = parent[parent[x]]; x = parent[x] }; return x }
        for p in pairs { let a = find(p.row), b = find(nRows + p.col); if a != b { parent[a] = b } }
        var components: [Int: [Pair]] = [:]
        for p in pairs { components[find(p.row), default: []].append(p) }
        var out: [(Int, RecordDecision)] = []
        for root in components.keys.sorted() {
            var taken = Set<Int64>()   // transactions claimed by an earlier block of this component
            for block in Self.blocks(of: components[root]!, records: records, idx: idx) {
                let free = block.filter { !taken.contains(candidates[$0.col].id) }
                guard !free.isEmpty else { continue }
                for (i, d) in decide(free, idx: idx, records: records, candidates: candidates) {
                    switch d {
                    case .link(let t, _, _), .supersede(_, let t, _): taken.insert(t)
                    default: break
                    }
                    out.append((i, d))
                }
            }
        }
        return out
    }

    /// Largest component solved exactly as one assignment (O(n^3)) with exact runner-up checks.
    static let exactComponentLimit = 48

    /// Splits a huge component (hundreds of same-amount coffees chained by overlapping date
    /// windows) into date-ordered blocks of rows; a candidate claimed by an earlier block's
    /// rows stays with that block. Components of normal size come back whole.
    static func blocks(of pairs: [Pair], records: [IncomingRecord], idx: [Int]) -> [[Pair]] {
        let rows = Set(pairs.map(\.row))
        guard rows.count > exactComponentLimit else { return [pairs] }
        let ordered = rows.sorted { (records[idx[$0]].date, $0) < (records[idx[$1]].date, $1) }
        var byRow: [Int: [Pair]] = [:]
        for p in pairs { byRow[p.row, default: []].append(p) }
        var out: [[Pair]] = []
        var start = 0
        let size = exactComponentLimit / 2
        while start < ordered.count {
            let chunk = ordered[start..<min(ordered.count, start + size)]
            out.append(chunk.flatMap { byRow[$0] ?? [] })
            start += size
        }
        return out
    }

    /// Optimal assignment inside one component, abstaining on near ties.
    func decide(_ pairs: [Pair], idx: [Int], records: [IncomingRecord], candidates: [CandidateTransaction]) -> [(Int, RecordDecision)] {
        // Deterministic ordering independent of input order: sort rows and cols by content.
        let rowSet = Array(Set(pairs.map(\.row))).sorted { recordSortKey(records[idx[$0]]) < recordSortKey(records[idx[$1]]) }
        let colSet = Array(Set(pairs.map(\.col))).sorted { candidates[$0].id < candidates[$1].id }
        let rowPos = Dictionary(uniqueKeysWithValues: rowSet.enumerated().map { ($1, $0) })
        let colPos = Dictionary(uniqueKeysWithValues: colSet.enumerated().map { ($1, $0) })
        var cost = [[Double?]](repeating: [Double?](repeating: nil, count: colSet.count), count: rowSet.count)
        var pairAt: [Int: [Int: Pair]] = [:]
        for p in pairs {
            let (r, c) = (rowPos[p.row]!, colPos[p.col]!)
            if let existing = cost[r][c], -existing >= p.score { continue }
            cost[r][c] = -p.score
            pairAt[r, default: [:]][c] = p
        }
        let rowSigs = rowSet.map { i -> String in let x = records[idx[i]]; return "\(x.date.iso)|\(x.amount.minorUnits)|\(TextSimilarity.tokens(x.description + " " + (x.counterparty ?? "")).sorted())" }
        let colSigs = colSet.map { c -> String in let t = candidates[c]; return "\(t.date.iso)|\(t.amount.minorUnits)|\(TextSimilarity.tokens(t.description + " " + (t.counterparty ?? "")).sorted())" }
        func rowSig(_ r: Int) -> String { rowSigs[r] }
        func colSig(_ c: Int) -> String { colSigs[c] }
        let best = Assignment.solve(cost: cost, unmatchedCost: 0)
        let bestCost = total(best, cost)
        var out: [(Int, RecordDecision)] = []
        for (r, c) in best.enumerated() {
            guard let c else { continue }
            let p = pairAt[r]![c]!
            // Runner-up: the best assignment that does not pair r with c, nor with a copy of c,
            // nor c with a copy of r (swapping identical twins is no alternative at all).
            var forbidden = cost
            for c2 in colSet.indices where colSig(c2) == colSig(c) { forbidden[r][c2] = nil }
            for r2 in rowSet.indices where rowSig(r2) == rowSig(r) { forbidden[r2][c] = nil }
            let alt = Assignment.solve(cost: forbidden, unmatchedCost: 0)
            let altCost = total(alt, forbidden)
            let i = idx[rowSet[r]]
            if altCost - bestCost < options.reviewMargin && !interchangeable(best: best, alt: alt, rowSet: rowSet, colSet: colSet, idx: idx, records: records, candidates: candidates) {
                var cands = [ReviewCandidate(transactionID: candidates[colSet[c]].id, score: p.score, reasons: p.reasons)]
                if let c2 = alt[r], let p2 = pairAt[r]?[c2] {
                    cands.append(ReviewCandidate(transactionID: candidates[colSet[c2]].id, score: p2.score, reasons: p2.reasons))
                } else {
                    for (r2, c2) in alt.enumerated() where c2 == c && r2 != r {
                        // Another record wants this transaction just as much.
                        if let p2 = pairAt[r2]?[c] {
                            cands.append(ReviewCandidate(transactionID: candidates[colSet[c]].id, incomingIndex: idx[rowSet[r2]], score: p2.score, reasons: p2.reasons))
                        }
                    }
                }
                out.append((i, .needsReview(candidates: cands)))
                continue
            }
            if let s = p.supersedes {
                out.append((i, .supersede(pendingRecordID: s, transactionID: candidates[colSet[c]].id, reasons: p.reasons)))
            } else {
                out.append((i, .link(transactionID: candidates[colSet[c]].id, score: p.score, reasons: p.reasons)))
            }
        }
        return out
    }

    func total(_ a: [Int?], _ cost: [[Double?]]) -> Double {
        var s = 0.0
        for (r, c) in a.enumerated() { if let c, let v = cost[r][c] { s += v } }
        return s
    }

    /// True when the alternative assignment only swaps identical records or identical
    /// transactions (two genuine same-day coffees): not a real ambiguity.
    func interchangeable(best: [Int?], alt: [Int?], rowSet: [Int], colSet: [Int], idx: [Int], records: [IncomingRecord],
                         candidates: [CandidateTransaction]) -> Bool {
        func rowSig(_ r: Int) -> String { let x = records[idx[rowSet[r]]]; return "\(x.date.iso)|\(x.amount.minorUnits)|\(TextSimilarity.tokens(x.description + " " + (x.counterparty ?? "")).sorted())" }
        func colSig(_ c: Int) -> String { let t = candidates[colSet[c]]; return "\(t.date.iso)|\(t.amount.minorUnits)|\(TextSimilarity.tokens(t.description + " " + (t.counterparty ?? "")).sorted())" }
        // Compare the multisets of (row signature, col signature) pairs.
        func multiset(_ a: [Int?]) -> [String: Int] {
            var m: [String: Int] = [:]
            for (r, c) in a.enumerated() { m[rowSig(r) + "->" + (c.map(colSig) ?? "none"), default: 0] += 1 }
            return m
        }
        return multiset(best) == multiset(alt)
    }

    func recordSortKey(_ r: IncomingRecord) -> String {
        "\(r.date.iso)|\(r.amount.minorUnits)|\(r.description)|\(r.counterparty ?? "")|\(r.balance?.minorUnits ?? 0)|\(r.externalID ?? "")"
    }
}
