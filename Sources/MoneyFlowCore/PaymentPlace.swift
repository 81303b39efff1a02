/// Where a provider says a card payment was made: Plaid's `location` (`store_number`, `city`,
/// `region`). A bank prints the same facts in its own text (`POS PURCHASE LUXMI #0393 MIAMI FL`,
/// `RECURRING CARD PMT QUANELUX MEMBERSHIP GA`: the card network's merchant city and state,
/// which is also where Plaid reads them from), so the engine can tell two charges of one
/// amount at two stores of one merchant apart even when the provider's name for them is the
/// same (`Quanelux Membership`). Fields are as the provider sends them; nil when it sends none.
public struct PaymentPlace: Sendable, Hashable, Codable {
    public var storeNumber: String?
    public var city: String?
    /// State, province or region code (`GA`).
    public var region: String?

    public init(storeNumber: String? = nil, city: String? = nil, region: String? = nil) {
        self.storeNumber = storeNumber; self.city = city; self.region = region
    }

    /// True when the provider said nothing at all.
    public var isEmpty: Bool { storeNumber == nil && city == nil && region == nil }
}
