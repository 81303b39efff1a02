/// What a category must look like to be booked by every export: `Root:Part:Part`, the root one
/// of the five account types, no empty part, no whitespace (beancount and hledger both accept it).
public enum LedgerAccountName {
    public static let roots = ["Assets", "Liabilities", "Equity", "Income", "Expenses"]

    /// nil when `name` is a usable category, else why not (one clause, for an error line).
    public static func problem(_ name: String) -> String? {
        let parts = name.split(separator: ":", omittingEmptySubsequences: false)
        guard let root = parts.first, roots.contains(String(root)) else {
            return "'\(name)' must start with one of \(roots.joined(separator: ", ")) (e.g. Expenses:Food:Groceries)"
        }
        guard parts.count >= 2, !parts.contains(where: \.isEmpty) else {
            return "'\(name)' needs a name after '\(root):' and no empty parts between colons"
        }
        guard !name.contains(where: { $0.isWhitespace }) else { return "'\(name)' must not contain spaces" }
        return nil
    }
}
