import MoneyFlowCore

/// CSV rendering of transactions with a stable header.
public enum CSVExport {
    public static let header = [
        "id", "account", "date", "amount", "currency", "description", "counterparty", "note", "balance", "pending", "sources",
        // Added for categories (#27): the category's account, or for a split `ACCOUNT:AMOUNT` parts.
        "category",
    ]

    /// One CSV field: control, separator and bidi characters blanked like every export
    /// (``SafeText/blanked(_:)``), quoted when it holds a comma or quote.
    static func field(_ raw: String) -> String {
        let s = SafeText.blanked(raw)
        if s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) {
            return "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
        return s
    }

    public static func transactions(_ txs: [LedgerTransaction]) -> String {
        ([header.joined(separator: ",")] + txs.map(line)).joined(separator: "\r\n")
    }

    /// One transaction's CSV line, without its line break.
    public static func line(_ t: LedgerTransaction) -> String {
        let cells = [
            String(t.id), t.account, t.date.iso, t.amount.decimalString, t.amount.currency, t.description,
            t.counterparty ?? "", t.note ?? "", t.balance?.decimalString ?? "", t.pending ? "true" : "false",
            t.sources.map { "\($0.kind.rawValue):\($0.id)" }.joined(separator: " "),
            categoryCell(t.assignedCategory),
        ]
        return cells.map(field).joined(separator: ",")
    }

    /// The `category` cell: the account, `A:40.00 B:60.00` for a split, empty when none.
    static func categoryCell(_ c: TransactionCategory?) -> String {
        guard let c else { return "" }
        if !c.split.isEmpty { return c.split.map { "\($0.account):\($0.amount.decimalString)" }.joined(separator: " ") }
        return c.account ?? ""
    }
}
