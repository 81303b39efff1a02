/// A transaction's computed category as the store keeps it (`txn_category`): the ledger account
/// its other side is booked to, the source (`user`, `rule`, `learned`, `provider`, `none`), the
/// reason as its JSON and its one line, and the parts of a split. The categoriser's typed
/// values live in MoneyFlowCategories; outputs and exporters need only these.
public struct TransactionCategory: Sendable, Hashable, Codable {
    public struct Part: Sendable, Hashable, Codable {
        public var account: String
        public var amount: Money
        public init(account: String, amount: Money) { self.account = account; self.amount = amount }
    }
    /// nil when nothing applies (exports book it to `Uncategorized`) or it is an own transfer.
    public var account: String?
    public var source: String
    /// The reason (``CategoryReason`` as JSON: `{"rule":{"name":...,"index":1}}` …).
    public var reasonJSON: String
    /// The reason's kind word (`user`, `rule`, `learned`, `provider`, `own-transfer`, `nothing-applies`, `declined`).
    public var reasonKind: String
    /// The reason's line for tables.
    public var reasonText: String
    /// The parts when the user split the transaction (their amounts sum to the transaction's).
    public var split: [Part]
    public init(account: String?, source: String, reasonJSON: String, reasonKind: String, reasonText: String, split: [Part] = []) {
        self.account = account; self.source = source; self.reasonJSON = reasonJSON; self.reasonKind = reasonKind
        self.reasonText = reasonText; self.split = split
    }
}
