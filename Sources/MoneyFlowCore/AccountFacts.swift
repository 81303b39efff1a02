/// What an importer learned about an account from its file. The store maps `key` to an account.
public struct AccountFacts: Sendable, Hashable, Codable {
    /// Stable identity within the importer's world, e.g. `cmb:6214********8705` or
    /// `plaid:<account_id>`. The store remembers which account a key belongs to.
    public var key: String
    /// Name for a new account, e.g. `CMB 8705` or `Plaid Checking 0000`.
    public var suggestedName: String
    public var institution: String?
    /// Account number as printed (masked or full) or Plaid mask.
    public var number: String?
    /// `checking`, `credit`, `depository/checking`, `ALL/全币种` ...
    public var type: String?
    public var subtype: String?
    /// Provider (`plaid`) and its account id, when the source has one.
    public var provider: String?
    public var providerAccountID: String?
    /// Currencies seen for this account in this file.
    public var currencies: [String]
    /// Current balance as reported by a provider (store sign convention: negative = owed).
    public var currentBalance: Money?
    public var availableBalance: Money?
    /// Free-form facts from the source (holder name, branch, statement period ...).
    public var details: [String: String]
    /// True when `details` are the facts of one dated statement (a card bill's 账单日, 到期还款日,
    /// 信用额度, 本期还款总额 ...): the store keeps them per import (`statement_fact`), where a user
    /// can read them after the import. Descriptive details (holder, branch) are not marked.
    /// Optional so older encoded facts still decode.
    public var detailsAreStatementFacts: Bool?

    public init(
        key: String, suggestedName: String, institution: String? = nil, number: String? = nil,
        type: String? = nil, subtype: String? = nil, provider: String? = nil,
        providerAccountID: String? = nil, currencies: [String] = [],
        currentBalance: Money? = nil, availableBalance: Money? = nil, details: [String: String] = [:]
    ) {
        self.key = key; self.suggestedName = suggestedName; self.institution = institution
        self.number = number; self.type = type; self.subtype = subtype; self.provider = provider
        self.providerAccountID = providerAccountID; self.currencies = currencies
        self.currentBalance = currentBalance; self.availableBalance = availableBalance; self.details = details
    }
}
