import MoneyFlowCore

/// Which category scheme a provider's category belongs to.
public enum ProviderTaxonomy: String, Sendable, Hashable, Codable, CaseIterable {
    /// Plaid's `personal_finance_category` (`primary`, `detailed`).
    case plaid
    /// Plaid's legacy `category` array (`Food and Drink > Restaurants`): kept, never mapped by default.
    case plaidLegacy = "plaid-legacy"
    /// The Alipay bill's 交易分类 (`餐饮美食`, `交通出行`).
    case alipay
    /// The WeChat Pay bill's 交易类型 (`商户消费`, `转账`).
    case wechat

    public var displayName: String {
        switch self {
        case .plaid: return "Plaid"
        case .plaidLegacy: return "Plaid (legacy)"
        case .alipay: return "Alipay"
        case .wechat: return "WeChat Pay"
        }
    }
}

/// A provider's category of one transaction, as its source wrote it.
public struct ProviderCategory: Sendable, Hashable, Codable {
    public var taxonomy: ProviderTaxonomy
    /// Plaid's `primary` (`FOOD_AND_DRINK`), Alipay's 交易分类, WeChat's 交易类型, or the legacy path.
    public var primary: String
    /// Plaid's `detailed` (`FOOD_AND_DRINK_COFFEE`), when there is one.
    public var detailed: String?
    public init(taxonomy: ProviderTaxonomy, primary: String, detailed: String? = nil) {
        self.taxonomy = taxonomy; self.primary = primary; self.detailed = detailed
    }
}

/// What the categoriser sees of one transaction: the merged view's facts and every text its
/// sources carry. The store fills it from a ``LedgerTransaction`` and its records (the
/// statement's `description` and `counterparty`, a wallet record's merchant and item, Plaid's
/// `merchant_name` and `personal_finance_category` from the record's `raw`), plus the transfer
/// facts its transfer matching already decided. Pure data: no store, no formats.
public struct CategorizationInput: Sendable, Hashable, Codable {
    /// The transaction's id (user decisions and learned reasons refer to it).
    public var id: Int64
    /// The account it belongs to (the store's account name, e.g. `cmb-debit-3816`).
    public var account: String
    /// Signed, negative = money out of the account.
    public var amount: Money
    public var date: LocalDate
    /// The statement's description (a bank CSV's text, CMB 交易摘要 such as `快捷支付`).
    public var description: String
    /// The statement's note (CMB 客户摘要 `支付宝-星巴克…`, a transfer's memo).
    public var note: String?
    /// The statement's counterparty (CMB 对手信息), a Plaid counterparty, a transfer's recipient.
    public var counterparty: String?
    /// The wallet bill's 交易对方 (the real merchant behind `支付宝-…`).
    public var walletMerchant: String?
    /// The wallet bill's 商品说明 / 商品 (what was bought).
    public var walletItem: String?
    /// Plaid's `merchant_name`.
    public var plaidMerchant: String?
    /// Every provider category its records carry, in the records' order.
    public var providerCategories: [ProviderCategory]
    /// The kinds of the records supporting it (rules may test them).
    public var sourceKinds: [SourceKind]
    /// True when the transfer matching linked it to another own account's leg: never spending or income.
    public var isOwnTransfer: Bool
    /// True when the counterparty is a person (a transfer to 张三, a WeChat 转账): never learned
    /// from a shop's category.
    public var counterpartyIsPerson: Bool
    /// The transaction this one refunds, when the store found it (``WalletRefund``): the refund
    /// takes that transaction's category.
    public var refundOf: Int64?

    public init(
        id: Int64, account: String, amount: Money, date: LocalDate, description: String, note: String? = nil, counterparty: String? = nil,
        walletMerchant: String? = nil, walletItem: String? = nil, plaidMerchant: String? = nil,
        providerCategories: [ProviderCategory] = [], sourceKinds: [SourceKind] = [], isOwnTransfer: Bool = false,
        counterpartyIsPerson: Bool = false, refundOf: Int64? = nil
    ) {
        self.id = id; self.account = account; self.amount = amount; self.date = date; self.description = description
        self.note = note; self.counterparty = counterparty; self.walletMerchant = walletMerchant; self.walletItem = walletItem
        self.plaidMerchant = plaidMerchant; self.providerCategories = providerCategories; self.sourceKinds = sourceKinds
        self.isOwnTransfer = isOwnTransfer; self.counterpartyIsPerson = counterpartyIsPerson
        self.refundOf = refundOf
    }

    /// The merchant as the best source names it: the wallet's, then Plaid's (rules' `merchant`).
    public var merchant: String? { walletMerchant ?? plaidMerchant }
}
