import MoneyFlowCore

extension ExportJournal {
    /// What the bills of the exported accounts add to a journal: per account, an opening
    /// balance from its first bill's 上期账单金额, one balance assertion per bill from its
    /// 本期还款总额 (at the end of its statement date), and, where a bill's 上期账单金额 is not the
    /// previous bill's 本期还款总额 (bills not imported in between), an entry carrying the
    /// difference, with a note. A card owing more or less than its bills say then fails
    /// bean-check and hledger check: a lost, doubled or changed row is caught. A bill whose
    /// printed 本期还款总额 contradicts its own check (the import warned) is not asserted: the
    /// bill cannot say which of its figures is wrong, so the export notes it instead.
    struct BillBalances {
        /// By `account|currency`: replaces the opening the statement running balances would give.
        var openings: [String: Opening] = [:]
        /// Dated entries against `Equity:Opening-Balances` where the bills do not chain.
        var adjustments: [Opening] = []
        var balances: [Balance] = []
        var notes: [String] = []
    }

    /// The bills' balances for the entries of their accounts. Rows are dated by when the money
    /// moved (交易日), so a bill may list a row dated before the previous statement date, and a
    /// row of a later bill may be dated on or before this one's: an assertion is the bill's
    /// figure moved by the exported rows of other bills dated on the other side of its date
    /// (each row is known to be a bill's by the batch that stored it). A row of no bill is not
    /// moved: money the bills never showed is a difference to see. Beancount dates a folded
    /// transfer at its earlier leg (no posting dates), so its assertions count a transfer leg
    /// from there; hledger's count it on its own date.
    static func billBalances(
        _ bills: [StatementBill], entries: [Entry], accountNames: [String: String]
    ) -> BillBalances {
        var out = BillBalances()
        let exported = Dictionary(entries.map { ($0.tx.id, $0.tx.date) }, uniquingKeysWith: { a, _ in a })
        // A ledger name several store accounts share (`--ledger-name` on purpose) holds rows no
        // one bill series accounts for: its bills cannot be checked there.
        let shared = Set(Dictionary(grouping: accountNames.values, by: { $0 }).filter { $0.value.count > 1 }.keys)
        for (storeName, series) in Dictionary(grouping: bills, by: \.account).sorted(by: { $0.key < $1.key }) {
            guard let account = accountNames[storeName], let currency = series.first?.newBalance.currency else { continue }
            if shared.contains(account) {
                out.notes.append("\(account) is the ledger name of several accounts: the bills of \(storeName) are not asserted")
                continue
            }
            let rows = entries.filter { $0.account == account && $0.tx.amount.currency == currency }.map(\.tx)
            guard !rows.isEmpty else { continue }
            let ordered = series.sorted { ($0.statementDate, $0.month) < ($1.statementDate, $1.month) }
            var billOf: [Int64: Int] = [:]
            for (k, bill) in ordered.enumerated() {
                for t in rows where billOf[t.id] == nil && t.sources.contains(where: { s in s.batchID.map { bill.batchIDs.contains($0) } ?? false }) {
                    billOf[t.id] = k
                }
            }
            func beancountDate(_ t: LedgerTransaction) -> LocalDate {
                guard let link = t.transfer, exported[link.otherTransactionID] != nil else { return t.date }
                return min(t.date, link.otherDate)
            }
            // Sums of checked amounts (store amounts are only limited by Int64).
            func sum(_ txs: [LedgerTransaction]) -> Int64? {
                var total: Int64 = 0
                for t in txs { guard let s = plus(total, t.amount.minorUnits) else { return nil }; total = s }
                return total
            }
            var failed = false
            func money(_ v: Int64?) -> Money? {
                guard let v else { failed = true; return nil }
                return Money(minorUnits: v, currency: currency)
            }
            let firstRow = rows.filter { billOf[$0.id] == 0 }.map(\.date).min() ?? ordered[0].statementDate
            let before = rows.filter { billOf[$0.id] == nil && $0.date < firstRow }
            let openingAmount = money(sum(before).flatMap { minus(-ordered[0].previousBalance.minorUnits, $0) })
            var balances: [Balance] = []
            var openings: [Opening] = []
            for (k, bill) in ordered.enumerated() {
                if k > 0, bill.previousBalance != ordered[k - 1].newBalance {
                    let gap = ordered[k - 1].newBalance.minorUnits - bill.previousBalance.minorUnits
                    openings.append(
                        Opening(
                            account: account, date: ordered[k - 1].statementDate.adding(days: 1),
                            amount: Money(minorUnits: gap, currency: currency),
                            narration: "Bills not imported: \(storeName) \(bill.month) 上期账单金额 is not \(ordered[k - 1].month) 本期还款总额"))
                    out.notes.append(
                        "\(account): the \(bill.month) bill's 上期账单金额 \(bill.previousBalance.decimalString) is not the \(ordered[k - 1].month) bill's 本期还款总额 \(ordered[k - 1].newBalance.decimalString) (a bill not imported?); the difference is booked against \(AccountNaming.openingBalances)"
                    )
                }
                if let gives = bill.checkGives {
                    out.notes.append(
                        "\(account): the \(bill.month) bill's 本期还款总额 \(bill.newBalance.decimalString) is not what its own check gives (\(gives.decimalString)); that bill's balance is not asserted"
                    )
                    continue
                }
                let end = bill.statementDate
                func assertion(_ date: (LedgerTransaction) -> LocalDate) -> Money? {
                    let later = rows.filter { (billOf[$0.id] ?? -1) > k && date($0) <= end }
                    let earlier = rows.filter { t in billOf[t.id].map { $0 <= k } == true && date(t) > end }
                    guard let l = sum(later), let e = sum(earlier), let a = plus(-bill.newBalance.minorUnits, l) else { return money(nil) }
                    return money(minus(a, e))
                }
                guard let hledger = assertion(\.date), let beancount = assertion(beancountDate) else { break }
                var b = Balance(account: account, date: end, amount: hledger, inBeancount: true)
                if beancount != hledger { b.beancountAmount = beancount }
                balances.append(b)
            }
            guard !failed, let openingAmount else {
                out.notes.append("\(account) \(currency): amounts too large to check its bills; no bill balances exported")
                continue
            }
            out.openings[account + "|" + currency] = Opening(account: account, date: rows[0].date, amount: openingAmount)
            out.balances += balances
            out.adjustments += openings
        }
        return out
    }
}
