import MoneyFlowCore
import MoneyFlowReconcile

/// A ledger held in arrays, answering the engine's questions (``LedgerView``,
/// ``AliasLedgerView``) without SQLite, so tests whose subject is the engine plan against it
/// directly. It answers what ``StoreLedgerView`` answers for a store built the same way: the
/// equivalence is itself tested (`InMemoryLedgerViewTests`).
public final class InMemoryLedgerView: AliasLedgerView {
    struct Account { var id: Int64; var keys: Set<String>; var name: String; var facts: AccountFacts? = nil }
    struct Record { var fingerprint: String; var record: ExistingRecord }

    var accounts: [Account] = []
    /// Live transactions, in id order.
    public private(set) var transactions: [CandidateTransaction] = []
    var records: [Record] = []
    var importedFiles: Set<String> = []
    /// Users' `link`/`unlink` decisions by account, kind and fingerprint.
    public var decisions: [String: UserDecision] = [:]
    /// What ``confirmedPairings(accountID:currency:)`` answers (none unless a test says so).
    public var pairings: [ConfirmedPairing] = []

    public init() {}

    /// The ledger as a fresh store holds it after importing `statement` as file `sha256` when no
    /// record links to another (each record its own transaction): accounts get ids 1, 2, ... in
    /// the statement's order, records and transactions get ids in record order.
    /// - Returns: the new transaction ids, one per record.
    @discardableResult
    public func importUnlinked(_ statement: ImportedStatement, sha256: String) -> [Int64] {
        for facts in statement.accounts where accountIndex(key: facts.key) == nil {
            accounts.append(Account(id: Int64(accounts.count + 1), keys: [facts.key], name: facts.suggestedName, facts: facts))
        }
        importedFiles.insert(sha256)
        let fingerprints = Fingerprint.keys(for: statement.records)
        var ids: [Int64] = []
        for (j, r) in statement.records.enumerated() {
            guard let a = accountIndex(key: r.accountKey) else { preconditionFailure("record \(j): no account \(r.accountKey)") }
            let accountID = accounts[a].id
            let id = Int64(transactions.count + 1), recordID = Int64(records.count + 1)
            transactions.append(
                CandidateTransaction(
                    id: id, accountID: accountID, date: r.date, amount: r.amount, description: r.description,
                    counterparty: r.counterparty, pending: r.pending, supportingKinds: [r.sourceKind],
                    otherDates: [r.date], externalIDs: r.externalID.map { [$0] } ?? [], note: r.note, time: r.time,
                    authorizedDates: r.authorizedDate.map { [$0] } ?? [], places: r.place.map { [$0] } ?? []))
            records.append(
                Record(
                    fingerprint: fingerprints[j],
                    record: ExistingRecord(
                        id: recordID, accountID: accountID, transactionID: id, sourceKind: r.sourceKind, externalID: r.externalID,
                        pending: r.pending, state: .active, date: r.date, amount: r.amount)))
            ids.append(id)
        }
        return ids
    }

    /// The engine's plan for `statement` (file `fileName`, hash `sha-<fileName>`) against a
    /// ledger holding `earlier` (each imported unlinked, as file `sha-earlier-<n>`).
    public static func plan(
        _ statement: ImportedStatement, fileName: String = "second", after earlier: [ImportedStatement],
        options: ReconcileOptions = ReconcileOptions()
    ) throws -> (ImportPlan, InMemoryLedgerView) {
        let view = InMemoryLedgerView()
        for (n, st) in earlier.enumerated() { view.importUnlinked(st, sha256: "sha-earlier-\(n)") }
        let plan = try Reconciler(options: options).plan(statement, fileName: fileName, fileSHA256: "sha-\(fileName)", view: view)
        return (plan, view)
    }

    func accountIndex(key: String) -> Int? { accounts.firstIndex { $0.keys.contains(key) } }
    static func decisionKey(_ accountID: Int64, _ kind: SourceKind, _ fingerprint: String) -> String {
        "\(accountID)|\(kind.rawValue)|\(fingerprint)"
    }

    // MARK: LedgerView

    public func accountID(forKey key: String) throws -> Int64? { accountIndex(key: key).map { accounts[$0].id } }
    public func accountID(named name: String) throws -> Int64? { accounts.first { $0.name == name }?.id }
    public func accounts(numberEndingIn last4: String) throws -> [StoredAccount] {
        accounts.compactMap { a in
            guard let f = a.facts, let n = f.number, n.hasSuffix(last4) else { return nil }
            return StoredAccount(
                id: a.id, name: a.name, institution: f.institution, number: n, type: f.type, subtype: f.subtype, provider: f.provider,
                keys: a.keys.sorted())
        }
    }
    public func record(accountID: Int64, kind: SourceKind, fingerprint: String) throws -> ExistingRecord? {
        records.first { $0.record.accountID == accountID && $0.record.sourceKind == kind && $0.fingerprint == fingerprint }?.record
    }
    public func record(kind: SourceKind, externalID: String) throws -> ExistingRecord? {
        records.first { $0.record.sourceKind == kind && $0.record.externalID == externalID }?.record
    }
    public func candidateTransactions(accountID: Int64, currency: String, from: LocalDate, through: LocalDate) throws
        -> [CandidateTransaction]
    {
        transactions.filter { $0.accountID == accountID && $0.amount.currency == currency && $0.date >= from && $0.date <= through }
    }
    public func fileAlreadyImported(sha256: String) throws -> Bool { importedFiles.contains(sha256) }
    public func userDecision(accountID: Int64, kind: SourceKind, fingerprint: String) throws -> UserDecision? {
        decisions[Self.decisionKey(accountID, kind, fingerprint)]
    }

    // MARK: AliasLedgerView

    public func confirmedPairings(accountID: Int64, currency: String) throws -> [ConfirmedPairing] { pairings }
}
