import Foundation
import MoneyFlowCore

/// Beancount (v2/v3) export of ledger transactions.
///
/// - one `open` per account, dated at its first exported transaction, with its currencies;
/// - one transaction per ledger transaction (`!` when pending): the account leg with the exact
///   amount and a balancing leg to its category's account (one leg per part of a split, see
///   ``ExportJournal/counterPostings(_:)``), else `Expenses:Uncategorized` (money out),
///   `Income:Uncategorized` (money in) or `Equity:Uncategorized` (zero amounts, transfers a
///   provider categorised);
/// - a transfer between two own accounts as one transaction with both accounts' postings
///   (`transfer` metadata names both ids; see ``ExportJournal/foldTransfers(_:)``); across
///   currencies the second posting carries the first's amount as its total price (`@@`);
/// - metadata `moneyflow-id`, `sources` (record ids), `external-id`, `category` when known;
/// - an opening balance (against `Equity:Opening-Balances`) where the first statement balance
///   shows money held before the first exported transaction;
/// - `balance` assertions from statement running balances: after the last transaction of a
///   day (per currency) that carries one, dated the next day because beancount checks
///   balances at the start of a date;
/// - for an account with bills (`bills`, from the stored statement facts): its opening balance
///   from the first bill's 上期账单金额 and a `balance` per bill from its 本期还款总额
///   (``ExportJournal/billBalances(_:entries:accountNames:)``).
public enum BeancountExporter {
    public static func export(
        accounts: [LedgerAccount], transactions: [LedgerTransaction],
        operatingCurrencies: [String] = [], bills: [StatementBill] = []
    ) -> String {
        let journal = ExportJournal.build(accounts: accounts, transactions: transactions, bills: bills)
        var out: [String] = ["; Exported by moneyflow (\(transactions.count) transaction\(transactions.count == 1 ? "" : "s"))"]
        for n in journal.notes { out.append("; note: \(clean(n))") }
        for c in operatingCurrencies { out.append("option \"operating_currency\" \"\(c.uppercased())\"") }
        out.append("")
        for o in journal.opens {
            out.append("\(o.date.iso) open \(o.account)" + (o.currencies.isEmpty ? "" : " " + o.currencies.joined(separator: ",")))
        }
        for item in journal.items {
            out.append("")
            switch item {
            case .opening(let o):
                out.append("\(o.date.iso) * \(quote(o.narration))")
                out.append("  \(o.account)  \(o.amount.decimalString) \(o.amount.currency)")
                out.append("  \(AccountNaming.openingBalances)  \(ExportJournal.negatedText(o.amount)) \(o.amount.currency)")
            case .entry(let e):
                let t = e.tx
                var head = "\(t.date.iso) \(t.pending ? "!" : "*")"
                if let cp = t.counterparty, !clean(cp).isEmpty { head += " " + quote(cp) }
                head += " " + quote(narration(t))
                out.append(head)
                out.append("  moneyflow-id: \"\(t.id)\"")
                let legs = [t] + (e.partner.map { [$0.tx] } ?? [])
                if let p = e.partner {
                    out.append("  transfer: \"\(t.id) \(p.tx.id)\"")
                    if p.tx.date != t.date { out.append("  transfer-other-date: \(p.tx.date.iso)") }
                }
                let sources = legs.flatMap(\.sources)
                out.append("  sources: " + quote(sources.map { "\($0.kind.rawValue):\($0.id)" }.joined(separator: " ")))
                let external = sources.compactMap(\.externalID).filter { !$0.isEmpty }
                if !external.isEmpty { out.append("  external-id: " + quote(external.joined(separator: " "))) }
                if let c = t.category, !c.isEmpty { out.append("  category: " + quote(c)) }
                out.append("  \(e.account)  \(t.amount.decimalString) \(t.amount.currency)")
                if let p = e.partner {
                    out.append("  \(p.account)  \(p.tx.amount.decimalString) \(p.tx.amount.currency)" + ExportJournal.totalCost(of: p.tx, against: t))
                } else {
                    for p in ExportJournal.counterPostings(e) {
                        out.append("  \(p.account)  \(ExportJournal.negatedText(p.amount)) \(p.amount.currency)")
                    }
                }
                if let b = e.assertion, e.assertionInBeancount { out += ["", balance(e.account, t.date, b)] }
            case .balance(let b):
                if b.inBeancount { out.append(balance(b.account, b.date, b.beancountAmount ?? b.amount)) }
            }
        }
        return out.joined(separator: "\n") + "\n"
    }

    /// A `balance` directive for the end of `day` (beancount checks balances at the start of a date).
    static func balance(_ account: String, _ day: LocalDate, _ amount: Money) -> String {
        "\(day.adding(days: 1).iso) balance \(account)  \(amount.decimalString) \(amount.currency)"
    }

    /// Description, plus the note when there is one.
    static func narration(_ t: LedgerTransaction) -> String {
        if let note = t.note, !clean(note).isEmpty, note != t.description { return t.description + " — " + note }
        return t.description
    }

    /// One line: control, separator and bidi characters blanked (``SafeText/blanked(_:)``), trimmed.
    static func clean(_ s: String) -> String {
        SafeText.blanked(s).trimmingCharacters(in: .whitespaces)
    }

    /// A beancount string literal (quotes and backslashes escaped).
    static func quote(_ s: String) -> String {
        "\"" + clean(s).replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
