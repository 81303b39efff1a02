import MoneyFlowCore

@testable import MoneyFlowCategories

/// A CNY transaction of the CMB debit account, built from the fields a test cares about.
func txn(
    _ id: Int64, _ amount: String = "-25.00", description: String = "快捷支付", note: String? = nil, counterparty: String? = nil,
    walletMerchant: String? = nil, walletItem: String? = nil, plaidMerchant: String? = nil, provider: [ProviderCategory] = [],
    kinds: [SourceKind] = [.cmbPDF], account: String = "cmb-debit", currency: String = "CNY", ownTransfer: Bool = false,
    person: Bool = false
) -> CategorizationInput {
    CategorizationInput(
        id: id, account: account, amount: try! Money.parse(amount, currency: currency),
        date: LocalDate(year: 2026, month: 3, day: 1 + Int(id % 28))!, description: description, note: note,
        counterparty: counterparty, walletMerchant: walletMerchant, walletItem: walletItem, plaidMerchant: plaidMerchant,
        providerCategories: provider, sourceKinds: kinds, isOwnTransfer: ownTransfer, counterpartyIsPerson: person)
}

/// A CMB row paid through Alipay at `merchant`.
func alipay(_ id: Int64, _ merchant: String, _ amount: String = "-25.00") -> CategorizationInput {
    txn(id, amount, note: "支付宝-" + merchant, counterparty: "支付宝（中国）网络技术有限公司")
}

/// A CMB row paid through WeChat Pay at `merchant`.
func wechat(_ id: Int64, _ merchant: String, _ amount: String = "-25.00") -> CategorizationInput {
    txn(id, amount, note: "财付通-微信支付-" + merchant, counterparty: "财付通支付科技有限公司")
}

func model(_ taught: [(CategorizationInput, String)], options: LearnedModel.Options = LearnedModel.Options()) -> LearnedModel {
    LearnedModel(examples: taught.map { TaughtExample(input: $0.0, account: $0.1) }, options: options)
}

extension LearnedModel.Prediction {
    var account: String? { if case .learned(let a) = self { return a.account } else { return nil } }
}
