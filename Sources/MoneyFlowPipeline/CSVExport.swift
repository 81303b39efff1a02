import MoneyFlowCore

/// CSV rendering of transactions with a stable header.
public enum CSVExport {
    public static let header = ["id", "account", "date", "amount", "currency", "description", "counterparty", "note", "balance", "pending", "sources"]

    static func field(_ s: String) -> String {
        if s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) {
            return "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
        return s
    }

    public static func transactions(_ txs: [LedgerTransaction]) -> String {
        var lines = [header.joined(separator: ",")]
        for t in txs {
            let cells = [String(t.id), t.account, t.date.iso, t.amount.decimalString, t.amount.currency, t.description,
                         t.counterparty ?? "", t.note ?? "", t.balance?.decimalString ?? "", t.pending ? "true" : "false",
                         t.sources.map { "\($0.kind.rawValue):\($0.id)" }.joined(separator: " ")]
            lines.append(cells.map(field).joined(separator: ","))
        }
        return lines.joined(separator: "\r\n")
    }
}
