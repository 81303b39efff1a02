import Foundation
import MoneyFlowCore

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
        var raw = raw
        guard let fields = raw.withUTF8({ Self(json: UnsafeRawBufferPointer($0)) }) else { return nil }
        self = fields
    }

    /// The same from the UTF-8 bytes of `raw` (the store reads them in place): only the four
    /// members used are built (``JSONMemberReader``).
    public init?(json bytes: UnsafeRawBufferPointer) {
        guard let m = JSONMemberReader.members(["merchant_name", "personal_finance_category", "counterparties", "category"], of: bytes)
        else { return nil }
        func text(_ v: JSONMemberReader.Value?) -> String? {
            guard case .string(let s)? = v else { return nil }
            let t = s.trimmed(.whitespacesAndNewlines)
            return t.isEmpty ? nil : t
        }
        merchant = text(m[0])
        if case .object(let pfc)? = m[1], let primary = text(pfc["primary"]) {
            category = ProviderCategory(taxonomy: .plaid, primary: primary, detailed: text(pfc["detailed"]))
            var types: [String] = []
            if case .array(let parties)? = m[2] {
                for case .object(let party) in parties { if let t = text(party["type"]) { types.append(t) } }
            }
            isPersonTransfer = PersonTransfer.plaid(primary: primary, detailed: text(pfc["detailed"]), counterpartyTypes: types)
        } else if case .array(let legacy)? = m[3] {
            let parts = legacy.compactMap(text)
            category = parts.isEmpty ? nil : ProviderCategory(taxonomy: .plaidLegacy, primary: parts.joined(separator: " > "))
        } else {
            category = nil
        }
    }
}
