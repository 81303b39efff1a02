import MoneyFlowCore

extension ExportJournal {
    /// The postings that balance entry `e` (not a transfer folded with its partner): one per
    /// part of the user's split, booked to the part's account with the part's exact amount
    /// (the parts sum to the transaction's amount, so the entry balances), else one to
    /// ``Entry/counterAccount`` (the category's account, or `…:Uncategorized`) with the whole
    /// amount. The amounts are the transaction's side: writers negate them.
    static func counterPostings(_ e: Entry) -> [(account: String, amount: Money)] {
        if e.partner == nil, e.tx.transfer == nil, let parts = e.tx.assignedCategory?.split, !parts.isEmpty {
            return parts.map { ($0.account, $0.amount) }
        }
        return [(e.counterAccount, e.tx.amount)]
    }
}
