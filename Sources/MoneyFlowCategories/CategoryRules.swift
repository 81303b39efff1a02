import MoneyFlowCore

/// The rules of a rules file, in file order: the first rule that matches a transaction decides
/// its category (source ``CategorySource/rule``).
public struct CategoryRules: Sendable, Hashable {
    public var rules: [CategoryRule]
    public init(_ rules: [CategoryRule] = []) { self.rules = rules }

    /// The first matching rule and its 1-based index, or nil.
    public func firstMatch(_ input: CategorizationInput) -> (index: Int, rule: CategoryRule)? {
        guard !rules.isEmpty else { return nil }
        let subject = RuleSubject(input)
        for (i, r) in rules.enumerated() where r.matches(subject) { return (i + 1, r) }
        return nil
    }

    /// What `moneyflow rules test` shows: per rule, the transactions it decides and those it also
    /// matches but an earlier rule took (so a rule that never wins is visible), and the
    /// transactions no rule matches. Ids in input order.
    public func test(_ inputs: [CategorizationInput]) -> RuleTestReport {
        var wins = [[Int64]](repeating: [], count: rules.count)
        var shadowed = wins
        var unmatched: [Int64] = []
        for input in inputs {
            let subject = RuleSubject(input)
            var winner: Int?
            for (i, r) in rules.enumerated() where r.matches(subject) {
                if winner == nil { winner = i; wins[i].append(input.id) } else { shadowed[i].append(input.id) }
            }
            if winner == nil { unmatched.append(input.id) }
        }
        let perRule = rules.enumerated().map { i, r in
            RuleTestReport.RuleResult(index: i + 1, name: r.name, category: r.category, decides: wins[i], shadowedBy: shadowed[i])
        }
        return RuleTestReport(rules: perRule, unmatched: unmatched)
    }
}

/// The outcome of ``CategoryRules/test(_:)``.
public struct RuleTestReport: Sendable, Hashable {
    public struct RuleResult: Sendable, Hashable {
        /// 1-based, file order.
        public var index: Int
        public var name: String
        public var category: String
        /// The transactions this rule categorises.
        public var decides: [Int64]
        /// The transactions it matches that an earlier rule already took.
        public var shadowedBy: [Int64]
    }
    public var rules: [RuleResult]
    public var unmatched: [Int64]
}
