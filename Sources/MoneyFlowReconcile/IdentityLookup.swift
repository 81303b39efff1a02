import MoneyFlowCore

/// Answers the planner's identity questions (known fingerprint? known provider id? user
/// decision?) from a few bulk queries when the store supports them, record by record otherwise.
struct IdentityLookup {
    let view: any LedgerView
    var byFingerprint: [String: [String: ExistingRecord]]? = nil   // "account|kind" -> fingerprint -> record
    var byExternal: [SourceKind: [String: ExistingRecord]]? = nil
    var decisions: [String: [String: UserDecision]]? = nil

    init(records: [IncomingRecord], fingerprints: [String], accountIDs: [String: Int64], removals: [String], view: any LedgerView) throws {
        self.view = view
        guard let bulk = view as? any BulkLedgerView, records.count + removals.count > 64 else { return }
        var fpGroups: [String: (Int64, SourceKind, [String])] = [:]
        var extGroups: [SourceKind: [String]] = [:]
        for (i, r) in records.enumerated() {
            guard let a = accountIDs[r.accountKey] else { continue }
            let key = "\(a)|\(r.sourceKind.rawValue)"
            fpGroups[key, default: (a, r.sourceKind, [])].2.append(fingerprints[i])
            if let e = r.externalID { extGroups[r.sourceKind, default: []].append(e) }
            if let p = r.pendingExternalID { extGroups[.plaid, default: []].append(p) }
        }
        extGroups[.plaid, default: []] += removals
        var fp: [String: [String: ExistingRecord]] = [:]
        var dec: [String: [String: UserDecision]] = [:]
        for (key, g) in fpGroups {
            fp[key] = try bulk.bulkRecords(accountID: g.0, kind: g.1, fingerprints: g.2)
            dec[key] = try bulk.userDecisions(accountID: g.0, kind: g.1)
        }
        var ext: [SourceKind: [String: ExistingRecord]] = [:]
        for (kind, ids) in extGroups { ext[kind] = try bulk.bulkRecords(kind: kind, externalIDs: ids) }
        byFingerprint = fp; byExternal = ext; decisions = dec
    }

    func record(accountID: Int64, kind: SourceKind, fingerprint: String) throws -> ExistingRecord? {
        if let m = byFingerprint { return m["\(accountID)|\(kind.rawValue)"]?[fingerprint] }
        return try view.record(accountID: accountID, kind: kind, fingerprint: fingerprint)
    }

    func record(kind: SourceKind, externalID: String) throws -> ExistingRecord? {
        if let m = byExternal { return m[kind]?[externalID] }
        return try view.record(kind: kind, externalID: externalID)
    }

    func userDecision(accountID: Int64, kind: SourceKind, fingerprint: String) throws -> UserDecision? {
        if let d = decisions { return d["\(accountID)|\(kind.rawValue)"]?[fingerprint] }
        return try view.userDecision(accountID: accountID, kind: kind, fingerprint: fingerprint)
    }
}
