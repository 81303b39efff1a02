import MoneyFlowCore

/// Answers the planner's identity questions (known fingerprint? known provider id? user
/// decision?) from a few bulk queries when the store supports them, record by record otherwise.
struct IdentityLookup {
    let view: any LedgerView
    /// An account and a source kind: the scope of fingerprints and user decisions.
    struct Scope: Hashable { var accountID: Int64; var kind: SourceKind }
    var byFingerprint: [Scope: [String: ExistingRecord]]? = nil
    var byExternal: [SourceKind: [String: ExistingRecord]]? = nil
    var decisions: [Scope: [String: UserDecision]]? = nil

    init(records: [IncomingRecord], fingerprints: [String], accountIDs: [String: Int64], removals: [String], view: any LedgerView) throws {
        self.view = view
        guard let bulk = view as? any BulkLedgerView, records.count + removals.count > 64 else { return }
        var fpGroups: [Scope: [String]] = [:]
        var extGroups: [SourceKind: [String]] = [:]
        for (i, r) in records.enumerated() {
            guard let a = accountIDs[r.accountKey] else { continue }
            fpGroups[Scope(accountID: a, kind: r.sourceKind), default: []].append(fingerprints[i])
            if let e = r.externalID, r.externalIDScope == nil { extGroups[r.sourceKind, default: []].append(e) }
            if let p = r.pendingExternalID { extGroups[r.sourceKind, default: []].append(p) }
        }
        for kind in Self.removalSenders { extGroups[kind, default: []] += removals }
        var fp: [Scope: [String: ExistingRecord]] = [:]
        var dec: [Scope: [String: UserDecision]] = [:]
        for (scope, g) in fpGroups {
            fp[scope] = try bulk.bulkRecords(accountID: scope.accountID, kind: scope.kind, fingerprints: g)
            dec[scope] = try bulk.userDecisions(accountID: scope.accountID, kind: scope.kind)
        }
        var ext: [SourceKind: [String: ExistingRecord]] = [:]
        for (kind, ids) in extGroups { ext[kind] = try bulk.bulkRecords(kind: kind, externalIDs: ids) }
        byFingerprint = fp; byExternal = ext; decisions = dec
    }

    func record(accountID: Int64, kind: SourceKind, fingerprint: String) throws -> ExistingRecord? {
        if let m = byFingerprint { return m[Scope(accountID: accountID, kind: kind)]?[fingerprint] }
        return try view.record(accountID: accountID, kind: kind, fingerprint: fingerprint)
    }

    func record(kind: SourceKind, externalID: String) throws -> ExistingRecord? {
        if let m = byExternal { return m[kind]?[externalID] }
        return try view.record(kind: kind, externalID: externalID)
    }

    /// The kinds of source that send removals of their own records (``SourceKind/sendsPendingRecords``).
    static let removalSenders = SourceKind.allCases.filter(\.sendsPendingRecords)

    /// The stored record a provider's removal names: a record of a source that sends removals.
    func removed(_ externalID: String) throws -> ExistingRecord? {
        for kind in Self.removalSenders { if let ex = try record(kind: kind, externalID: externalID) { return ex } }
        return nil
    }

    func userDecision(accountID: Int64, kind: SourceKind, fingerprint: String) throws -> UserDecision? {
        if let d = decisions { return d[Scope(accountID: accountID, kind: kind)]?[fingerprint] }
        return try view.userDecision(accountID: accountID, kind: kind, fingerprint: fingerprint)
    }
}
