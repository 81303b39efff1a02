import Foundation
import MoneyFlowCore

/// `reconcile --mode memory --series`: around each wrong link, every transaction of that merchant
/// and amount within six days, with its store (state/number), Plaid date, authorization and
/// posting lags, statement row, Plaid record and the plan's decision, on stderr (diagnosis of
/// repeat purchases: which evidence could have told them apart).
func dumpSeries(_ plan: ImportPlan, data: Dataset, stmt: ImportedStatement, plaid: ImportedStatement) {
    var dec = [RecordDecision?](repeating: nil, count: stmt.records.count)
    for e in plan.entries { dec[e.index] = e.decision }
    var stmtRowOfTxn = [Int](repeating: -1, count: data.txns.count)
    for (i, t) in data.statementTxn.enumerated() { stmtRowOfTxn[t] = i }
    func tag(_ t: Dataset.Txn) -> String { data.merchants[t.merchant].stores[t.store].state + "/" + data.merchants[t.merchant].stores[t.store].num }
    var out = ""
    for (i, d) in dec.enumerated() {
        guard case .link(let tid, _, _, _)? = d else { continue }
        let j = Int(tid) - 1
        let x = data.txns[data.statementTxn[i]], l = data.txns[data.plaidTxn[j]]
        guard l.group != x.group, !(data.plaidDay(l) == data.plaidDay(x) && l.amount == x.amount && data.plaidName(l) == data.plaidName(x)) else { continue }
        out += "=== wrong row \(i) -> plaid \(j)\n"
        let lo = x.day - 6, hi = x.day + 6
        for (ti, t) in data.txns.enumerated() where t.merchant == x.merchant && t.amount == x.amount && t.day >= lo && t.day <= hi {
            let r = stmtRowOfTxn[ti], p = data.plaidIndexOfTxn[ti]
            var what = "-"
            if r >= 0, let dd = dec[r] {
                switch dd {
                case .link(let t2, _, _, _): what = "L plaid \(Int(t2) - 1)" + ((Int(t2) - 1) == p ? " ok" : " WRONG")
                case .needsReview: what = "review"
                case .new: what = "new"
                default: what = dd.label
                }
            }
            out += "  txn \(ti) g\(t.group) \(tag(t)) plaid date \(LocalDate(dayNumber: data.plaidDay(t)).iso) auth \(LocalDate(dayNumber: data.authorizedDay(t)).iso) | bank row \(r >= 0 ? "\(r) \(LocalDate(dayNumber: data.postingDay(t)).iso)" : "none") | plaid \(p) | \(what)\n"
        }
    }
    FileHandle.standardError.write(Data(out.utf8))
}

