import MoneyFlowCore
import Testing

@testable import MoneyFlowCategories

@Suite struct LearningTests {
    @Test(arguments: [
        ("支付宝-星巴克咖啡（杭州湖滨银泰店）", "星巴克咖啡"),
        ("财付通-微信支付-星巴克(西湖店)", "星巴克"),
        ("财付通-星巴克【滨江】", "星巴克"),
        ("支付宝-星巴克咖啡（杭州湖滨", "星巴克咖啡"),
        ("杭州市肯德基有限公司", "肯德基"),
        ("Starbucks #1234", "starbucks"),
        ("STARBUCKS STORE 5678", "starbucks"),
        ("SQ *BLUE BOTTLE COFFEE 0042", "blue bottle coffee"),
        ("ＡＰＰＬＥ．ＣＯＭ／ＢＩＬＬ", "apple bill"),
    ])
    func payeeKeys(text: String, key: String) {
        #expect(PayeeNormalizer.key(text) == key)
    }

    @Test func otherBranchesOfATaughtMerchantAreLearned() {
        let m = model([
            (alipay(1, "星巴克咖啡（杭州湖滨银泰店）"), "Expenses:Food:Coffee"),
            (txn(2, description: "Starbucks #1234", currency: "USD"), "Expenses:Food:Coffee"),
        ])
        let branch = m.predict(wechat(10, "星巴克(西湖店)"))
        #expect(branch.account == "Expenses:Food:Coffee")
        guard case .learned(let a) = branch, case .learned(let method, let ids, let confidence, let payee) = a.reason else {
            Issue.record("not learned: \(branch)"); return
        }
        #expect(method == .payee && ids == [1] && confidence == 1 && payee == "星巴克咖啡")
        #expect(m.predict(txn(11, description: "STARBUCKS STORE 5678", currency: "USD")).account == "Expenses:Food:Coffee")
    }

    /// The store's pass asks the learner once per distinct set of texts (``Categorizer/Batch``):
    /// its answers are exactly ``Categorizer/assign(_:original:)``'s, row by row, for repeated
    /// texts in both directions, people, own transfers and rows a rule or a decision takes.
    @Test func aBatchAnswersExactlyAsOneByOne() throws {
        let taught: [(CategorizationInput, String)] = [
            (alipay(1, "星巴克咖啡（杭州湖滨银泰店）"), "Expenses:Food:Coffee"), (alipay(2, "星巴克(西湖店)"), "Expenses:Food:Coffee"),
            (txn(3, "-500.00", description: "转账汇款", counterparty: "张三", person: true), "Expenses:Family"),
            (wechat(4, "盒马鲜生"), "Expenses:Food:Groceries"),
        ]
        let rule = try CategoryRule(name: "hema", category: "Expenses:Rule", description: [.substring("退货")])
        let c = Categorizer.learning(
            from: taught.map { CategoryDecision(transactionID: $0.0.id, account: $0.1) }, inputs: taught.map(\.0),
            rules: CategoryRules([rule]))
        var inputs: [CategorizationInput] = []
        for id in Int64(10)..<Int64(40) {
            switch id % 6 {
            case 0: inputs.append(alipay(id, "星巴克(湖滨店)"))
            case 1: inputs.append(alipay(id, "星巴克(湖滨店)", "25.00"))
            case 2: inputs.append(txn(id, "-300.00", description: "转账汇款", counterparty: "张三", person: true))
            case 3: inputs.append(txn(id, "300.00", description: "转账汇款", counterparty: "张三", person: true))
            case 4: inputs.append(wechat(id, "盒马鲜生", id % 4 == 0 ? "-10.00" : "-12.00"))
            default: inputs.append(txn(id, description: "退货", note: "财付通-微信支付-盒马鲜生", ownTransfer: id % 4 == 1))
            }
        }
        inputs += taught.map(\.0)
        #expect(c.assignAll(inputs) == inputs.map { c.assign($0) })
        #expect(Set(c.assignAll(inputs).map(\.source)).isSuperset(of: [.learned, .user, .rule]))
    }

    /// `美团` taught beside `美团外卖` names the delivery business; `美团买菜` is another one.
    @Test func aTaughtBrandDoesNotCoverAnotherBusinessOfIt() {
        let m = model([(alipay(1, "美团外卖(西湖店)"), "Expenses:Food:Delivery"), (wechat(2, "美团(滨江店)"), "Expenses:Food:Delivery")])
        #expect(m.predict(alipay(3, "美团买菜（湖滨店）")).account == nil)
        #expect(m.predict(alipay(4, "美团外卖（湖滨店）")).account == "Expenses:Food:Delivery")
        #expect(m.predict(wechat(5, "美团外卖湖滨店")).account == "Expenses:Food:Delivery")
    }

    @Test func theClassifierDeclinesMerchantsNeverTaught() {
        var taught: [(CategorizationInput, String)] = []
        let shops = [
            ("星巴克咖啡", "Expenses:Food:Coffee"), ("盒马鲜生", "Expenses:Food:Groceries"), ("滴滴出行", "Expenses:Transport:Taxi"),
            ("肯德基", "Expenses:Food:FastFood"), ("全家便利店", "Expenses:Shopping:Convenience"),
        ]
        for (i, s) in shops.enumerated() {
            taught.append((alipay(Int64(2 * i), s.0 + "（一店）"), s.1))
            taught.append((wechat(Int64(2 * i + 1), s.0 + "(二店)"), s.1))
        }
        let m = model(taught)
        // Never taught, but sharing a word with a taught merchant (咖啡, 便利店, 出行).
        for (k, unseen) in ["瑞幸咖啡", "罗森便利店", "曹操出行", "麦当劳", "永辉超市"].enumerated() {
            let p = m.predict(alipay(Int64(100 + k), unseen))
            #expect(p.account == nil, "guessed \(unseen): \(p)")
        }
        // A taught merchant named only in the wallet's item (no payee): the classifier finds it.
        let viaItem = m.predict(txn(200, description: "快捷支付", walletItem: "盒马鲜生订单"))
        guard case .learned(let a) = viaItem, case .learned(let method, let ids, _, _) = a.reason else {
            Issue.record("not learned: \(viaItem)"); return
        }
        #expect(a.account == "Expenses:Food:Groceries" && method == .classifier && ids == [2, 3])
    }

    @Test func aTransferToAPersonIsNeverLearnedFromAShop() {
        let shop = txn(1, counterparty: "王芳水果店", walletMerchant: "王芳水果店")
        let m = model([(shop, "Expenses:Food:Groceries")])
        let toPerson = txn(2, "-300.00", description: "转账汇款", counterparty: "王芳", person: true)
        #expect(m.predict(toPerson) == .unknown)
        // A decision about the person teaches that person in that direction only.
        let m2 = model([
            (shop, "Expenses:Food:Groceries"),
            (txn(3, "-300.00", description: "转账汇款", counterparty: "王芳", person: true), "Expenses:Housing:Rent"),
        ])
        #expect(m2.predict(toPerson).account == "Expenses:Housing:Rent")
        #expect(m2.predict(txn(4, "300.00", description: "转账汇款", counterparty: "王芳", person: true)) == .unknown)
        #expect(m2.predict(txn(5, "-300.00", description: "转账汇款", counterparty: "王芳芳", person: true)) == .unknown)
        // And a person's decision never reaches a shop.
        #expect(model([(toPerson, "Expenses:Housing:Rent")]).predict(txn(6, walletMerchant: "王芳水果店")) == .unknown)
    }

    @Test func ownTransfersTeachNothing() {
        let move = txn(1, "-1000.00", description: "转账汇款", note: "余额宝-转入", ownTransfer: true)
        #expect(model([(move, "Expenses:Wrong")]).predict(txn(2, "-1000.00", description: "转账汇款", note: "余额宝-转入")) == .unknown)
    }

    @Test func genericStatementTextsAreNoPayee() {
        // Only 快捷支付 to go on: no payee, and no learning from the generic word.
        let m = model([(txn(1, description: "快捷支付"), "Expenses:Food")])
        #expect(m.predict(txn(2, description: "快捷支付")) == .unknown)
    }
}
