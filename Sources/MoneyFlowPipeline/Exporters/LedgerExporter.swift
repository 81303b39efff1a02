import Foundation
import MoneyFlowCore

/// hledger journal export (plain ledger syntax where the two agree).
///
/// `account` and `commodity` declarations come first so `hledger check --strict` passes; then
/// one transaction per ledger transaction, `YYYY-MM-DD [!] payee | description` (`!` when
/// pending), the account posting with the exact amount and, when it is the day's last row of
/// its currency carrying a statement balance, a balance assertion `= 123.45 CNY`; then the
/// balancing posting to its category's account (one per part of a split), else
/// `Expenses:`/`Income:`/`Equity:Uncategorized`, or for a transfer between
/// own accounts the other account's posting (dated `; date:` when its leg is on another day;
/// across currencies with the first posting's amount as its total cost, `@@`). `moneyflow-id`,
/// `sources`, `external-id` and `category` are tags in comment lines. Opening balances are
/// posted against `Equity:Opening-Balances` where the first statement balance needs one; an
/// account with bills (`bills`) opens at its first bill's 上期账单金额 and asserts each bill's
/// 本期还款总额 on its statement date (see ``ExportJournal/billBalances(_:entries:accountNames:)``).
public enum LedgerExporter {
    public static func export(accounts: [LedgerAccount], transactions: [LedgerTransaction], bills: [StatementBill] = []) -> String {
        let journal = ExportJournal.build(accounts: accounts, transactions: transactions, bills: bills)
        var out: [String] = ["; Exported by moneyflow (\(transactions.count) transaction\(transactions.count == 1 ? "" : "s"))"]
        for n in journal.notes { out.append("; note: \(BeancountExporter.clean(n))") }
        out.append("")
        for o in journal.opens { out.append("account \(o.account)") }
        if !journal.opens.isEmpty { out.append("") }
        for c in journal.currencies {
            let exponent = Money.exponent(for: c)
            out.append("commodity 1000." + String(repeating: "0", count: exponent) + " " + c)
        }
        let width = max(36, (journal.opens.map(\.account.count).max() ?? 0) + 2)
        func posting(_ account: String, _ amount: Money, negated: Bool = false, assert: Money? = nil) -> String {
            let amountText = "\(negated ? ExportJournal.negatedText(amount) : amount.decimalString) \(amount.currency)"
            let pad = String(repeating: " ", count: max(2, width - account.count + max(0, 14 - amountText.count)))
            return "    \(account)\(pad)\(amountText)" + (assert.map { " = \($0.decimalString) \($0.currency)" } ?? "")
        }
        for item in journal.items {
            out.append("")
            switch item {
            case .opening(let o):
                out.append("\(o.date.iso) \(text(o.narration))")
                out.append(posting(o.account, o.amount))
                out.append(posting(AccountNaming.openingBalances, o.amount, negated: true))
            case .entry(let e):
                let t = e.tx
                var head = t.date.iso + (t.pending ? " !" : "")
                let description = text(BeancountExporter.narration(t))
                if let cp = t.counterparty.map(text), !cp.isEmpty { head += " \(cp) | \(description)" } else { head += " " + description }
                out.append(head)
                out.append("    ; moneyflow-id: \(t.id)")
                if let p = e.partner { out.append("    ; transfer: \(t.id) \(p.tx.id)") }
                let sources = t.sources + (e.partner?.tx.sources ?? [])
                out.append("    ; sources: " + sources.map { "\($0.kind.rawValue):\($0.id)" }.joined(separator: " "))
                let external = sources.compactMap(\.externalID).filter { !$0.isEmpty }
                if !external.isEmpty { out.append("    ; external-id: " + text(external.joined(separator: " "))) }
                if let c = t.category, !c.isEmpty { out.append("    ; category: " + text(c)) }
                out.append(posting(e.account, t.amount, assert: e.assertion))
                if let p = e.partner {
                    // The later leg keeps its own date (a posting date).
                    out.append(
                        posting(p.account, p.tx.amount) + ExportJournal.totalCost(of: p.tx, against: t)
                            + (p.tx.date != t.date ? "  ; date: \(p.tx.date.iso)" : ""))
                } else {
                    for p in ExportJournal.counterPostings(e) { out.append(posting(p.account, p.amount, negated: true)) }
                }
            case .balance(let b):
                // A transfer's other leg carried this day's closing balance: asserted here, in
                // that leg's place, by a posting of nothing.
                out.append("\(b.date.iso) Statement balance")
                out.append(posting(b.account, Money(minorUnits: 0, currency: b.amount.currency), assert: b.amount))
            }
        }
        return out.joined(separator: "\n") + "\n"
    }

    /// Header/comment text: one line; `;` (starts a comment) and `|` (splits payee) replaced.
    static func text(_ s: String) -> String {
        BeancountExporter.clean(s).replacingOccurrences(of: ";", with: ",").replacingOccurrences(of: "|", with: "/")
    }
}
