import MoneyFlowCore

extension CMBCardStatement {
    /// Importer id of CMB credit-card bills (read by the same `cmb-pdf` container importer).
    public static let importerID = "cmb-card-pdf"

    /// Account key: `cmb-card:<last four digits of the bill's card>`. Rows of a supplementary
    /// card (another 卡号末四位) belong to the bill's account: the bill is one debt.
    public var accountKey: String { "cmb-card:" + header.cardLast4 }

    /// The card account: a credit (liability) account, marked as the OFX credit-card importer
    /// marks one (`type` credit, `subtype` credit card), so exports book it under Liabilities.
    /// The bill's header facts are kept in `details`.
    public var accountFacts: AccountFacts {
        var details: [String: String] = [:]
        if let first = LocalDate(year: header.year, month: header.month, day: 1) { details["statementMonth"] = String(first.iso.prefix(7)) }
        if header.reissued { details["reissued"] = "true" }
        if let v = header.accountKind { details["accountKind"] = v }
        if let v = header.statementDate { details["statementDate"] = v.iso }
        if let v = header.paymentDueDate { details["paymentDueDate"] = v.iso }
        let money: [(String, Money?)] = [
            ("creditLimit", header.creditLimit), ("newBalance", header.newBalance), ("minimumPayment", header.minimumPayment),
            ("previousBalance", header.previousBalance), ("previousPayment", header.previousPayment),
            ("newCharges", header.newCharges), ("adjustment", header.adjustment), ("interest", header.interest),
        ]
        for (key, value) in money { if let value { details[key] = value.decimalString } }
        let cards = Set(rows.compactMap(\.card)).subtracting([header.cardLast4]).sorted()
        if !cards.isEmpty { details["supplementaryCards"] = cards.joined(separator: ",") }
        var facts = AccountFacts(
            key: accountKey, suggestedName: "CMB Card \(header.cardLast4)", institution: CMBStatement.institution,
            number: header.cardNumber ?? header.cardLast4, type: "credit", subtype: "credit card",
            currencies: ["CNY"], details: details)
        facts.detailsAreStatementFacts = true
        return facts
    }

    /// One record per row, spending as money out of the card account (negative), repayments and
    /// refunds as money in. The row's own card, when it is not the bill's, and a 交易地金额 that
    /// is not the RMB amount are kept in the note (`卡号末四位 0862; 交易地金额 18.50(US)`).
    ///
    /// - Parameter splitCards: rows of a supplementary card go to that card's own account
    ///   (`cmb-card:<its last4>`, also a credit account) instead of the bill's.
    ///
    /// When the bill's card is uncertain (``cardCandidates``), the records as each other card's
    /// bill are the statement's ``ImportedStatement/alternatives``: the import chooses.
    public func importedStatement(splitCards: Bool = false) -> ImportedStatement {
        var statement = reading(splitCards: splitCards)
        guard cardCandidates.count > 1 else { return statement }
        for card in cardCandidates where card != header.cardLast4 {
            var other = self
            other.header.cardLast4 = card
            statement.alternatives.append(other.reading(splitCards: splitCards))
        }
        let cards = cardCandidates.joined(separator: ", ")
        let each = rows.filter { $0.card == header.cardLast4 }.count
        statement.ambiguity =
            "the bill prints no card number and its rows name cards \(cards) equally often (\(each) rows each), no repayment row telling them apart"
        return statement
    }

    /// The records as the bill of card `header.cardLast4` (see ``importedStatement(splitCards:)``).
    func reading(splitCards: Bool) -> ImportedStatement {
        var accounts = [accountFacts]
        var keys: [String: String] = [:]
        if splitCards {
            for card in Set(rows.compactMap(\.card)).subtracting([header.cardLast4]).sorted() {
                let key = "cmb-card:" + card
                keys[card] = key
                accounts.append(
                    AccountFacts(
                        key: key, suggestedName: "CMB Card \(card)", institution: CMBStatement.institution, number: card,
                        type: "credit", subtype: "credit card", currencies: ["CNY"], details: ["mainCard": header.cardLast4]))
            }
        }
        let records = rows.map { r in
            let own = r.card.flatMap { keys[$0] }
            return IncomingRecord(
                accountKey: own ?? accountKey, sourceKind: .cmbPDF, date: r.date,
                amount: Money(minorUnits: -r.rmbAmount.minorUnits, currency: "CNY"), description: r.description,
                note: note(r, inOwnAccount: own != nil), locator: Locator(page: r.page > 0 ? r.page : nil, row: r.rowOnPage), raw: r.rawJSON)
        }
        return ImportedStatement(importerID: CMBCardStatement.importerID, accounts: accounts, records: records, warnings: warnings)
    }

    /// The note of a row's record (nil when there is nothing beyond the account's card and RMB).
    public func note(_ r: Row, inOwnAccount: Bool = false) -> String? {
        var parts: [String] = []
        if let card = r.card, card != header.cardLast4, !inOwnAccount { parts.append("卡号末四位 \(card)") }
        if let amount = r.originalAmount {
            let sameAmount = amount == r.rmbAmount.decimalString
            if !sameAmount || (r.originalRegion ?? "CN") != "CN" { parts.append("交易地金额 \(r.printedOriginal)") }
        }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }
}

extension CMBCardStatement.Row {
    /// The printed cells as a small JSON object (keys sorted).
    public var rawJSON: String {
        func q(_ s: String?) -> String { s.map(CMBJSON.quote) ?? "null" }
        var s = "{\"amount\":" + q(printedAmount)
        s += ",\"card\":" + q(card)
        s += ",\"description\":" + q(description)
        s += ",\"original\":" + q(printedOriginal.isEmpty ? nil : printedOriginal)
        s += ",\"posted\":" + q(printedPosted)
        s += ",\"section\":" + q(section)
        s += ",\"sold\":" + q(printedSold.isEmpty ? nil : printedSold)
        return s + "}"
    }
}
