/// One line of a Plaid scenario's `expected.json` (`Samples/plaid/<scenario>/`): a transaction
/// of the final ledger the feed describes. Field names are the file's keys.
public struct PlaidExpectedEntry: Codable, Hashable, Sendable {
    public var account_key: String
    public var date: String
    public var amount: String
    public var currency: String
    public var description: String
    public var counterparty: String?
    public var pending: Bool
    public var external_ids: [String]

    public init(
        account_key: String, date: String, amount: String, currency: String, description: String,
        counterparty: String?, pending: Bool, external_ids: [String]
    ) {
        self.account_key = account_key; self.date = date; self.amount = amount; self.currency = currency
        self.description = description; self.counterparty = counterparty; self.pending = pending
        self.external_ids = external_ids
    }

    /// Every field on one line, for comparing lists with a readable difference.
    public var text: String {
        "\(account_key) \(date) \(amount) \(currency) \(description) cp=\(counterparty ?? "nil") pending=\(pending) \(external_ids)"
    }
}
