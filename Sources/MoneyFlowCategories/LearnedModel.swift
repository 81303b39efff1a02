import MoneyFlowCore

/// What the user taught: a transaction and the account they booked it to.
public struct TaughtExample: Sendable, Hashable {
    public var input: CategorizationInput
    public var account: String
    public init(input: CategorizationInput, account: String) { self.input = input; self.account = account }
}

/// Categories learned from the user's own decisions: first the same payee (other branches of a
/// merchant included, ``PayeeIndex``), then similar texts (``TextClassifier``); below its
/// thresholds it declines, and the transaction stays uncategorised rather than guessed.
///
/// Transfers to people are kept apart: a decision about a person teaches only transfers to that
/// same person in the same direction, and a shop's decision never reaches a person. Transfers
/// between own accounts teach nothing. Same examples, same answers (no randomness, ties by id).
public struct LearnedModel: Sendable {
    public struct Options: Sendable, Hashable {
        /// Share of a payee's decisions that must agree (2 of 3).
        public var payeeAgreement: Double = 2.0 / 3.0
        /// Neighbours below this cosine similarity do not vote.
        public var minSimilarity: Double = 0.5
        /// How many neighbours vote.
        public var neighbours: Int = 5
        /// The classifier's answer is used when its confidence (vote share × best similarity of
        /// the winning account) reaches this.
        public var threshold: Double = 0.6
        public init() {}
    }

    /// The model's answer for one transaction.
    public enum Prediction: Sendable, Hashable {
        case learned(CategoryAssignment)
        /// Candidates existed but none was good enough (the reason says why).
        case declined(CategoryReason)
        /// Nothing taught resembles it.
        case unknown
    }

    public let options: Options
    private var shops = PayeeIndex(exactOnly: false)
    private var people = PayeeIndex(exactOnly: true)
    private let classifier: TextClassifier

    public init(examples: [TaughtExample], options: Options = Options()) {
        self.options = options
        var taught: [(id: Int64, account: String, tokens: [UInt64])] = []
        for e in examples.sorted(by: { $0.input.id < $1.input.id }) where !e.input.isOwnTransfer {
            if e.input.counterpartyIsPerson {
                people.add(key: Self.personKey(e.input), account: e.account, id: e.input.id)
            } else {
                let texts = Texts(e.input)
                if let key = texts.payeeKey { shops.add(key: key, account: e.account, id: e.input.id) }
                taught.append((e.input.id, e.account, texts.features))
            }
        }
        shops.seal()
        people.seal()
        classifier = TextClassifier(examples: taught)
    }

    public func predict(_ input: CategorizationInput) -> Prediction {
        if input.isOwnTransfer { return .unknown }
        if input.counterpartyIsPerson {
            let key = Self.personKey(input)
            guard let hit = people.lookup(key) else { return .unknown }
            return payeeVerdict(hit.votes, key: key)
        }
        let texts = Texts(input)
        if let key = texts.payeeKey, let hit = shops.lookup(key) {
            return payeeVerdict(hit.votes, key: hit.keys.count == 1 ? hit.keys[0] : key)
        }
        guard !classifier.isEmpty else { return .unknown }
        let near = classifier.neighbours(of: texts.features, k: options.neighbours, minSimilarity: options.minSimilarity)
        guard !near.isEmpty else { return .unknown }
        var weight: [String: Double] = [:]
        var best: [String: Double] = [:]
        for n in near {
            weight[n.account, default: 0] += n.similarity
            best[n.account] = max(best[n.account] ?? 0, n.similarity)
        }
        let total = weight.values.reduce(0, +)
        // Highest weight; ties by account name.
        let winner = weight.max { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }!
        let confidence = (winner.value / total) * best[winner.key]!
        guard confidence >= options.threshold else { return .declined(.declined(bestConfidence: confidence)) }
        let ids = near.filter { $0.account == winner.key }.map(\.id).sorted()
        return .learned(
            CategoryAssignment(
                account: winner.key, source: .learned,
                reason: .learned(method: .classifier, fromTransactions: ids, confidence: confidence, payee: nil)))
    }

    private func payeeVerdict(_ votes: [String: [Int64]], key: String) -> Prediction {
        let total = votes.values.reduce(0) { $0 + $1.count }
        let winner = votes.max { $0.value.count != $1.value.count ? $0.value.count < $1.value.count : $0.key > $1.key }!
        let share = Double(winner.value.count) / Double(total)
        guard share >= options.payeeAgreement else { return .declined(.declined(bestConfidence: nil)) }
        return .learned(
            CategoryAssignment(
                account: winner.key, source: .learned,
                reason: .learned(method: .payee, fromTransactions: winner.value.sorted(), confidence: share, payee: key)))
    }

    /// Generic statement descriptions that say how, not whom, money was paid: never a payee.
    static let genericTexts: Set<String> = [
        "快捷支付", "网联协议支付", "银联快捷支付", "银联在线支付", "消费", "转账汇款", "汇入汇款", "代发工资", "手机银行转账",
        "网上银行转账", "跨行转账", "取款", "存款", "利息", "结息", "扣款", "退款", "快捷退款", "二维码支付", "代扣", "缴费",
        "转账", "支付", "付款", "收款", "还款", "自动还款", "红包",
    ]

    /// A person's name and the direction: paying 张三 rent teaches nothing about 张三 paying back.
    static func personKey(_ input: CategorizationInput) -> String {
        let name = PayeeNormalizer.fold(input.counterparty ?? input.note ?? input.description).filter { !$0.isWhitespace }
        return name.isEmpty ? "" : name + (input.amount.minorUnits < 0 ? " out" : " in")
    }

    /// The generic descriptions' tokens, which say nothing about the category.
    static let genericTokens: Set<UInt64> = Set(TextClassifier.tokens(genericTexts.sorted().map(PayeeNormalizer.words)))

    /// A transaction's texts normalised once, for the payee and the classifier.
    struct Texts {
        /// The text that names whom the money went to (or came from), in order of trust: the
        /// wallet's merchant, Plaid's, a channel-prefixed note (`支付宝-…`), a counterparty that is
        /// not the channel, the note, the description. nil when only generic texts are left.
        var payeeKey: String?
        /// The classifier's tokens: the statement's texts (without channel counterparties), the
        /// wallet's merchant and item, Plaid's merchant.
        var features: [UInt64]

        init(_ input: CategorizationInput) {
            let description = PayeeNormalizer.words(input.description)
            let note = input.note.map(PayeeNormalizer.words)
            let counterparty = input.counterparty.flatMap { PayeeNormalizer.isChannel($0) ? nil : PayeeNormalizer.words($0) }
            let walletMerchant = input.walletMerchant.map(PayeeNormalizer.words)
            let walletItem = input.walletItem.map(PayeeNormalizer.words)
            let plaidMerchant = input.plaidMerchant.map(PayeeNormalizer.words)
            let channelNote = input.note.map(PayeeNormalizer.hasChannelPrefix) == true ? note : nil
            payeeKey = nil
            for words in [walletMerchant, plaidMerchant, channelNote, counterparty, note, description] {
                guard let words else { continue }
                let key = PayeeNormalizer.key(words)
                if !key.isEmpty && !LearnedModel.genericTexts.contains(key) { payeeKey = key; break }
            }
            let all = [description, note, counterparty, walletMerchant, walletItem, plaidMerchant].compactMap { $0 }
            features = TextClassifier.tokens(all).filter { !LearnedModel.genericTokens.contains($0) }
        }
    }
}
