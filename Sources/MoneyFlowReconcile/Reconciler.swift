import Foundation
import MoneyFlowCore

/// Tunables of the matching engine.
public struct ReconcileOptions: Sendable, Hashable {
    /// Largest date gap (days) between a bank record and a provider record of the same
    /// transaction (posting lag; authorized dates count too).
    public var dateWindowDays: Int = Scoring.dateWindowDays
    /// Largest gap (days) between a pending record and the posted record that replaces it.
    public var pendingWindowDays: Int = Scoring.pendingWindowDays
    /// How much a posted amount may exceed its pending amount (tips), as a fraction.
    public var tipAllowance: Double = Scoring.tipAllowance
    /// Best and second-best assignments closer than this (in score units) are not guessed:
    /// the records go to review.
    public var reviewMargin: Double = Scoring.reviewMargin
    /// Below this text similarity (0...1, rare tokens weigh more) a pair is linked only when no
    /// other transaction of the same amount is in the window on either side; otherwise it goes
    /// to review: amount and date alone cannot tell same-priced purchases apart.
    public var minimumTextSimilarity: Double = Scoring.minimumTextSimilarity
    /// Re-plan earlier engine decisions near the new rows together with them (relinks), so
    /// overlapping files give the same ledger in any order.
    public var reopenEarlierDecisions = true
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
        let (accounts, accountWarnings) = try resolveAccounts(statement, view: view)
        statement.warnings += accountWarnings
        var accountIDs: [String: Int64] = [:]
        for a in accounts { if let id = a.accountID { accountIDs[a.key] = id } }
        if let override = options.accountOverride, let id = try view.accountID(named: override) {
            var lastKey: String? = nil
            for i in records.indices where records[i].accountKey != lastKey {
                lastKey = records[i].accountKey
                accountIDs[records[i].accountKey] = id
            }
        }
        let fingerprints = Fingerprint.keys(for: records)
        let accountOf = Self.accounts(of: records, accountIDs)
        var decisions = [RecordDecision?](repeating: nil, count: records.count)
        var incomingByExternal: [String: Int] = [:]
        for i in records.indices { if let e = records[i].externalID { incomingByExternal[e] = i } }
        var supersededPending = Set<Int64>() // store record ids superseded in this update

        // 1. Identity: provider id, fingerprint, user decisions, provider pending->posted.
        let lookup = try IdentityLookup(
            records: records, fingerprints: fingerprints, accountIDs: accountIDs,
            removals: statement.removals.map(\.externalID), view: view)
        // Fields are read in place: a copy of each record would retain every one of its texts.
        for i in records.indices {
            let accountID = accountOf[i]
            let kind = records[i].sourceKind
            if let accountID {
                // A scoped id (OFX FITID) is known by its fingerprint, which holds the scope.
                if let ext = records[i].externalID, records[i].externalIDScope == nil, let ex = try lookup.record(kind: kind, externalID: ext),
                    ex.accountID == accountID
                {
                    decisions[i] = statement.modifiedExternalIDs.contains(ext) ? .update(recordID: ex.id) : .alreadyPresent(recordID: ex.id)
                    continue
                }
                if let ex = try lookup.record(accountID: accountID, kind: kind, fingerprint: fingerprints[i]) {
                    decisions[i] =
                        statement.modifiedExternalIDs.contains(records[i].externalID ?? "")
                        ? .update(recordID: ex.id) : .alreadyPresent(recordID: ex.id)
                    continue
                }
                if let user = try lookup.userDecision(accountID: accountID, kind: kind, fingerprint: fingerprints[i]) {
                    switch user {
                    case .linked(let t):
                        decisions[i] = .link(transactionID: t, score: 1, reasons: [MatchReason("user", "linked by user earlier")])
                    case .standalone: decisions[i] = .new
                    }
                    continue
                }
            }
            if let p = records[i].pendingExternalID, !records[i].pending {
                if let j = incomingByExternal[p], j < i, records[j].pending {
                    decisions[i] = .supersedeIncoming(pendingIndex: j, reasons: [MatchReason("pending_transaction_id", p)])
                    continue
                }
                if let accountID, let px = try lookup.record(kind: kind, externalID: p), px.accountID == accountID,
                    let t = px.transactionID
                {
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
        for i in records.indices where decisions[i] == nil && accountOf[i] != nil { open.append(i) }
        // Stored records this plan already settles (provider updates, superseded pendings,
        // removals) keep their place: the provider's lifecycle decides them, not matching.
        var settled = supersededPending
        for d in decisions { if case .update(let id)? = d { settled.insert(id) } }
        for rem in statement.removals { if let ex = try lookup.removed(rem.externalID) { settled.insert(ex.id) } }
        // One file holds one provider item's accounts: those are other accounts of that bank,
        // never the same one again (see ``MatchGroup/otherPlaidAccountsOnly(record:candidate:)``).
        let sameItem = Set(
            statement.accounts.compactMap { $0.provider != nil ? $0.providerAccountID : nil } + records.indices.compactMap { Self.plaidAccountID(records, $0) })
        let matches = try match(
            open: open, records: records, accountOf: accountOf, view: view, removedIDs: removedIDs,
            claimedPending: supersededPending, settled: settled, sameItemPlaidAccounts: sameItem)
        for (i, d) in matches.decisions {
            decisions[i] = d
            if case .supersede(let pid, _, _) = d { supersededPending.insert(pid) }
        }

        // 3. Everything else is new.
        let entries = records.indices.map { i in PlanEntry(index: i, fingerprint: fingerprints[i], decision: decisions[i] ?? .new) }

        // 4. Provider removals.
        var removals: [RemovalEffect] = []
        for rem in statement.removals {
            if let ex = try lookup.removed(rem.externalID),
                ex.state == .active || supersededPending.contains(ex.id)
            {
                if let key = rem.accountKey, let acc = accountIDs[key], acc != ex.accountID { continue }
                removals.append(
                    RemovalEffect(externalID: rem.externalID, recordID: ex.id, supersededInThisUpdate: supersededPending.contains(ex.id)))
            } else {
                removals.append(RemovalEffect(externalID: rem.externalID, recordID: nil, supersededInThisUpdate: false))
            }
        }
        return ImportPlan(
            fileName: fileName, fileSHA256: fileSHA256, statement: statement, accounts: accounts, entries: entries,
            removals: removals, relinks: matches.relinks)
    }

    /// The store account of each record (nil when its account is not in the store yet). Records
    /// of one file share their account key, so a key equal to the previous record's is not
    /// looked up again.
    static func accounts(of records: [IncomingRecord], _ accountIDs: [String: Int64]) -> [Int64?] {
        var out = [Int64?](repeating: nil, count: records.count)
        var lastKey: String? = nil, lastID: Int64? = nil
        for i in records.indices {
            if records[i].accountKey != lastKey {
                lastKey = records[i].accountKey
                lastID = accountIDs[records[i].accountKey]
            }
            out[i] = lastID
        }
        return out
    }

    /// Within one update a transaction may be added then modified, or added then removed:
    /// keep the last version, and drop records that the same update removes.
    static func collapseProviderDuplicates(_ s: inout ImportedStatement) {
        // Nothing to collapse without provider ids (bank statements, CSV exports).
        guard !s.removals.isEmpty || s.records.contains(where: { $0.externalID != nil || $0.pendingExternalID != nil }) else { return }
        let removed = Set(s.removals.map(\.externalID))
        // Scoped ids (OFX FITIDs, unique only within their account) are no provider lifecycle:
        // two accounts' equal FITIDs are two records.
        var lastIndex: [String: Int] = [:]
        for (i, r) in s.records.enumerated() where r.externalIDScope == nil { if let e = r.externalID { lastIndex[e] = i } }
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
            guard let e = r.externalID, r.externalIDScope == nil else { kept.append(r); continue }
            if lastIndex[e] != i || removed.contains(e) || supersededLater.contains(e) { continue }
            kept.append(r)
        }
        guard kept.count != s.records.count else { return }
        // Removals of records never stored are harmless; they stay for the audit trail.
        s.records = kept
    }

    /// Each account of the file: by override, by its known key, on the store account a
    /// re-linked bank's account already has (``relinkTargets(_:view:)``), or a new account;
    /// with the warnings that say where a re-linked account landed or why it could not.
    func resolveAccounts(_ s: ImportedStatement, view: any LedgerView) throws -> ([AccountResolution], [ImportWarning]) {
        var out: [AccountResolution] = []
        var usedNames = Set<String>()
        let relink = options.accountOverride == nil ? try relinkTargets(s.accounts, view: view) : RelinkTargets()
        let cards = options.accountOverride == nil ? try cardTargets(s.accounts, view: view) : RelinkTargets()
        for f in s.accounts {
            if let override = options.accountOverride {
                out.append(AccountResolution(key: f.key, accountID: try view.accountID(named: override), name: override, facts: f))
                continue
            }
            if let id = try view.accountID(forKey: f.key) {
                out.append(AccountResolution(key: f.key, accountID: id, name: f.suggestedName, facts: f))
                continue
            }
            if let target = relink.landing[f.key] ?? cards.landing[f.key], !cards.adopting.contains(f.key) {
                out.append(AccountResolution(key: f.key, accountID: target.id, name: target.name, facts: f))
                continue
            }
            var name = f.suggestedName
            var n = 2
            let adopted = cards.landing[f.key]
            // A name is free when no other account holds it (the adopted account may keep its own).
            func taken(_ name: String) throws -> Bool {
                if usedNames.contains(name) { return true }
                guard let holder = try view.accountID(named: name) else { return false }
                return holder != adopted?.id
            }
            while try taken(name) { name = "\(f.suggestedName) (\(n))"; n += 1 }
            usedNames.insert(name)
            out.append(AccountResolution(key: f.key, accountID: adopted?.id, name: name, facts: f, adoptsFacts: adopted.map { _ in true }))
        }
        return (out, relink.warnings + cards.warnings)
    }
}
