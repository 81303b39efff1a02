import Foundation

/// Plaid's response objects (spec `AccountBase`, `Transaction`, `Item`, `ItemStatus`), with
/// every field the spec marks required present (null where we have nothing), so a client that
/// decodes strictly by the spec works here as against Plaid.
enum ResponseShapes {
    static func decimal(_ text: String?) -> PlaidJSON { text.map(PlaidJSON.number) ?? .null }
    static func string(_ text: String?) -> PlaidJSON { text.map(PlaidJSON.string) ?? .null }

    static func account(_ a: TestAccount, id: String) -> PlaidJSON {
        .object([
            "account_id": .string(id),
            "balances": .object([
                "available": decimal(a.available),
                "current": decimal(a.current),
                "limit": decimal(a.limit),
                "iso_currency_code": .string(a.isoCurrencyCode),
                "unofficial_currency_code": .null,
            ]),
            "mask": .string(a.mask),
            "name": .string(a.name),
            "official_name": string(a.officialName),
            "type": .string(a.type),
            "subtype": .string(a.subtype),
            "holder_category": .string("personal"),
        ])
    }

    static func accounts(_ item: ItemRecord, _ bank: Bank, only ids: Set<String>? = nil) -> PlaidJSON {
        .array(
            bank.institution.accounts.compactMap { a in
                guard let id = item.accountIDs[a.key], ids?.contains(id) ?? true else { return nil }
                return account(a, id: id)
            })
    }

    static func transaction(_ t: BankTransaction, item: inout ItemRecord, bank: Bank, originalDescription: Bool) -> PlaidJSON {
        let currency = bank.institution.accounts.first { $0.key == t.account }?.isoCurrencyCode ?? "USD"
        let nullLocation: [String: PlaidJSON] = Dictionary(
            uniqueKeysWithValues: ["address", "city", "region", "postal_code", "country", "lat", "lon", "store_number"].map { ($0, .null) })
        let nullPaymentMeta: [String: PlaidJSON] = Dictionary(
            uniqueKeysWithValues: [
                "reference_number", "ppd_id", "payee", "by_order_of", "payer", "payment_method", "payment_processor", "reason",
            ].map { ($0, .null) })
        var members: [String: PlaidJSON] = [
            "transaction_id": .string(item.transactionID(t.bankID)),
            "account_id": .string(item.accountIDs[t.account] ?? ""),
            "amount": .number(t.amount),
            "iso_currency_code": .string(currency),
            "unofficial_currency_code": .null,
            "date": .string(t.day.iso),
            "authorized_date": string(t.authorizedDate),
            "authorized_datetime": .null,
            "datetime": .null,
            "name": .string(t.name),
            "merchant_name": string(t.merchantName),
            "merchant_entity_id": .null,
            "logo_url": .null,
            "website": .null,
            "pending": .bool(t.pending),
            "pending_transaction_id": t.pendingBankID.map { .string(item.transactionID($0)) } ?? .null,
            "account_owner": .null,
            "check_number": .null,
            "location": .object(nullLocation),
            "payment_meta": .object(nullPaymentMeta),
            "payment_channel": .string("other"),
            "transaction_code": .null,
            "personal_finance_category": .null,
            // Required and non-null in the spec even when no category is given.
            "personal_finance_category_icon_url": .string("https://plaid-category-icons.plaid.com/PFC_OTHER.png"),
            "counterparties": .array([]),
        ]
        if originalDescription { members["original_description"] = .string(t.name.uppercased()) }
        return .object(members)
    }

    static func item(_ item: ItemRecord, _ bank: Bank) -> PlaidJSON {
        .object([
            "item_id": .string(item.itemID),
            "institution_id": .string(item.institutionID),
            "institution_name": .string(bank.institution.name),
            "webhook": string(item.webhook),
            "auth_method": .null,
            "error": item.errorCode.map { PlaidAPIError.item($0).body(requestID: nil) } ?? .null,
            "available_products": .array(["balance"].map(PlaidJSON.string)),
            "billed_products": .array(["transactions"].map(PlaidJSON.string)),
            "products": .array(["transactions"].map(PlaidJSON.string)),
            "consented_products": .array(["transactions"].map(PlaidJSON.string)),
            "consent_expiration_time": .null,
            "update_type": .string("background"),
        ])
    }

    static func itemStatus(_ item: ItemRecord) -> PlaidJSON {
        .object([
            "transactions": .object([
                "last_successful_update": .string(Identifiers.timestamp(item.lastSuccessfulUpdate)),
                "last_failed_update": item.lastFailedUpdate.map { .string(Identifiers.timestamp($0)) } ?? .null,
            ]),
            "last_webhook": .null,
        ])
    }
}
