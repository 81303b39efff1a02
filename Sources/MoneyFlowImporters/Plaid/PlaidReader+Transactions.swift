import Foundation
import MoneyFlowCore

/// One Plaid transaction object to one record.
extension PlaidReader {
    // MARK: - Transactions

    /// `element` may be a placeholder of a transaction left in the file's bytes: it is parsed
    /// here, and dropped with the record made.
    mutating func makeRecord(_ element: JSONObject, _ pos: Position) throws -> IncomingRecord {
        let o = try parsed(element, full: true)
        let line = lines.line(at: o.offset)
        let locator = Locator(line: line, page: pos.page, row: pos.row)
        let idText = o["transaction_id"]?.stringValue
        var label = "transaction \(pos.row)"
        var inner: [String] = []
        if let path = pos.path { inner.append(path) }
        if let idText, !idText.isEmpty { inner.append("transaction_id \"\(idText.jsonExcerpt)\"") }
        if !inner.isEmpty { label += " (" + inner.joined(separator: ", ") + ")" }

        func fail(_ field: String, _ message: String) -> ImportError {
            ImportError(.malformed, file: fileName, locator: locator, column: field, problem: "\(label): \(message)")
        }
        func string(_ key: String, required: Bool) throws -> String? {
            switch o[key] {
            case nil: if required { throw fail(key, "missing field '\(key)'") }; return nil
            case .null?: if required { throw fail(key, "field '\(key)' is null") }; return nil
            case .string(let s)?: return s
            case let v?: throw fail(key, "field '\(key)' must be a string, found \(PlaidReader.describe(v))")
            }
        }
        func date(_ key: String, required: Bool) throws -> LocalDate? {
            guard let s = try string(key, required: required) else { return nil }
            guard let d = LocalDate(iso: s, .exact) else {
                throw fail(key, "field '\(key)' must be a date YYYY-MM-DD, found \"\(s.jsonExcerpt)\"")
            }
            return d
        }

        guard let id = try string("transaction_id", required: true), !id.isEmpty else {
            throw fail("transaction_id", "field 'transaction_id' is empty")
        }
        guard let accountID = try string("account_id", required: true), !accountID.isEmpty else {
            throw fail("account_id", "field 'account_id' is empty")
        }
        // Currency: exactly one of the two codes is set.
        let iso = PlaidUtil.nonEmpty(try string("iso_currency_code", required: false))
        let unofficial = PlaidUtil.nonEmpty(try string("unofficial_currency_code", required: false))
        guard let code = iso ?? unofficial ?? options.defaultCurrency else {
            throw fail("iso_currency_code", "no currency: iso_currency_code and unofficial_currency_code are both null")
        }
        guard PlaidUtil.isPlausibleCurrencyCode(code) else {
            throw fail(iso != nil ? "iso_currency_code" : "unofficial_currency_code", "invalid currency code \"\(code.jsonExcerpt)\"")
        }
        let currency = code.uppercased()
        // Amount: exact decimal text; Plaid positive = money out, store negative = money out.
        let amountText: String
        switch o["amount"] {
        case nil: throw fail("amount", "missing field 'amount'")
        case .number(let t)?: amountText = t
        case let v?: throw fail("amount", "field 'amount' must be a JSON number, found \(PlaidReader.describe(v))")
        }
        let plaidMinor: Int64
        do {
            plaidMinor = try PlaidNumber.minorUnits(amountText, currency: currency)
        } catch {
            throw fail("amount", "invalid amount \(amountText.jsonExcerpt) \(currency): \(error.reason)")
        }
        guard let postedDate = try date("date", required: true) else { throw fail("date", "missing field 'date'") }
        let authorized = try date("authorized_date", required: false)
        let pending: Bool
        switch o["pending"] {
        case nil, .null?: pending = false
        case .bool(let b)?: pending = b
        case let v?: throw fail("pending", "field 'pending' must be a boolean, found \(PlaidReader.describe(v))")
        }
        let pendingID = PlaidUtil.nonEmpty(try string("pending_transaction_id", required: false))
        let merchant = PlaidUtil.nonEmpty(try string("merchant_name", required: false).map({ $0.trimmed(.whitespacesAndNewlines) }))
        let name = try string("name", required: false)
        let description = name ?? merchant ?? PlaidUtil.nonEmpty(o["original_description"]?.stringValue) ?? ""
        var counterparty = merchant
        if counterparty == nil, let parties = o["counterparties"]?.arrayValue {
            for p in parties {
                if let n = PlaidUtil.nonEmpty(p["name"]?.stringValue.map({ $0.trimmed(.whitespacesAndNewlines) })) {
                    counterparty = n; break
                }
            }
        }
        var category: String?
        if let pfc = o["personal_finance_category"]?.objectValue {
            category = PlaidUtil.nonEmpty(pfc["primary"]?.stringValue) ?? PlaidUtil.nonEmpty(pfc["detailed"]?.stringValue)
        }
        if category == nil, let legacy = o["category"]?.arrayValue {
            let parts = legacy.compactMap { PlaidUtil.nonEmpty($0.stringValue) }
            if !parts.isEmpty { category = parts.joined(separator: " > ") }
        }
        // Where Plaid says the payment was made: it tells two stores' equal charges apart
        // (``PaymentPlace``). An optional hint: a field of another type is not used.
        var place: PaymentPlace?
        if let location = o["location"]?.objectValue {
            func text(_ key: String) -> String? { PlaidUtil.nonEmpty(location[key]?.stringValue?.trimmed(.whitespacesAndNewlines)) }
            let p = PaymentPlace(storeNumber: text("store_number"), city: shared(text("city")), region: shared(text("region")))
            if !p.isEmpty { place = p }
        }
        if !referencedAccounts.contains(accountID) {
            referencedAccounts.insert(accountID)
            referencedAccountOrder.append(accountID)
        }
        noteCurrency(currency, account: accountID)
        let raw = o.serialized(redact: PlaidSecrets.isSecretKey)
        return IncomingRecord(
            accountKey: shared("plaid:" + accountID), sourceKind: .plaid, date: postedDate,
            amount: Money(minorUnits: -plaidMinor, currency: currency),
            description: shared(scrub(description)), counterparty: shared(scrub(counterparty)),
            pending: pending, externalID: id, pendingExternalID: pendingID,
            authorizedDate: authorized, category: shared(scrub(category)),
            locator: locator, raw: scrub(raw), place: place)
    }
}
