import Foundation
import MoneyFlowCore

/// Accounts and their balances: what the reader learns about each account it sees.
extension PlaidReader {
    // MARK: - Accounts

    mutating func registerAccounts(_ v: JSONValue?, page: Int?) throws {
        guard let v, !v.isNull else { return }
        guard let list = v.arrayValue else {
            throw malformed(
                "'accounts' must be an array, found \(PlaidReader.describe(v))", locator: page.map { Locator(page: $0) }, column: "accounts"
            )
        }
        for (index, element) in list.enumerated() {
            guard let o = element.objectValue, let id = o["account_id"]?.stringValue, !id.isEmpty else {
                throw malformed(
                    "accounts[\(index)] is not an account object with an account_id",
                    locator: Locator(line: element.objectValue.flatMap { lines.line(at: $0.offset) }, page: page), column: "account_id")
            }
            if accountObjects[id] == nil { accountOrder.append(id) }
            accountObjects[id] = o // a later page's balances win
        }
    }

    mutating func noteCurrency(_ currency: String, account: String) {
        var list = currenciesByAccount[account, default: []]
        if !list.contains(currency) { list.append(currency); currenciesByAccount[account] = list }
    }

    var institution: String {
        if let name = item?["institution_name"]?.stringValue, !name.isEmpty { return name }
        if let id = item?["institution_id"]?.stringValue, !id.isEmpty { return id }
        return "Plaid"
    }

    mutating func accountFacts() -> [AccountFacts] {
        var facts: [AccountFacts] = []
        let itemID = item?["item_id"]?.stringValue
        let institutionID = item?["institution_id"]?.stringValue
        for id in accountOrder {
            guard let o = accountObjects[id] else { continue }
            let name = PlaidUtil.nonEmpty(o["name"]?.stringValue) ?? PlaidUtil.nonEmpty(o["official_name"]?.stringValue)
            let mask = PlaidUtil.nonEmpty(o["mask"]?.stringValue)
            let suggested: String
            if let name {
                suggested = mask.map { "\(name) \($0)" } ?? name
            } else {
                suggested = "Plaid account \(mask ?? String(id.suffix(4)))"
            }
            let type = PlaidUtil.nonEmpty(o["type"]?.stringValue)
            let subtype = PlaidUtil.nonEmpty(o["subtype"]?.stringValue)
            var details: [String: String] = [:]
            for key in ["official_name", "holder_category", "persistent_account_id", "verification_status"] {
                if let s = PlaidUtil.nonEmpty(o[key]?.stringValue) { details[key] = scrub(s) }
            }
            if let itemID { details["item_id"] = itemID }
            if let institutionID { details["institution_id"] = institutionID }
            var currencies: [String] = []
            var current: Money?
            var available: Money?
            if let b = o["balances"]?.objectValue {
                let code =
                    PlaidUtil.nonEmpty(b["iso_currency_code"]?.stringValue) ?? PlaidUtil.nonEmpty(
                        b["unofficial_currency_code"]?.stringValue)
                    ?? currenciesByAccount[id]?.first ?? options.defaultCurrency
                if let limit = b["limit"]?.numberText { details["limit"] = limit }
                if let code, PlaidUtil.isPlausibleCurrencyCode(code) {
                    let c = code.uppercased()
                    currencies.append(c)
                    // Credit and loan: a positive current balance is money owed.
                    let owed = type.map { ["credit", "loan"].contains($0.lowercased()) } ?? false
                    current = balance(b["current"], field: "current", currency: c, negate: owed, account: suggested, details: &details)
                    available = balance(
                        b["available"], field: "available", currency: c, negate: false, account: suggested, details: &details)
                } else if !(b["current"]?.isNull ?? true) || !(b["available"]?.isNull ?? true) {
                    warnings.append(ImportWarning("account \(suggested): balances have no usable currency code; balances not recorded"))
                }
            }
            for c in currenciesByAccount[id] ?? [] where !currencies.contains(c) { currencies.append(c) }
            facts.append(
                AccountFacts(
                    key: "plaid:" + id, suggestedName: scrub(suggested), institution: institution,
                    number: mask, type: type, subtype: subtype, provider: "plaid",
                    providerAccountID: id, currencies: currencies, currentBalance: current,
                    availableBalance: available, details: details))
        }
        for id in referencedAccountOrder where accountObjects[id] == nil {
            var details: [String: String] = [:]
            if let itemID { details["item_id"] = itemID }
            facts.append(
                AccountFacts(
                    key: "plaid:" + id, suggestedName: "Plaid account \(id.suffix(4))",
                    institution: institution, provider: "plaid", providerAccountID: id,
                    currencies: currenciesByAccount[id] ?? [], details: details))
        }
        return facts
    }

    mutating func balance(
        _ v: JSONValue?, field: String, currency: String, negate: Bool, account: String,
        details: inout [String: String]
    ) -> Money? {
        switch v {
        case nil, .null?: return nil
        case .number(let text)?:
            do {
                let minor = try PlaidNumber.minorUnits(text, currency: currency)
                return Money(minorUnits: negate ? -minor : minor, currency: currency)
            } catch {
                details["balances.\(field)"] = text
                warnings.append(
                    ImportWarning(
                        "account \(account): balances.\(field) \(text.jsonExcerpt) cannot be stored exactly in \(currency) (\(error.reason)); not recorded"
                    ))
                return nil
            }
        case let v?:
            warnings.append(
                ImportWarning("account \(account): balances.\(field) must be a number, found \(PlaidReader.describe(v)); not recorded"))
            return nil
        }
    }
}
