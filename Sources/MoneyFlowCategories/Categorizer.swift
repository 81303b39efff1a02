import MoneyFlowCore

/// The user's category decision about one transaction (`moneyflow categorize`): one account, or a split across several.
public struct CategoryDecision: Sendable, Hashable, Codable {
    public var transactionID: Int64
    public var account: String
    public var split: CategorySplit?
    public init(transactionID: Int64, account: String) {
        self.transactionID = transactionID; self.account = account; self.split = nil
    }
    public init(transactionID: Int64, split: CategorySplit) {
        self.transactionID = transactionID; self.account = split.parts[0].account; self.split = split
    }
}

/// The one place a transaction's category is decided, from four sources in priority order:
/// the user's decision, the first matching rule, what was learned from the user's decisions, the
/// provider's category through the mapping; otherwise none. A refund whose purchase the store
/// found takes the purchase's category before the machine sources (``WalletRefund``).
///
/// A transfer between own accounts gets no category from any machine source (it is neither
/// spending nor income): only the user's own decision applies to it. Pure and deterministic:
/// the same inputs give the same assignments, whatever their order.
public struct Categorizer: Sendable {
    public var decisions: [Int64: CategoryDecision]
    public var rules: CategoryRules
    public var learned: LearnedModel?
    public var providerMapping: ProviderMapping

    public init(
        decisions: [CategoryDecision] = [], rules: CategoryRules = CategoryRules(), learned: LearnedModel? = nil,
        providerMapping: ProviderMapping = ProviderMapping()
    ) {
        var byID: [Int64: CategoryDecision] = [:]
        for d in decisions { byID[d.transactionID] = d }
        self.decisions = byID
        self.rules = rules; self.learned = learned; self.providerMapping = providerMapping
    }

    /// True when only a transaction's provider categories, or its being a leg of a transfer
    /// between own accounts, can give it a category: no decision of the user, no rule, nothing
    /// learned. The store's category pass then reads only the transactions that could get one.
    public var readsOnlyProviderCategories: Bool { decisions.isEmpty && rules.rules.isEmpty && learned == nil }

    /// A categoriser whose learned model is taught by `decisions` on the transactions `inputs`
    /// (the store's transactions the decisions refer to; splits teach nothing).
    public static func learning(
        from decisions: [CategoryDecision], inputs: [CategorizationInput], rules: CategoryRules = CategoryRules(),
        providerMapping: ProviderMapping = ProviderMapping(), options: LearnedModel.Options = LearnedModel.Options()
    ) -> Categorizer {
        var byID: [Int64: CategoryDecision] = [:]
        for d in decisions { byID[d.transactionID] = d }
        let examples = inputs.compactMap { i -> TaughtExample? in
            guard let d = byID[i.id], d.split == nil else { return nil }
            return TaughtExample(input: i, account: d.account)
        }
        // No decision teaches nothing: no model, so no transaction's texts are normalised for it.
        return Categorizer(
            decisions: decisions, rules: rules, learned: examples.isEmpty ? nil : LearnedModel(examples: examples, options: options),
            providerMapping: providerMapping)
    }

    /// The category of `input`. `original` is the category of the transaction a refund gives
    /// money back for (``CategorizationInput/refundOf``): the refund is booked to the same
    /// account, from the same source, except that the user's decision about the purchase is
    /// `learned` for its refund (the user did not decide the refund). A refund whose original
    /// has no category falls back to the other sources.
    public func assign(_ input: CategorizationInput, original: CategoryAssignment? = nil) -> CategoryAssignment {
        assign(input, original: original) { learned?.predict($0) ?? .unknown }
    }

    /// ``assign(_:original:)`` with the learner's answer from `predict`.
    func assign(
        _ input: CategorizationInput, original: CategoryAssignment?, predict: (CategorizationInput) -> LearnedModel.Prediction
    ) -> CategoryAssignment {
        if let d = decisions[input.id] {
            return CategoryAssignment(account: d.account, source: .user, reason: .user, split: d.split)
        }
        if input.isOwnTransfer { return CategoryAssignment(account: nil, source: .none, reason: .ownTransfer) }
        if let of = input.refundOf, let original, let account = original.account {
            return CategoryAssignment(
                account: account, source: original.source == .user ? .learned : original.source, reason: .refund(ofTransaction: of))
        }
        if let (index, rule) = rules.firstMatch(input) {
            return CategoryAssignment(account: rule.category, source: .rule, reason: .rule(name: rule.name, index: index))
        }
        var declined: CategoryReason?
        switch predict(input) {
        case .learned(let a): return a
        case .declined(let reason): declined = reason
        case .unknown: break
        }
        if let p = providerMapping.assignment(input.providerCategories, amount: input.amount) { return p }
        return CategoryAssignment(account: nil, source: .none, reason: declined ?? .nothingApplies)
    }

    /// ``assign(_:)`` of each input, in input order.
    public func assignAll(_ inputs: [CategorizationInput]) -> [CategoryAssignment] {
        var batch = Batch(self)
        return inputs.map { batch.assign($0) }
    }

    /// Assigns many transactions with one categoriser (the store's category pass), asking the
    /// learner once per distinct set of texts: a statement repeats its merchants' texts, and
    /// normalising them (the payee, the classifier's tokens) is most of the learner's work.
    /// Gives exactly ``Categorizer/assign(_:original:)``'s answers: the learner's answer depends
    /// on nothing but the fields of ``Batch/Key``.
    public struct Batch {
        let categorizer: Categorizer
        private var answers: [Key: LearnedModel.Prediction] = [:]

        /// What the learner reads of a transaction (``LearnedModel/predict(_:)``).
        struct Key: Hashable {
            var description: String, note: String?, counterparty: String?
            var walletMerchant: String?, walletItem: String?, plaidMerchant: String?
            var isOwnTransfer: Bool, counterpartyIsPerson: Bool, moneyOut: Bool
        }

        public init(_ categorizer: Categorizer) { self.categorizer = categorizer }

        public mutating func assign(_ input: CategorizationInput, original: CategoryAssignment? = nil) -> CategoryAssignment {
            let categorizer = self.categorizer
            guard let learned = categorizer.learned else { return categorizer.assign(input, original: original) { _ in .unknown } }
            let key = Key(
                description: input.description, note: input.note, counterparty: input.counterparty, walletMerchant: input.walletMerchant,
                walletItem: input.walletItem, plaidMerchant: input.plaidMerchant, isOwnTransfer: input.isOwnTransfer,
                counterpartyIsPerson: input.counterpartyIsPerson, moneyOut: input.amount.minorUnits < 0)
            return categorizer.assign(input, original: original) { i in
                if let known = answers[key] { return known }
                let p = learned.predict(i)
                answers[key] = p
                return p
            }
        }
    }
}
