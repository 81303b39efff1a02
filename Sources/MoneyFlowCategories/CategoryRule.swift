import Foundation
import MoneyFlowCore

/// A text condition of a rule: a case-insensitive substring (full- and half-width forms alike:
/// `（` matches `(`), or a regular expression (ICU syntax, case-insensitive).
public enum TextMatch: Sendable, Hashable {
    case substring(String)
    case regex(RulePattern)
}

/// A ``TextMatch`` ready to test: a substring folded once (``PayeeNormalizer/foldedScalars(_:)``),
/// so a transaction's text is folded once for all the rules, and compared as scalars.
enum CompiledMatch: Sendable, Hashable {
    case substring([UInt32])
    case regex(RulePattern)

    init(_ m: TextMatch) {
        switch m {
        case .substring(let s): self = .substring(PayeeNormalizer.foldedScalars(s))
        case .regex(let p): self = .regex(p)
        }
    }

    func matches(folded text: [UInt32], original: String) -> Bool {
        switch self {
        case .substring(let needle):
            guard !needle.isEmpty, needle.count <= text.count else { return needle.isEmpty }
            for start in 0...(text.count - needle.count) where text[start] == needle[0] {
                var k = 1
                while k < needle.count && text[start + k] == needle[k] { k += 1 }
                if k == needle.count { return true }
            }
            return false
        case .regex(let p): return p.matches(original)
        }
    }
}

/// A compiled regular expression with its source text (equality and hashing use the text).
/// `NSRegularExpression` is immutable once built and documented as safe to share between threads.
public final class RulePattern: @unchecked Sendable, Hashable {
    public let pattern: String
    private let regex: NSRegularExpression

    /// Compiles `pattern`; the error says what is wrong with it.
    public init(_ pattern: String) throws(RuleError) {
        do { regex = try NSRegularExpression(pattern: pattern, options: [.caseInsensitive]) } catch {
            throw RuleError("invalid regular expression '\(pattern)'")
        }
        self.pattern = pattern
    }

    func matches(_ text: String) -> Bool {
        regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    public static func == (a: RulePattern, b: RulePattern) -> Bool { a.pattern == b.pattern }
    public func hash(into h: inout Hasher) { h.combine(pattern) }
}

/// One rule of the rules file: every condition given must hold (an absent condition holds);
/// the first rule whose conditions hold decides the category.
public struct CategoryRule: Sendable, Hashable {
    /// Which way the money moves.
    public enum Direction: String, Sendable, Hashable, CaseIterable {
        /// Money out of the account (negative amount).
        case out
        /// Money into the account (positive amount).
        case `in`
    }

    /// Shown in reasons and `rules test` (defaults to the category when the file gives none).
    public var name: String
    /// The ledger account the rule books to.
    public var category: String
    /// Matched against the statement's description and its note (CMB 客户摘要).
    public var description: [TextMatch]
    public var counterparty: [TextMatch]
    /// The wallet's or Plaid's merchant.
    public var merchant: [TextMatch]
    /// Inclusive bounds on the signed amount (negative = money out), exact decimals.
    public var amountMin: Decimal?
    public var amountMax: Decimal?
    public var direction: Direction?
    /// The transaction's account must be one of these (exact names); empty = any.
    public var accounts: [String]
    /// One of the transaction's records must be of one of these kinds; empty = any.
    public var sources: [SourceKind]
    /// description, counterparty, merchant, ready to test.
    private let compiled: (description: [CompiledMatch], counterparty: [CompiledMatch], merchant: [CompiledMatch])

    public static func == (a: CategoryRule, b: CategoryRule) -> Bool {
        a.name == b.name && a.category == b.category && a.description == b.description && a.counterparty == b.counterparty
            && a.merchant == b.merchant && a.amountMin == b.amountMin && a.amountMax == b.amountMax && a.direction == b.direction
            && a.accounts == b.accounts && a.sources == b.sources
    }
    public func hash(into h: inout Hasher) { h.combine(name); h.combine(category) }

    public init(
        name: String, category: String, description: [TextMatch] = [], counterparty: [TextMatch] = [],
        merchant: [TextMatch] = [], amountMin: Decimal? = nil, amountMax: Decimal? = nil, direction: Direction? = nil,
        accounts: [String] = [], sources: [SourceKind] = []
    ) throws(RuleError) {
        self.name = name; self.category = category; self.description = description; self.counterparty = counterparty
        self.merchant = merchant; self.amountMin = amountMin; self.amountMax = amountMax; self.direction = direction
        self.accounts = accounts; self.sources = sources
        compiled = (description.map(CompiledMatch.init), counterparty.map(CompiledMatch.init), merchant.map(CompiledMatch.init))
        if let problem = LedgerAccountName.problem(category) { throw RuleError("rule '\(name)': category \(problem)") }
        guard hasCondition else {
            throw RuleError(
                "rule '\(name)' has no condition: give at least one of description, counterparty, merchant, amount, direction, account, source"
            )
        }
        if let lo = amountMin, let hi = amountMax, lo > hi {
            throw RuleError("rule '\(name)': amount_min \(lo) is above amount_max \(hi)")
        }
    }

    var hasCondition: Bool {
        !description.isEmpty || !counterparty.isEmpty || !merchant.isEmpty || amountMin != nil || amountMax != nil
            || direction != nil || !accounts.isEmpty || !sources.isEmpty
    }

    /// Whether every condition holds for `subject` (a text condition with several entries holds
    /// when any of them matches).
    func matches(_ s: RuleSubject) -> Bool {
        let input = s.input
        if !accounts.isEmpty && !accounts.contains(input.account) { return false }
        if !sources.isEmpty && !input.sourceKinds.contains(where: sources.contains) { return false }
        if let direction, (input.amount.minorUnits < 0) != (direction == .out) { return false }
        if !compiled.description.isEmpty {
            let note = input.note ?? ""
            guard
                compiled.description.contains(where: {
                    $0.matches(folded: s.description, original: input.description) || $0.matches(folded: s.note, original: note)
                })
            else { return false }
        }
        if !compiled.counterparty.isEmpty {
            guard let original = input.counterparty,
                compiled.counterparty.contains(where: { $0.matches(folded: s.counterparty, original: original) })
            else { return false }
        }
        if !compiled.merchant.isEmpty {
            let originals = [input.walletMerchant, input.plaidMerchant].compactMap { $0 }
            guard
                compiled.merchant.contains(where: { m in
                    originals.contains { m.matches(folded: PayeeNormalizer.foldedScalars($0), original: $0) }
                })
            else { return false }
        }
        if amountMin != nil || amountMax != nil {
            let amount = s.decimalAmount
            if let lo = amountMin, amount < lo { return false }
            if let hi = amountMax, amount > hi { return false }
        }
        return true
    }
}

/// A transaction's texts folded once for all the rules.
struct RuleSubject {
    let input: CategorizationInput
    let description: [UInt32]
    let note: [UInt32]
    let counterparty: [UInt32]
    init(_ input: CategorizationInput) {
        self.input = input
        description = PayeeNormalizer.foldedScalars(input.description)
        note = PayeeNormalizer.foldedScalars(input.note ?? "")
        counterparty = PayeeNormalizer.foldedScalars(input.counterparty ?? "")
    }
    /// The signed amount as an exact decimal (only the rules with amount bounds need it).
    var decimalAmount: Decimal {
        Decimal(
            sign: input.amount.minorUnits < 0 ? .minus : .plus, exponent: -input.amount.exponent,
            significand: Decimal(input.amount.minorUnits.magnitude))
    }
}

/// Why a rule (or the rules file) was refused: one line naming the rule and what to change.
public struct RuleError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
