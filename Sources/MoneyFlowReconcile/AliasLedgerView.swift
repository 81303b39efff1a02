import MoneyFlowCore

/// A stored transaction that holds a bank record and a provider record on evidence other than
/// their text: the engine linked them with their texts sharing nothing because provider ids
/// agreed or the date was exact and the amount unique (``LinkEvidence/carried``), or a user linked
/// them. Its two texts are then a learned alias (``TextlessLinkRule``), exactly as a carried
/// pair of the same import would be.
public struct ConfirmedPairing: Sendable, Hashable {
    public var transactionID: Int64
    /// The bank record's text as the engine reads it: description and counterparty.
    public var bankDescription: String
    public var bankCounterparty: String?
    /// The provider record's text.
    public var providerDescription: String
    public var providerCounterparty: String?
    public init(
        transactionID: Int64, bankDescription: String, bankCounterparty: String?,
        providerDescription: String, providerCounterparty: String?
    ) {
        self.transactionID = transactionID
        self.bankDescription = bankDescription; self.bankCounterparty = bankCounterparty
        self.providerDescription = providerDescription; self.providerCounterparty = providerCounterparty
    }
}

/// A view that can tell which text pairs the ledger already confirmed, so an alias learned in
/// one import keeps carrying pairs in later ones (a weekly feed page sees few same-day pairs of
/// its own). Read-only.
public protocol AliasLedgerView: LedgerView {
    /// Pairings of live, not reviewed transactions of an account in a currency: per
    /// transaction, each active bank record with each active provider record, when one of its
    /// records' links is a user's decision or an engine link whose evidence is `.carried`.
    /// Never a record waiting in review.
    func confirmedPairings(accountID: Int64, currency: String) throws -> [ConfirmedPairing]
}
