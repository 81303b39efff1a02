import MoneyFlowCore

/// A re-linked bank's new Plaid item re-delivers what the old item delivered: each posted
/// transaction again, with the same date, amount, name and merchant, under new ids. Where
/// several transactions of one day are identical (two fares, two coffees), nothing tells the
/// copies apart, and nothing needs to: identical rows are interchangeable, so k of them from the
/// old item and k from the new one are k links, paired by count before any scoring (k old and
/// k + 1 new: k links and one new transaction). Scoring them as an assignment instead lets
/// near-equal alternatives (the same fare a day later, an authorized date that reaches across
/// days) look like ties, and every tie goes to review as a new transaction: duplicates.
///
/// Only posted Plaid rows with a known Plaid account, against posted transactions that Plaid
/// records of other Plaid accounts alone support (of another item: never the row's own account
/// nor an account of the file's item, see ``MatchGroup/otherPlaidAccountsOnly(record:candidate:)``),
/// with exactly the row's date, amount, description and merchant.
enum IdenticalRedelivery {
    struct Key: Hashable {
        var day: Int
        var amount: Int64
        var description: String
        var counterparty: String?
    }

    /// The rows (indexes into `records`) paired with a transaction (index into `candidates`).
    /// A reopened row (`current` gives the transaction it is linked to now) keeps that
    /// transaction when it is among its identical ones, so planning again moves nothing.
    static func pairs(
        rows: [Int], records: [IncomingRecord], plaidAccountIDs: [String?], candidates: [CandidateTransaction],
        sameItemPlaidAccounts: Set<String>, current: [Int: Int64]
    ) -> [(row: Int, candidate: Int)] {
        var columns: [Key: [Int]] = [:]
        // Fields are read in place: a copy of each transaction would retain every one of its texts.
        for c in candidates.indices
        where !candidates[c].pending && !candidates[c].plaidAccountIDs.isEmpty && !candidates[c].supportingKinds.isEmpty
            && candidates[c].supportingKinds.allSatisfy(\.hasProviderAccountIDs)
            && candidates[c].plaidAccountIDs.allSatisfy({ !$0.isEmpty && !sameItemPlaidAccounts.contains($0) })
        {
            let t = candidates[c]
            let key = Key(day: t.date.dayNumber, amount: t.amount.minorUnits, description: t.description, counterparty: t.counterparty)
            columns[key, default: []].append(c)
        }
        guard !columns.isEmpty else { return [] }
        var byKey: [Key: [Int]] = [:]
        for i in rows {
            guard records[i].sourceKind.hasProviderAccountIDs, !records[i].pending, i < plaidAccountIDs.count, plaidAccountIDs[i] != nil
            else { continue }
            let r = records[i]
            let key = Key(day: r.date.dayNumber, amount: r.amount.minorUnits, description: r.description, counterparty: r.counterparty)
            if columns[key] != nil { byKey[key, default: []].append(i) }
        }
        var out: [(row: Int, candidate: Int)] = []
        var used = Set<Int>()
        // Keys and rows in content order (provider id, then position, last): the same pairs
        // whatever the order of the file.
        let keys = byKey.keys.sorted {
            ($0.day, $0.amount, $0.description, $0.counterparty ?? "") < ($1.day, $1.amount, $1.description, $1.counterparty ?? "")
        }
        for key in keys {
            let cols = columns[key]!.sorted { candidates[$0].id < candidates[$1].id }
            let group = byKey[key]!.sorted { (records[$0].externalID ?? "", $0) < (records[$1].externalID ?? "", $1) }
            func eligible(_ i: Int, _ c: Int) -> Bool {
                !used.contains(c) && !candidates[c].plaidAccountIDs.contains(plaidAccountIDs[i]!)
            }
            var open: [Int] = []
            for i in group {
                if let t = current[i], let c = cols.first(where: { candidates[$0].id == t }), eligible(i, c) {
                    used.insert(c)
                    out.append((i, c))
                } else {
                    open.append(i)
                }
            }
            for i in open {
                guard let c = cols.first(where: { eligible(i, $0) }) else { continue }
                used.insert(c)
                out.append((i, c))
            }
        }
        return out
    }

    /// The link of a row to its identical transaction, with reasons as every link has them.
    static func decision(transactionID: Int64, amount: Money) -> RecordDecision {
        .link(
            transactionID: transactionID, score: Scoring.pairScore(lag: 0, similarity: 1, externalIDAgrees: false),
            reasons: [
                MatchReason("amount", "equal \(amount.decimalString)"), MatchReason("date", "0 day(s) apart"),
                MatchReason("text", "similarity 1.00"),
                MatchReason(
                    "identical", "the same date, amount and text as another Plaid item's record (a re-linked bank): paired by count"),
            ])
    }
}
