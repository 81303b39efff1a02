import Foundation
import MoneyFlowCore

extension Reconciler {
    /// Matches the open rows against stored transactions, per account and currency. Stored
    /// records the engine decided earlier within reach of these rows (see ``Scoring/reopenMargin``)
    /// are planned again together with them, as if they arrived in this same file; those
    /// whose decision changes come back as relinks. Records in `settled` (updated, superseded
    /// or removed by this plan) are not reopened. `sameItemPlaidAccounts`: the Plaid accounts of
    /// this file's item, whose records a Plaid row never joins.
    func match(
        open: [Int], records: [IncomingRecord], accountOf: [Int64?], view: any LedgerView,
        removedIDs: Set<String>, claimedPending: Set<Int64>, settled: Set<Int64>, sameItemPlaidAccounts: Set<String> = []
    ) throws -> (decisions: [(Int, RecordDecision)], relinks: [RelinkEffect]) {
        guard !open.isEmpty else { return ([], []) }
        // Group by account and currency (in the order of their `account|currency` spelling);
        // fetch candidates once per group.
        var groups: [GroupKey: [Int]] = [:]
        for i in open { groups[GroupKey(accountID: accountOf[i]!, currency: records[i].amount.currency), default: []].append(i) }
        var out: [(Int, RecordDecision)] = []
        var relinks: [RelinkEffect] = []
        for key in groups.keys.sorted(by: { $0.spelled < $1.spelled }) {
            var idx = groups[key]!
            let firstAccountKey = records[idx[0]].accountKey
            let accountID = key.accountID
            let currency = key.currency
            var lo = Int.max, hi = Int.min
            for i in idx { let d = records[i].date.dayNumber; lo = min(lo, d); hi = max(hi, d) }
            let window = max(options.dateWindowDays, options.pendingWindowDays)
            var reopening = Reopening()
            if options.reopenEarlierDecisions, let reopener = view as? any ReopeningLedgerView {
                let kinds = Set(idx.map { records[$0].sourceKind })
                let margin = Scoring.reopenMargin * window
                reopening = try reopener.reopenable(
                    accountID: accountID, currency: currency, kinds: kinds,
                    from: LocalDate(dayNumber: lo - margin), through: LocalDate(dayNumber: hi + margin),
                    except: settled, plaidAccountIDs: Set(idx.compactMap { Self.plaidAccountID(records, $0) }))
            }
            var rows = records
            var plaidAccountIDs = records.indices.map { Self.plaidAccountID(records, $0) }
            if !reopening.records.isEmpty {
                // Reopened records join as extra rows after the file's own.
                for r in reopening.records {
                    idx.append(rows.count)
                    var rec = r.record
                    rec.accountKey = firstAccountKey
                    rows.append(rec)
                    plaidAccountIDs.append(rec.sourceKind.hasProviderAccountIDs ? r.plaidAccountID : nil)
                    lo = min(lo, rec.date.dayNumber); hi = max(hi, rec.date.dayNumber)
                }
            }
            // Wide enough to see whether an amount is unique near each row (TextlessLinkRule).
            let reach = max(window, Scoring.uniqueAmountWindowDays)
            var candidates = try view.candidateTransactions(
                accountID: accountID, currency: currency,
                from: LocalDate(dayNumber: lo - reach), through: LocalDate(dayNumber: hi + reach))
            if !reopening.remainders.isEmpty {
                // A transaction is offered as it would be without its reopened records.
                candidates = candidates.compactMap { c in
                    if let remainder = reopening.remainders[c.id] { return remainder }
                    return c
                }
            }
            // A re-linked bank's identical re-deliveries pair by count first (IdenticalRedelivery).
            var current: [Int: Int64] = [:]
            for (k, r) in reopening.records.enumerated() where r.standing == .linked { current[records.count + k] = r.transactionID }
            let identical = IdenticalRedelivery.pairs(
                rows: idx, records: rows, plaidAccountIDs: plaidAccountIDs, candidates: candidates,
                sameItemPlaidAccounts: sameItemPlaidAccounts, current: current)
            let early = identical.map { p in
                (p.row, IdenticalRedelivery.decision(transactionID: candidates[p.candidate].id, amount: rows[p.row].amount))
            }
            if !identical.isEmpty {
                let pairedRows = Set(identical.map(\.row)), pairedColumns = Set(identical.map(\.candidate))
                idx = idx.filter { !pairedRows.contains($0) }
                candidates = candidates.indices.filter { !pairedColumns.contains($0) }.map { candidates[$0] }
                out += early.filter { $0.0 < records.count }
            }
            guard !candidates.isEmpty, !idx.isEmpty else {
                relinks += Self.relinks(reopening, base: records.count, decisions: early)
                continue
            }
            var group = MatchGroup(
                rows: idx, records: rows, candidates: candidates, options: options, firstReopened: records.count,
                plaidAccountIDs: plaidAccountIDs, sameItemPlaidAccounts: sameItemPlaidAccounts)
            // The ledger teaches aliases through transactions this plan does not re-decide:
            // a reopened record's transaction speaks through the plan itself (as one combined
            // file would), never twice.
            let replanned = Set(reopening.records.map(\.transactionID))
            let ledgerPairings: () throws -> [ConfirmedPairing] = {
                guard let aliases = view as? any AliasLedgerView else { return [] }
                return try aliases.confirmedPairings(accountID: accountID, currency: currency).filter {
                    !replanned.contains($0.transactionID)
                }
            }
            try group.findPairs(view: view, removedIDs: removedIDs, claimedPending: claimedPending, ledgerPairings: ledgerPairings)
            let decided = group.decide()
            guard !reopening.records.isEmpty else {
                out += decided // only the file's own rows: nothing to resolve or relink
                continue
            }
            out += decided.filter { $0.0 < records.count }.map { ($0.0, Self.resolve($0.1, base: records.count)) }
            relinks += Self.relinks(reopening, base: records.count, decisions: decided + early)
        }
        return (out, relinks)
    }

    /// The provider's account id of an incoming record of a source that has them
    /// (``SourceKind/hasProviderAccountIDs``): its account key (`<kind>:<account_id>`, e.g.
    /// `plaid:<account_id>`, ``AccountFacts/key``) says it; nil for other sources.
    static func plaidAccountID(_ r: IncomingRecord) -> String? {
        let prefix = r.sourceKind.rawValue + ":"
        guard r.sourceKind.hasProviderAccountIDs, r.accountKey.hasPrefix(prefix) else { return nil }
        let id = String(r.accountKey.dropFirst(prefix.count))
        return id.isEmpty ? nil : id
    }

    /// ``plaidAccountID(_:)`` of `records[i]`, read in place (a copy of the record would retain
    /// every one of its texts).
    static func plaidAccountID(_ records: [IncomingRecord], _ i: Int) -> String? {
        guard records[i].sourceKind.hasProviderAccountIDs else { return nil }
        return plaidAccountID(records[i])
    }

    /// The store account and currency a group of rows is matched in.
    struct GroupKey: Hashable {
        var accountID: Int64
        var currency: String
        /// The order groups are planned in.
        var spelled: String { "\(accountID)|\(currency)" }
    }

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
            case (.linked, .link(let t, _, _, _)): unchanged = t == r.transactionID
            case (.standalone, .new), (.review, .needsReview): unchanged = true
            default: unchanged = false
            }
            if !unchanged {
                out.append(
                    RelinkEffect(recordID: r.recordID, fromTransactionID: r.transactionID, from: r.standing, decision: d, record: r.record))
            }
        }
        return out
    }

    /// A review candidate "this transaction, which another row wants as much" may name a
    /// reopened row; that row is not an entry of the plan, so only the transaction is kept.
    static func resolve(_ d: RecordDecision, base: Int) -> RecordDecision {
        guard case .needsReview(let candidates) = d, candidates.contains(where: { ($0.incomingIndex ?? -1) >= base }) else { return d }
        return .needsReview(
            candidates: candidates.map { c in
                guard let i = c.incomingIndex, i >= base else { return c }
                var c = c
                c.incomingIndex = nil
                return c
            })
    }
}
