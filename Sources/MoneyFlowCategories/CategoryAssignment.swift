import MoneyFlowCore

/// Where a transaction's category came from. The raw values are the `category_source` strings
/// of the JSON output contract: only ever add cases.
public enum CategorySource: String, Sendable, Hashable, Codable, CaseIterable {
    /// The user's own decision (`moneyflow categorize`): always wins, never overwritten.
    case user
    /// The first matching rule of the rules file.
    case rule
    /// Learned from the user's earlier decisions (same payee, or similar texts).
    case learned
    /// The provider's own category (Plaid, the wallet bills), through the provider mapping.
    case provider
    /// Nothing applies (exports book it to `Uncategorized`), or it must not be categorised.
    case none
}

/// How a learned category was found: the same normalised payee, or the text classifier.
public enum LearnedMethod: String, Sendable, Hashable, Codable {
    case payee
    case classifier
}

/// Why a transaction has its category: typed evidence (the store and the CLI render it, tests
/// compare it), with ``text`` the one line a person reads.
public enum CategoryReason: Sendable, Hashable, Codable {
    /// The user decided it.
    case user
    /// Rule number `index` (1-based, file order) named `name` matched.
    case rule(name: String, index: Int)
    /// Learned from these transactions (the user's decisions, ids ascending) with `confidence`
    /// in 0...1; `payee` is the normalised payee key for the payee method.
    case learned(method: LearnedMethod, fromTransactions: [Int64], confidence: Double, payee: String?)
    /// The provider said `category` in `taxonomy`; `mappedBy` tells whether the user's mapping
    /// file or the built-in default chose the account.
    case provider(taxonomy: ProviderTaxonomy, category: String, mappedBy: ProviderMappingOrigin)
    /// A refund of transaction `ofTransaction`: booked back to that transaction's category.
    case refund(ofTransaction: Int64)
    /// A transfer between the user's own accounts: neither spending nor income.
    case ownTransfer
    /// No source had anything to say.
    case nothingApplies
    /// The learner had candidates but declined (best confidence below its threshold, or a
    /// conflict); nil confidence when the payee's decisions disagreed.
    case declined(bestConfidence: Double?)

    /// The reason's kind as a stable word for JSON (`user`, `rule`, `learned`, `provider`,
    /// `own-transfer`, `nothing-applies`, `declined`, `refund`): a contract, only ever add kinds.
    public var kind: String {
        switch self {
        case .user: return "user"
        case .rule: return "rule"
        case .learned: return "learned"
        case .provider: return "provider"
        case .refund: return "refund"
        case .ownTransfer: return "own-transfer"
        case .nothingApplies: return "nothing-applies"
        case .declined: return "declined"
        }
    }

    /// One line for tables and `--explain`, e.g. `rule 2 "groceries"` or
    /// `learned from 2 transactions (#12, #40) with the same payee "星巴克", confidence 1.00`.
    public var text: String {
        switch self {
        case .user: return "set by the user"
        case .rule(let name, let index): return "rule \(index) \"\(name)\""
        case .learned(let method, let ids, let confidence, let payee):
            let list = ids.prefix(5).map { "#\($0)" }.joined(separator: ", ") + (ids.count > 5 ? ", …" : "")
            let count = "\(ids.count) transaction\(ids.count == 1 ? "" : "s") (\(list))"
            let conf = "confidence \(Self.fixed(confidence))"
            switch method {
            case .payee: return "learned from \(count) with the same payee \"\(payee ?? "")\", \(conf)"
            case .classifier: return "learned from \(count) with similar texts, \(conf)"
            }
        case .provider(let taxonomy, let category, let origin):
            return "\(taxonomy.displayName) category \(category) (\(origin == .user ? "your mapping" : "default mapping"))"
        case .refund(let original): return "refund of transaction #\(original), booked to its category"
        case .ownTransfer: return "transfer between own accounts"
        case .nothingApplies: return "no rule, decision or provider category applies"
        case .declined(let best):
            if let best { return "not learned: best confidence \(Self.fixed(best)) is below the threshold" }
            return "not learned: earlier decisions for this payee disagree"
        }
    }

    /// `0.93` (two decimals, no locale).
    static func fixed(_ v: Double) -> String {
        let hundredths = Int((v * 100).rounded())
        let frac = hundredths % 100
        return "\(hundredths / 100).\(frac < 10 ? "0" : "")\(frac)"
    }
}

/// The category of one transaction: the ledger account its other side is booked to, where it
/// came from and why. `account` is nil exactly when `source` is ``CategorySource/none``.
public struct CategoryAssignment: Sendable, Hashable, Codable {
    public var account: String?
    public var source: CategorySource
    public var reason: CategoryReason
    /// The parts when the user split the transaction (their accounts and exact amounts);
    /// `account` is then the first part's account.
    public var split: CategorySplit?

    public init(account: String?, source: CategorySource, reason: CategoryReason, split: CategorySplit? = nil) {
        self.account = account; self.source = source; self.reason = reason; self.split = split
    }

    /// Nothing applies.
    public static let uncategorized = CategoryAssignment(account: nil, source: .none, reason: .nothingApplies)
}
