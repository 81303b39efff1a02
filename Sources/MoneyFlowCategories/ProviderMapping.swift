import MoneyFlowCore

/// Whether the user's mapping file or the built-in table chose a provider category's account.
public enum ProviderMappingOrigin: String, Sendable, Hashable, Codable {
    case user
    case builtIn = "default"
}

/// Provider categories (Plaid, Alipay, WeChat Pay) to ledger accounts: the built-in tables
/// (``PlaidCategoryDefaults``, ``WalletCategoryDefaults``) under the user's own remapping.
///
/// Lookup order for Plaid: the user's entry for the detailed category, the user's entry for the
/// primary, the default for the detailed, the default for the primary (so remapping
/// `FOOD_AND_DRINK` moves the whole tree). A mapping to nothing stops the lookup.
public struct ProviderMapping: Sendable, Hashable {
    /// The account for money out and for money in (a 微信红包 sent is a gift given, one received
    /// is income); nil = no category that way.
    public struct Target: Sendable, Hashable {
        public var outflow: String?
        public var inflow: String?
        public init(outflow: String?, inflow: String?) { self.outflow = outflow; self.inflow = inflow }
        public static func both(_ account: String) -> Target { Target(outflow: account, inflow: account) }
        public static let nothing = Target(outflow: nil, inflow: nil)
        func account(for amount: Money) -> String? { amount.minorUnits < 0 ? outflow : inflow }
    }

    /// The user's entries, per taxonomy, by category name.
    public var overrides: [ProviderTaxonomy: [String: Target]]

    public init(overrides: [ProviderTaxonomy: [String: Target]] = [:]) { self.overrides = overrides }

    /// The built-in table of one taxonomy (Plaid: detailed and primary names in one table).
    public static func defaults(_ taxonomy: ProviderTaxonomy) -> [String: Target] {
        switch taxonomy {
        case .plaid: return plaidDefaults
        case .plaidLegacy: return [:]
        case .alipay: return WalletCategoryDefaults.alipay
        case .wechat: return WalletCategoryDefaults.wechat
        }
    }

    private static let plaidDefaults: [String: Target] = {
        var t: [String: Target] = [:]
        for (k, v) in PlaidCategoryDefaults.primary.merging(PlaidCategoryDefaults.detailed, uniquingKeysWith: { a, _ in a }) {
            t[k] = v.isEmpty ? .nothing : .both(v)
        }
        return t
    }()

    /// The account for the first of `categories` that maps to one, with the category that chose it.
    public func assignment(_ categories: [ProviderCategory], amount: Money) -> CategoryAssignment? {
        for c in categories {
            guard let (name, target, origin) = lookup(c) else { continue }
            guard let account = target.account(for: amount) else { continue }
            return CategoryAssignment(
                account: account, source: .provider, reason: .provider(taxonomy: c.taxonomy, category: name, mappedBy: origin))
        }
        return nil
    }

    /// The entry deciding `c`: its name, target and origin (nil when no table knows it).
    func lookup(_ c: ProviderCategory) -> (String, Target, ProviderMappingOrigin)? {
        var names: [String] = []
        if let d = c.detailed, !d.isEmpty { names.append(d) }
        names.append(c.primary)
        if c.taxonomy == .plaidLegacy, let first = c.primary.split(separator: ">").first {
            names.append(first.trimmed(.whitespaces))
        }
        let user = overrides[c.taxonomy] ?? [:]
        for n in names { if let t = user[n] { return (n, t, .user) } }
        let builtIn = Self.defaults(c.taxonomy)
        for n in names { if let t = builtIn[n] { return (n, t, .builtIn) } }
        return nil
    }
}
