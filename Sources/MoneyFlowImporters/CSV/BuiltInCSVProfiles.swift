import MoneyFlowCore

extension CSVProfile {
    /// Extra header names that must all be present for this profile to claim a header row
    /// (first spelling of each; see ``signatureAlternatives``).
    public var signature: [String] { signatureAlternatives.map { $0[0] } }

    /// Extra header columns that must all be present, each in any of its spellings (Chase's
    /// older card export says `Trans Date` where today's says `Transaction Date`).
    public var signatureAlternatives: [[String]] {
        switch (name, variant) {
        case ("chase", "card"?): return [["Post Date"], ["Transaction Date", "Trans Date"], ["Type"]]
        default: return signatureNames.map { [$0] }
        }
    }

    private var signatureNames: [String] {
        switch (name, variant) {
        case ("chase", "checking"?): return ["Details", "Posting Date"]
        case ("bofa", "checking"?): return ["Running Bal."]
        case ("bofa", "card"?): return ["Reference Number", "Payee"]
        case ("capital-one", "card"?): return ["Card No."]
        case ("capital-one", "360"?): return ["Transaction Type", "Transaction Amount"]
        default: return []
        }
    }
}

/// Profiles for the exports people actually download today.
public enum BuiltInCSVProfiles {
    private static func names(_ n: String...) -> ColumnRef { .names(n) }

    /// Every built-in profile variant, grouped by name in `moneyflow profiles` order.
    public static let all: [CSVProfile] = {
        var list: [CSVProfile] = []

        var chaseChecking = CSVProfile(name: "chase", dateColumn: names("Posting Date"), descriptionColumn: names("Description"))
        chaseChecking.variant = "checking"; chaseChecking.institution = "Chase"
        chaseChecking.dateFormat = .monthDayYear; chaseChecking.amountColumn = names("Amount")
        chaseChecking.balanceColumn = names("Balance")
        list.append(chaseChecking)

        var chaseCard = CSVProfile(name: "chase", dateColumn: names("Post Date"), descriptionColumn: names("Description"))
        chaseCard.variant = "card"; chaseCard.institution = "Chase"
        chaseCard.fallbackDateColumn = names("Transaction Date", "Trans Date")
        chaseCard.dateFormat = .monthDayYear; chaseCard.amountColumn = names("Amount")
        chaseCard.categoryColumn = names("Category"); chaseCard.noteColumn = names("Memo")
        list.append(chaseCard)

        var bofaChecking = CSVProfile(name: "bofa", dateColumn: names("Date"), descriptionColumn: names("Description"))
        bofaChecking.variant = "checking"; bofaChecking.institution = "Bank of America"
        bofaChecking.dateFormat = .monthDayYear; bofaChecking.amountColumn = names("Amount")
        bofaChecking.balanceColumn = names("Running Bal."); bofaChecking.skipRowsWithoutAmount = true
        list.append(bofaChecking)

        var bofaCard = CSVProfile(name: "bofa", dateColumn: names("Posted Date"), descriptionColumn: names("Payee"))
        bofaCard.variant = "card"; bofaCard.institution = "Bank of America"
        bofaCard.dateFormat = .monthDayYear; bofaCard.amountColumn = names("Amount")
        bofaCard.referenceColumn = names("Reference Number")
        list.append(bofaCard)

        var wells = CSVProfile(name: "wells-fargo", dateColumn: .index(0), descriptionColumn: .index(4))
        wells.variant = "checking"; wells.institution = "Wells Fargo"; wells.hasHeader = false
        wells.dateFormat = .monthDayYear; wells.amountColumn = .index(1)
        list.append(wells)

        var c1Card = CSVProfile(name: "capital-one", dateColumn: names("Posted Date"), descriptionColumn: names("Description"))
        c1Card.variant = "card"; c1Card.institution = "Capital One"
        c1Card.fallbackDateColumn = names("Transaction Date")
        c1Card.debitColumn = names("Debit"); c1Card.creditColumn = names("Credit")
        c1Card.categoryColumn = names("Category"); c1Card.accountNumberColumn = names("Card No.")
        list.append(c1Card)

        var c1360 = CSVProfile(name: "capital-one", dateColumn: names("Transaction Date"), descriptionColumn: names("Transaction Description"))
        c1360.variant = "360"; c1360.institution = "Capital One"
        c1360.dateFormat = .monthDayYearShort; c1360.amountColumn = names("Transaction Amount")
        c1360.directionColumn = names("Transaction Type"); c1360.debitValues = ["Debit", "Withdrawal"]
        c1360.balanceColumn = names("Balance"); c1360.accountNumberColumn = names("Account Number")
        list.append(c1360)

        var amex = CSVProfile(name: "amex", dateColumn: names("Date"), descriptionColumn: names("Description"))
        amex.variant = "card"; amex.institution = "American Express"
        amex.dateFormat = .monthDayYear; amex.amountColumn = names("Amount"); amex.invertSign = true
        amex.referenceColumn = names("Reference"); amex.categoryColumn = names("Category")
        amex.accountNumberColumn = names("Account #")
        list.append(amex)

        var cmb = CSVProfile(name: "cmb", dateColumn: names("交易日期"), descriptionColumn: names("交易类型"))
        cmb.variant = "pc"; cmb.institution = "China Merchants Bank"; cmb.sourceKind = .cmbCSV
        cmb.dateFormat = .compact; cmb.timeColumn = names("交易时间")
        cmb.creditColumn = names("收入"); cmb.debitColumn = names("支出")
        cmb.balanceColumn = names("余额"); cmb.noteColumn = names("交易备注")
        cmb.currency = "CNY"
        cmb.accountNumberPattern = #"账\s*号\s*[:：]\s*\[?[^\]0-9*]*([0-9][0-9*]{5,}[0-9])"#
        cmb.accountKeyPrefix = "cmb"
        list.append(cmb)
        return list
    }()

    /// Profile names, in order.
    public static var names: [String] {
        var seen: [String] = []
        for p in all where !seen.contains(p.name) { seen.append(p.name) }
        return seen
    }

    /// The variants of a built-in profile (`chase` -> checking and card), or of `chase/card`.
    public static func named(_ name: String) -> [CSVProfile] {
        let lower = name.lowercased()
        let aliases = ["wellsfargo": "wells-fargo", "wells": "wells-fargo", "capitalone": "capital-one",
                       "bank-of-america": "bofa", "boa": "bofa", "american-express": "amex", "cmb-pc": "cmb"]
        let canonical = aliases[lower] ?? lower
        if let slash = canonical.firstIndex(of: "/") {
            let n = String(canonical[..<slash]), v = String(canonical[canonical.index(after: slash)...])
            return all.filter { $0.name == n && $0.variant == v }
        }
        return all.filter { $0.name == canonical }
    }
}
