import GRDB
import MoneyFlowCore
import MoneyFlowReconcile

extension StoreLedgerView: AliasLedgerView {
    /// Bank x provider record texts of the account's confirmed transactions (see
    /// ``AliasLedgerView``). The evidence is the links' typed `evidence` column, never their
    /// reasons (sentences for people): an engine link holds ``LinkEvidence/carried`` only when
    /// its texts shared nothing and provider ids or an exact date with a unique amount stood
    /// for it; a link without it (text-confirmed, alias-carried, or made before the engine
    /// said so) teaches nothing, so an earlier guess never becomes an alias.
    func confirmedPairings(accountID: Int64, currency: String) throws -> [ConfirmedPairing] {
        let feeds = SourceKind.allCases.filter { $0.role == .feed }.map(\.rawValue)
        let marks = feeds.map { _ in "?" }.joined(separator: ", ")
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT t.id, b.description, b.counterparty, p.description, p.counterparty
                FROM txn t
                JOIN link lb ON lb.transaction_id = t.id JOIN record b ON b.id = lb.record_id
                JOIN link lp ON lp.transaction_id = t.id JOIN record p ON p.id = lp.record_id
                WHERE t.account_id = ? AND t.currency = ? AND t.status = 'active' AND t.needs_review = 0
                  AND b.state = 'active' AND b.source_kind NOT IN (\(marks)) AND b.currency = t.currency
                  AND p.state = 'active' AND p.source_kind IN (\(marks)) AND p.currency = t.currency
                  AND NOT EXISTS (SELECT 1 FROM review rv WHERE rv.record_id IN (b.id, p.id))
                  AND EXISTS (SELECT 1 FROM link e JOIN record x ON x.id = e.record_id AND x.state = 'active'
                              WHERE e.transaction_id = t.id
                                AND (e.decided_by = 'user'
                                     OR (e.decided_by = 'auto' AND e.evidence = ?)))
                ORDER BY t.id, b.id, p.id
                """,
            arguments: StatementArguments(
                [accountID, currency] as [any DatabaseValueConvertible] + feeds + feeds + [LinkEvidence.carried.rawValue]))
        var out: [ConfirmedPairing] = []
        while let row = try rows.next() {
            out.append(
                ConfirmedPairing(
                    transactionID: row[0], bankDescription: row[1], bankCounterparty: row[2],
                    providerDescription: row[3], providerCounterparty: row[4]))
        }
        return out
    }
}
