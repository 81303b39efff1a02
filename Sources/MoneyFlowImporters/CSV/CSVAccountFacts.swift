import MoneyFlowCore

extension CSVImporter {
    /// Account facts for a CSV file read with profile `p`.
    ///
    /// Names are short and institution-based (`Chase 1234`, `Chase Card`, `Deutsche Bank CSV`):
    /// a profile's `name` is often a sentence describing the export and makes a poor account
    /// name. Order: the profile's `default_account_name`; else `<institution> <last 4 digits>`;
    /// else `<institution> <Variant>`; else `<institution> CSV`. With no `institution`, a short
    /// profile name (one word, as built-in names are) stands in; a descriptive one gives `CSV`.
    /// Card and credit profiles produce liability accounts (type `credit`), as does a profile
    /// whose `account_type` says so.
    static func accountFacts(profile p: CSVProfile, key: String, accountNumber: String?, records: [IncomingRecord]) -> AccountFacts {
        let short = p.sourceKind == .cmbCSV ? "CMB" : institutionLabel(p)
        let name: String
        if let n = p.defaultAccountName?.trimmed(.whitespaces), !n.isEmpty {
            name = n
        } else if let num = accountNumber, num.contains(where: \.isNumber) {
            name = "\(short) \(String(num.filter(\.isNumber).suffix(4)))"
        } else if let v = p.variant {
            name = "\(short) \(v == "360" ? "360" : v.capitalized)"
        } else {
            name = short == "CSV" ? "CSV Account" : "\(short) CSV"
        }
        var seen = Set<String>()
        var currencies: [String] = []
        var previous: String?
        for i in records.indices {
            // Rows in a row share their currency: no set lookup (nor copy of the record) for them.
            let c = records[i].amount.currency
            if c != previous, seen.insert(c).inserted { currencies.append(c) }
            previous = c
        }
        return AccountFacts(
            key: key, suggestedName: name, institution: p.institution, number: accountNumber,
            type: accountType(p), currencies: currencies.isEmpty ? [p.currency].compactMap { $0 } : currencies.sorted(),
            details: ["csv_profile": p.qualifiedName])
    }

    /// `credit` for card profiles (liability accounts), else the profile's `account_type` or variant.
    static func accountType(_ p: CSVProfile) -> String? {
        if let t = p.accountType?.trimmed(.whitespaces), !t.isEmpty { return t.lowercased() }
        if let v = p.variant?.lowercased(), v.contains("card") || v.contains("credit") { return "credit" }
        return p.variant
    }

    static func institutionLabel(_ p: CSVProfile) -> String {
        if let i = p.institution?.trimmed(.whitespaces), !i.isEmpty { return i }
        let n = p.name.trimmed(.whitespaces)
        if !n.isEmpty, n.count <= 24, !n.contains(where: { $0 == " " || $0 == "(" }) {
            return BuiltInCSVProfiles.names.contains(n) ? n : n.prefix(1).uppercased() + n.dropFirst()
        }
        return "CSV"
    }
}
