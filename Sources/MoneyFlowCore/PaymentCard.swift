import Foundation

/// A bank card as a wallet bill names it in its payment method (`招商银行储蓄卡(3816)`): the bank,
/// debit or credit, and the last four digits. A wallet row paid with a card belongs to that
/// card's account, the one its own statement or bill lands in; the store finds that account
/// by this identity whichever file comes first (`Reconciler.cardTargets`).
///
/// Its account key is `bankcard:<bank>:<debit|credit>:<NNNN>` (e.g. `bankcard:招商银行:debit:3816`).
/// A statement account is a card by its facts: a known institution (``PaymentCard/bank(_:)``),
/// an account or card number whose last four are digits, and its type (`credit` or a subtype
/// naming a credit card: a credit card; anything else: a debit card).
public struct PaymentCard: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable { case debit, credit }
    /// The bank's short Chinese name (``bank(_:)``), e.g. `招商银行`.
    public var bank: String
    public var kind: Kind
    public var last4: String

    public init(bank: String, kind: Kind, last4: String) { self.bank = bank; self.kind = kind; self.last4 = last4 }

    static let prefix = "bankcard:"

    /// The card of a `bankcard:` account key; nil for any other key.
    public init?(key: String) {
        guard key.hasPrefix(Self.prefix) else { return nil }
        let parts = key.dropFirst(Self.prefix.count).split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let kind = Kind(rawValue: parts[1]), Self.isLast4(parts[2]) else { return nil }
        self.init(bank: Self.bank(parts[0]) ?? parts[0], kind: kind, last4: parts[2])
    }

    /// The card a store account is, from its facts; nil when the institution is not a bank
    /// this table knows or the number has no four final digits.
    public init?(institution: String?, number: String?, type: String?, subtype: String?) {
        guard let institution, let bank = Self.bank(institution), let number else { return nil }
        let last4 = String(number.suffix(4))
        guard Self.isLast4(last4) else { return nil }
        let credit = type?.lowercased() == "credit" || (subtype?.lowercased().contains("credit") ?? false)
        self.init(bank: bank, kind: credit ? .credit : .debit, last4: last4)
    }

    /// `bankcard:<bank>:<kind>:<last4>`.
    public var key: String { Self.prefix + bank + ":" + kind.rawValue + ":" + last4 }

    static func isLast4(_ s: String) -> Bool { s.count == 4 && s.allSatisfy { $0.isASCII && $0.isNumber } }

    /// The names a bank goes by in statements and wallet bills (its English name in our
    /// importers' account facts, its Chinese short and full names in payment methods), each
    /// mapped to its short Chinese name. A name not listed is its own bank: it matches only
    /// the same spelling.
    static let names: [String: String] = {
        let banks: [String: [String]] = [
            "招商银行": ["China Merchants Bank", "CMB", "招商银行股份有限公司"],
            "工商银行": ["中国工商银行", "Industrial and Commercial Bank of China", "ICBC"],
            "建设银行": ["中国建设银行", "China Construction Bank", "CCB"],
            "农业银行": ["中国农业银行", "Agricultural Bank of China", "ABC"],
            "中国银行": ["Bank of China", "BOC"],
            "交通银行": ["Bank of Communications", "BOCOM"],
        ]
        var out: [String: String] = [:]
        for (short, others) in banks {
            out[short.lowercased()] = short
            for o in others { out[o.lowercased()] = short }
        }
        return out
    }()

    /// The short Chinese name of a bank known by `name`, nil for a name not in the table.
    public static func bank(_ name: String) -> String? { names[name.trimmingCharacters(in: .whitespaces).lowercased()] }
}
