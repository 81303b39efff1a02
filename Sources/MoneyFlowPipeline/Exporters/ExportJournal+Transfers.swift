import MoneyFlowCore

extension ExportJournal {
    /// A transfer between two exported accounts becomes ONE entry with two postings (money
    /// out of one account, into the other), so a card repayment is never an expense plus an
    /// income. The entry takes the place and date of the earlier leg; the later leg's posting
    /// keeps its own date for hledger (a posting date), and its balance assertion (the day's
    /// closing balance of its account) stays where the leg was, as an assertion of its own:
    /// the entry may now come before other rows of that account's day.
    ///
    /// Beancount has no posting dates: when the legs are days apart, the later account holds
    /// the money from the earlier date on, so its statement balances dated in between cannot
    /// be asserted there (they stay asserted in hledger). A leg whose other leg is not
    /// exported keeps its own entry, balanced against the other account (never an expense).
    static func foldTransfers(_ entries: [Entry]) -> [Item] {
        var position = [Int64: Int]()
        var byAccount = [String: [Int]]()
        for (i, e) in entries.enumerated() {
            position[e.tx.id] = i
            byAccount[e.account, default: []].append(i)
        }
        // (earlier, later) leg indices of each transfer whose two legs are both exported.
        var pairs: [(keep: Int, fold: Int)] = []
        for (i, e) in entries.enumerated() {
            guard let other = e.tx.transfer.flatMap({ position[$0.otherTransactionID] }), other != i else { continue }
            let keep = (entries[i].tx.date, i) <= (entries[other].tx.date, other) ? i : other
            if keep == i { pairs.append((i, other)) }
        }
        var out = entries
        for (keep, fold) in pairs where entries[fold].tx.date > entries[keep].tx.date {
            for k in byAccount[entries[fold].account] ?? [] where k != fold {
                let d = entries[k].tx.date
                if d >= entries[keep].tx.date && d < entries[fold].tx.date { out[k].assertionInBeancount = false }
            }
        }
        var folded = [Int: Balance?]()
        for (keep, fold) in pairs {
            let f = out[fold]
            out[keep].partner = Partner(tx: f.tx, account: f.account)
            // `.some(nil)`: folded, with no balance to assert (assigning nil would not record it).
            folded[fold] = .some(
                f.assertion.map { Balance(account: f.account, date: f.tx.date, amount: $0, inBeancount: f.assertionInBeancount) })
        }
        return out.indices.compactMap { i in
            guard let balance = folded[i] else { return .entry(out[i]) }
            return balance.map { .balance($0) }
        }
    }

    /// ` @@ 7234.50 CNY`: a transfer leg in another currency than the entry's first leg carries
    /// that leg's amount as its total price, so the entry balances in beancount and hledger
    /// (1000.00 USD bought with 7234.50 CNY); empty when both legs share a currency. The price
    /// is unsigned (the posting's own amount gives the sign), as both tools expect.
    static func totalCost(of leg: LedgerTransaction, against first: LedgerTransaction) -> String {
        guard leg.amount.currency != first.amount.currency else { return "" }
        let m = first.amount
        let unsigned = m.minorUnits < 0 ? negatedText(m) : m.decimalString
        return " @@ \(unsigned) \(m.currency)"
    }
}
