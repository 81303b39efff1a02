import MoneyFlowCore

extension CMBStatement {
    /// Importer id of CMB PDF statements.
    public static let importerID = "cmb-pdf"
    public static let institution = "China Merchants Bank"

    /// Account key: `cmb:<account number as printed>`.
    public var accountKey: String { "cmb:" + header.accountNumber }

    /// The account as the store should know it.
    public var accountFacts: AccountFacts {
        let digits = header.accountNumber.filter { $0.isASCII && $0.isNumber }
        let last4 = String(digits.suffix(4))
        var details: [String: String] = ["layout": header.layout.rawValue]
        if let v = header.name, !v.isEmpty { details["holder"] = v }
        if let v = header.branch, !v.isEmpty { details["branch"] = v }
        if let s = header.periodStart, let e = header.periodEnd { details["period"] = "\(s.iso) -- \(e.iso)" }
        if let v = header.appliedAt { details["appliedAt"] = v }
        if let v = header.serialNumber { details["serialNumber"] = v }
        return AccountFacts(
            key: accountKey, suggestedName: last4.isEmpty ? "CMB" : "CMB \(last4)",
            institution: CMBStatement.institution, number: header.accountNumber,
            type: header.accountType, currencies: currencies, details: details)
    }

    /// Maps the statement to the importer-neutral form: one account, one record per row.
    public func importedStatement() -> ImportedStatement {
        let key = accountKey
        var records: [IncomingRecord] = []
        records.reserveCapacity(rows.count)
        for r in rows {
            records.append(
                IncomingRecord(
                    accountKey: key, sourceKind: .cmbPDF, date: r.date, amount: r.amount,
                    description: r.description, counterparty: r.counterparty, note: r.note,
                    balance: r.balance, locator: Locator(page: r.page, row: r.rowOnPage),
                    raw: r.rawJSON))
        }
        var coverage: ClosedRange<LocalDate>? = nil
        if let s = header.periodStart, let e = header.periodEnd, s <= e { coverage = s...e }
        return ImportedStatement(
            importerID: CMBStatement.importerID, accounts: [accountFacts], records: records,
            warnings: warnings, coverage: coverage)
    }
}

extension CMBStatement.Row {
    /// The printed cells as a small JSON object (keys sorted), spelled as UTF-8 bytes in one
    /// buffer (every row of a statement has one).
    public var rawJSON: String {
        var out: [UInt8] = []
        out.reserveCapacity(160 + description.utf8.count + (counterparty?.utf8.count ?? 0) + (note?.utf8.count ?? 0))
        func key(_ k: StaticString) { out.append(contentsOf: UnsafeBufferPointer(start: k.utf8Start, count: k.utf8CodeUnitCount)) }
        func value(_ v: String?) {
            if let v { JSONString.appendQuoted(v, lineSeparators: .literal, to: &out) } else { key("null") }
        }
        key("{\"amount\":"); value(printed.amount)
        key(",\"balance\":"); value(printed.balance)
        key(",\"counterparty\":"); value(counterparty)
        key(",\"currency\":"); value(printed.currency)
        key(",\"date\":"); value(printed.date)
        key(",\"description\":"); value(description)
        key(",\"note\":"); value(note)
        key("}")
        return String(decoding: out, as: UTF8.self)
    }
}

enum CMBJSON {
    static func quote(_ text: String) -> String { JSONString.quoted(text, lineSeparators: .literal) }
}
