import MoneyFlowCore

/// Where a wallet row's money came from or went, read from its payment method (Alipay
/// 收/付款方式, WeChat 支付方式). A card is the card's own account (the same account its bank
/// statement lands in, resolved by the store from the key); the wallet's own balances are the
/// person's wallet accounts.
public enum WalletAccount: Sendable, Hashable {
    /// A bank card: `招商银行储蓄卡(3816)` / `招商银行(3816)` (WeChat's debit card) / `招商银行信用卡(5521)`.
    case card(bank: String, credit: Bool, last4: String)
    /// One of the person's own balances on the platform: 余额, 余额宝, 花呗 (Alipay), 零钱, 零钱通 (WeChat).
    case own(String)
    /// The platform account as a whole, for a bill that names no payment method (Alipay's older
    /// PC export): where its money came from is not known, so it is not put on any card.
    case platform

    /// The balances a platform keeps for its user (花呗 is a credit line: a liability).
    static let ownBalances: [SourceKind: Set<String>] = [.alipay: ["余额", "余额宝", "花呗"], .wechat: ["零钱", "零钱通"]]

    /// The method as printed, read; nil when it names nothing this importer knows.
    /// `<bank>(NNNN)` without 储蓄卡/信用卡 is a debit card (WeChat prints debit cards so).
    static func parse(_ method: String, platform: SourceKind) -> WalletAccount? {
        if ownBalances[platform]?.contains(method) == true { return .own(method) }
        guard method.hasSuffix(")"), let open = method.lastIndex(of: "(") else { return nil }
        let digits = method[method.index(after: open)..<method.index(before: method.endIndex)]
        guard digits.count == 4, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        var bank = Substring(method[..<open])
        var credit = false
        if bank.hasSuffix("信用卡") {
            credit = true; bank = bank.dropLast(3)
        } else if bank.hasSuffix("储蓄卡") {
            bank = bank.dropLast(3)
        }
        guard !bank.isEmpty, !bank.contains("&"), !bank.contains("("), bank.allSatisfy({ !$0.isWhitespace }) else { return nil }
        return .card(bank: String(bank), credit: credit, last4: String(digits))
    }

    /// The ``AccountFacts`` of this account. `holder` is the platform account from the bill's
    /// preamble (Alipay 支付宝账户, WeChat 微信昵称): two people's wallets stay two accounts.
    func facts(platform: SourceKind, holder: String) -> AccountFacts {
        switch self {
        case .card(let bank, let credit, let last4):
            let type = credit ? "credit" : "debit"
            return AccountFacts(
                key: "bankcard:\(bank):\(type):\(last4)", suggestedName: "\(bank) \(type) \(last4)", institution: bank, number: last4,
                type: type, currencies: ["CNY"])
        case .own(let name):
            let platformName = platform == .alipay ? "支付宝" : "微信"
            return AccountFacts(
                key: "\(platform.rawValue):\(holder):\(name)", suggestedName: "\(platformName) \(holder) \(name)",
                institution: platformName,
                type: name == "花呗" ? "credit" : "wallet", currencies: ["CNY"])
        case .platform:
            let platformName = platform == .alipay ? "支付宝" : "微信"
            return AccountFacts(
                key: "\(platform.rawValue):\(holder)", suggestedName: "\(platformName) \(holder)", institution: platformName,
                type: "wallet",
                currencies: ["CNY"])
        }
    }
}
