/// One observation of a money movement, read from one source file, before it meets the store.
public struct IncomingRecord: Sendable, Hashable, Codable {
    /// ``AccountFacts/key`` of the account it belongs to.
    public var accountKey: String
    public var sourceKind: SourceKind
    /// Posting date (statement) or Plaid `date`.
    public var date: LocalDate
    /// Signed amount, negative = money out of the account.
    public var amount: Money
    public var description: String
    public var counterparty: String?
    public var note: String?
    /// Balance after this row, when the source prints one.
    public var balance: Money?
    public var pending: Bool
    /// Provider id (Plaid `transaction_id`, a bank reference number, an OFX `FITID`) when the
    /// source has one: the provider's own id, as users see it in their bank's files.
    public var externalID: String?
    /// Set when `externalID` is unique only within a scope the provider does not print (banks
    /// reuse OFX FITIDs across accounts): an opaque tag of that scope. It is part of the
    /// record's identity in the store (``Fingerprint``), so two accounts' equal ids stay two
    /// records even when `--account` puts them into one account; never part of the id shown.
    public var externalIDScope: String?
    /// Plaid `pending_transaction_id`: the pending record this posted one replaces.
    public var pendingExternalID: String?
    public var authorizedDate: LocalDate?
    public var category: String?
    /// Time of day as printed (`12:56:16`), when the source has one.
    public var time: String?
    /// Where the provider says the payment was made (Plaid `location`), nil when it says nothing.
    /// Not part of the record's identity: it only helps pairing (``PaymentPlace``).
    public var place: PaymentPlace?
    public var locator: Locator
    /// The source's own fields for audit, as JSON text (secrets redacted by the importer).
    public var raw: String

    /// Inlinable: an importer builds every record of a file through here, and a call into this
    /// module copied (retained) each of its Strings and then released the caller's.
    @inlinable public init(
        accountKey: String, sourceKind: SourceKind, date: LocalDate, amount: Money,
        description: String, counterparty: String? = nil, note: String? = nil,
        balance: Money? = nil, pending: Bool = false, externalID: String? = nil,
        pendingExternalID: String? = nil, authorizedDate: LocalDate? = nil,
        category: String? = nil, time: String? = nil, locator: Locator, raw: String = "{}", externalIDScope: String? = nil,
        place: PaymentPlace? = nil
    ) {
        self.accountKey = accountKey; self.sourceKind = sourceKind; self.date = date
        self.amount = amount; self.description = description; self.counterparty = counterparty
        self.note = note; self.balance = balance; self.pending = pending; self.externalID = externalID
        self.pendingExternalID = pendingExternalID; self.authorizedDate = authorizedDate
        self.category = category; self.time = time; self.locator = locator; self.raw = raw
        self.externalIDScope = externalIDScope; self.place = place
    }

    /// The text that, with account, kind, date and amount, identifies a row of a source without
    /// ids: two exports of the same row agree on it. Whitespace-normalised.
    /// (Each of description, counterparty, note, balance text with whitespace runs collapsed to
    /// one space and trimmed, joined by U+001F; built by ``Fingerprint``'s byte-level builder.)
    public var identityText: String {
        var buf: [UInt8] = []
        buf.reserveCapacity(description.utf8.count + 32)
        FingerprintText.appendIdentityText(self, to: &buf)
        return String(decoding: buf, as: UTF8.self)
    }
}
