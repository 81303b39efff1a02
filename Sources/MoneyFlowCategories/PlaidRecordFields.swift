import Foundation

/// What the categoriser reads from a Plaid record's `raw` JSON (the transaction object the Plaid
/// importer stores verbatim, secrets redacted): `merchant_name` and the category, Plaid's
/// `personal_finance_category` or else the legacy `category` array. For the store filling
/// ``CategorizationInput`` from its records (with whether it is a transfer to a person,
/// from the category and `counterparties[].type`); the record's `category` column keeps only one name.
public struct PlaidRecordFields: Sendable, Hashable {
    public var merchant: String?
    public var category: ProviderCategory?
    /// A transfer to or from a person (``PersonTransfer/plaid(primary:detailed:counterpartyTypes:)``).
    public var isPersonTransfer = false

    /// nil when `raw` is not a JSON object.
    public init?(raw: String) {
        guard let data = raw.data(using: .utf8),
            let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        else { return nil }
        func text(_ v: Any?) -> String? {
            guard let s = (v as? String)?.trimmingCharacters(in: .whitespacesAndNewlines), !s.isEmpty else { return nil }
            return s
        }
        merchant = text(object["merchant_name"])
        if let pfc = object["personal_finance_category"] as? [String: Any], let primary = text(pfc["primary"]) {
            category = ProviderCategory(taxonomy: .plaid, primary: primary, detailed: text(pfc["detailed"]))
            let types = (object["counterparties"] as? [Any] ?? []).compactMap { ($0 as? [String: Any]).flatMap { text($0["type"]) } }
            isPersonTransfer = PersonTransfer.plaid(primary: primary, detailed: text(pfc["detailed"]), counterpartyTypes: types)
        } else if let legacy = object["category"] as? [Any] {
            let parts = legacy.compactMap(text)
            category = parts.isEmpty ? nil : ProviderCategory(taxonomy: .plaidLegacy, primary: parts.joined(separator: " > "))
        } else {
            category = nil
        }
    }
}
