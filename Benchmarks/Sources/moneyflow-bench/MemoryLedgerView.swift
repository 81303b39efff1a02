import MoneyFlowCore

/// ``LedgerView`` over plain arrays: the store as it is right after importing `plaid` into a
/// fresh database (account 1, transaction k and record k = Plaid record k-1), so the engine can
/// be timed without SQLite. Answers exactly what ``StoreLedgerView`` would answer for that store.
final class MemoryLedgerView: LedgerView {
    let accountName: String
    var keys: [String: Int64] = [:]
    /// Candidate transactions in id order (= date order: the feed is sorted by date).
    var candidates: [CandidateTransaction] = []
    var byExternal: [String: ExistingRecord] = [:]
    var byFingerprint: [String: ExistingRecord] = [:]

    init(plaid: ImportedStatement, accountName: String) {
        self.accountName = accountName
        for a in plaid.accounts { keys[a.key] = 1 }
        let fps = Fingerprint.keys(for: plaid.records)
        candidates.reserveCapacity(plaid.records.count)
        byExternal.reserveCapacity(plaid.records.count)
        for (j, r) in plaid.records.enumerated() {
            let id = Int64(j + 1)
            // As StoreLedgerView builds them: the supporting records' dates, their authorized dates apart.
            let other: InlineList<LocalDate> = [r.date]
            candidates.append(CandidateTransaction(id: id, accountID: 1, date: r.date, amount: r.amount, description: r.description,
                                                   counterparty: r.counterparty, pending: r.pending, supportingKinds: [r.sourceKind],
                                                   otherDates: other, externalIDs: r.externalID.map { [$0] } ?? [],
                                                   authorizedDates: r.authorizedDate.map { [$0] } ?? [], places: r.place.map { [$0] } ?? []))
            let ex = ExistingRecord(id: id, accountID: 1, transactionID: id, sourceKind: r.sourceKind, externalID: r.externalID,
                                    pending: r.pending, state: .active, date: r.date, amount: r.amount)
            if let e = r.externalID { byExternal[e] = ex }
            byFingerprint[fps[j]] = ex
        }
        precondition(zip(candidates, candidates.dropFirst()).allSatisfy { $0.date <= $1.date }, "feed must be in date order")
    }

    func accountID(forKey key: String) throws -> Int64? { keys[key] }
    func accountID(named name: String) throws -> Int64? { name == accountName ? 1 : nil }
    func record(accountID: Int64, kind: SourceKind, fingerprint: String) throws -> ExistingRecord? {
        guard accountID == 1, kind == .plaid else { return nil }
        return byFingerprint[fingerprint]
    }
    func record(kind: SourceKind, externalID: String) throws -> ExistingRecord? {
        kind == .plaid ? byExternal[externalID] : nil
    }
    func candidateTransactions(accountID: Int64, currency: String, from: LocalDate, through: LocalDate) throws -> [CandidateTransaction] {
        guard accountID == 1, currency == "USD" else { return [] }
        // Binary search the date range (candidates are in date order).
        func lowerBound(_ d: LocalDate) -> Int {
            var lo = 0, hi = candidates.count
            while lo < hi { let mid = (lo + hi) / 2; if candidates[mid].date < d { lo = mid + 1 } else { hi = mid } }
            return lo
        }
        let lo = lowerBound(from)
        var hi = lo
        while hi < candidates.count && candidates[hi].date <= through { hi += 1 }
        return Array(candidates[lo..<hi])
    }
    func fileAlreadyImported(sha256: String) throws -> Bool { false }
    func userDecision(accountID: Int64, kind: SourceKind, fingerprint: String) throws -> UserDecision? { nil }
}
