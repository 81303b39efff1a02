import MoneyFlowCore
import Testing

@testable import MoneyFlowCategories

@Suite struct CategorizerPriorityTests {
    /// One transaction every source has an opinion about: a Plaid-categorised coffee, a rule for
    /// it, a learned decision for the same payee, and (in the first case) the user's own decision.
    static let coffee = txn(
        10, "-4.50", description: "STARBUCKS STORE 1234", plaidMerchant: "Starbucks",
        provider: [ProviderCategory(taxonomy: .plaid, primary: "FOOD_AND_DRINK", detailed: "FOOD_AND_DRINK_COFFEE")], kinds: [.plaid],
        account: "chase", currency: "USD")
    static let rules = CategoryRules([
        try! CategoryRule(name: "coffee rule", category: "Expenses:Rule", description: [.substring("starbucks")])
    ])
    static let taught = txn(3, "-5.10", description: "Starbucks #88", account: "chase", currency: "USD")

    func categorizer(user: Bool, rule: Bool, learned: Bool) -> Categorizer {
        let decisions =
            [CategoryDecision(transactionID: 3, account: "Expenses:Learned")]
            + (user ? [CategoryDecision(transactionID: 10, account: "Expenses:User")] : [])
        return Categorizer(
            decisions: decisions, rules: rule ? Self.rules : CategoryRules(),
            learned: learned ? model([(Self.taught, "Expenses:Learned")]) : nil)
    }

    @Test func userThenRuleThenLearnedThenProviderThenNone() {
        let all = categorizer(user: true, rule: true, learned: true).assign(Self.coffee)
        #expect(all.source == .user && all.account == "Expenses:User" && all.reason == .user)
        let noUser = categorizer(user: false, rule: true, learned: true).assign(Self.coffee)
        #expect(noUser.source == .rule && noUser.account == "Expenses:Rule")
        #expect(noUser.reason == .rule(name: "coffee rule", index: 1))
        let learned = categorizer(user: false, rule: false, learned: true).assign(Self.coffee)
        #expect(learned.source == .learned && learned.account == "Expenses:Learned")
        let provider = categorizer(user: false, rule: false, learned: false).assign(Self.coffee)
        #expect(provider.source == .provider && provider.account == "Expenses:Food:Coffee")
        #expect(provider.reason.text == "Plaid category FOOD_AND_DRINK_COFFEE (default mapping)")
        var bare = Self.coffee
        bare.providerCategories = []
        let none = categorizer(user: false, rule: false, learned: false).assign(bare)
        #expect(none == .uncategorized)
        #expect([all, noUser, learned, provider, none].map(\.reason.kind) == ["user", "rule", "learned", "provider", "nothing-applies"])
    }

    @Test func ownTransfersGetNoMachineCategoryButTheUsersDecisionStands() {
        var move = Self.coffee
        move.isOwnTransfer = true
        let machine = categorizer(user: false, rule: true, learned: true).assign(move)
        #expect(machine.source == .none && machine.account == nil && machine.reason == .ownTransfer)
        #expect(categorizer(user: true, rule: true, learned: true).assign(move).source == .user)
    }

    @Test func aDeclinedLearnerLeavesTheReasonWhenNothingElseApplies() {
        // Two decisions for one payee that disagree: the learner declines, and says so.
        let a = alipay(1, "星巴克"), b = alipay(2, "星巴克(西湖店)")
        let c = Categorizer.learning(
            from: [
                CategoryDecision(transactionID: 1, account: "Expenses:Coffee"),
                CategoryDecision(transactionID: 2, account: "Expenses:Gifts"),
            ],
            inputs: [a, b])
        let r = c.assign(alipay(3, "星巴克咖啡（杭州湖滨银泰店）"))
        #expect(r.source == .none && r.reason == .declined(bestConfidence: nil))
    }

    @Test func splitsComeFromTheUserWithTheirParts() throws {
        let t = alipay(5, "盒马鲜生", "-100.00")
        let split = try CategorySplit.parse("Expenses:Food:Groceries:60.00 Expenses:Household:rest", total: t.amount)
        let a = Categorizer(decisions: [CategoryDecision(transactionID: 5, split: split)]).assign(t)
        #expect(a.source == .user && a.account == "Expenses:Food:Groceries" && a.split?.parts.count == 2)
    }

    @Test func sameInputsSameAssignmentsInAnyOrder() {
        var inputs: [CategorizationInput] = []
        var decisions: [CategoryDecision] = []
        let shops = ["星巴克", "瑞幸咖啡", "盒马鲜生", "滴滴出行", "美团外卖", "肯德基", "全家便利店", "罗森"]
        for (i, s) in shops.enumerated() {
            inputs.append(alipay(Int64(i * 10), s + "(一店)"))
            inputs.append(wechat(Int64(i * 10 + 1), s + "（二店）"))
            decisions.append(CategoryDecision(transactionID: Int64(i * 10), account: "Expenses:Shop\(i % 3)"))
            decisions.append(CategoryDecision(transactionID: Int64(i * 10 + 1), account: "Expenses:Shop\(i % 3)"))
        }
        for i in 0..<40 { inputs.append(alipay(Int64(1000 + i), shops[i % shops.count] + "(\(i)号店)")) }
        let c1 = Categorizer.learning(from: decisions, inputs: inputs)
        let c2 = Categorizer.learning(from: decisions.reversed(), inputs: inputs.reversed())
        let a1 = c1.assignAll(inputs)
        let a2 = c2.assignAll(inputs)
        #expect(a1 == a2)
        // The 40 other branches are learned from both decisions of their merchant, ids in order.
        let learned = a1.suffix(40).compactMap { a -> [Int64]? in
            if case .learned(_, let ids, _, _) = a.reason { return ids } else { return nil }
        }
        #expect(learned.count == 40 && learned.allSatisfy { $0.count == 2 && $0[0] < $0[1] })
    }
}
