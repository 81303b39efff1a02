import Foundation
import GRDB
import MoneyFlowCore

extension LedgerStore {
    /// Live transactions in id order after `afterID`, at most `limit`, filtered like
    /// ``transactions(account:from:through:includeAll:)``. Ids only grow (never reused), so
    /// paging by id never skips or repeats a row while imports happen between pages: new
    /// transactions appear on later pages, voided ones drop out.
    public func transactionsPage(
        account: String? = nil, from: LocalDate? = nil, through: LocalDate? = nil, afterID: Int64, limit: Int
    ) throws -> [LedgerTransaction] {
        try transactionsPage(matching: TransactionSearch(account: account, from: from, through: through), afterID: afterID, limit: limit)
    }
}

extension LedgerStore {
    /// The live transaction with this id, as one entry of ``transactionsPage(account:from:through:afterID:limit:)``
    /// gives it; nil when no live transaction has it (never was, or voided).
    public func transaction(id: Int64) throws -> LedgerTransaction? {
        try read { db in
            try Queries.transactions(db, account: nil, from: nil, through: nil, includeAll: false, ids: [id]).first
        }
    }
}
