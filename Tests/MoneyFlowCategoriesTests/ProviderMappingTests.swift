import MoneyFlowConfig
import MoneyFlowCore
import Testing

@testable import MoneyFlowCategories

@Suite struct ProviderMappingTests {
    func plaid(_ primary: String, _ detailed: String?) -> [ProviderCategory] {
        [ProviderCategory(taxonomy: .plaid, primary: primary, detailed: detailed)]
    }
    let out = Money(minorUnits: -1250, currency: "USD")
    let into = Money(minorUnits: 1250, currency: "USD")

    @Test func plaidDetailedThenPrimaryAndTransfersMapToNothing() {
        let m = ProviderMapping()
        #expect(m.assignment(plaid("FOOD_AND_DRINK", "FOOD_AND_DRINK_GROCERIES"), amount: out)?.account == "Expenses:Food:Groceries")
        // A detailed name the table does not know (a newer taxonomy): the primary's account.
        #expect(m.assignment(plaid("FOOD_AND_DRINK", "FOOD_AND_DRINK_SOMETHING_NEW"), amount: out)?.account == "Expenses:Food")
        #expect(m.assignment(plaid("INCOME", "INCOME_WAGES"), amount: into)?.account == "Income:Salary")
        // Money between accounts is never spending: the other account when Plaid names its kind,
        // else no category (and no fallback to the primary's account).
        #expect(m.assignment(plaid("TRANSFER_OUT", "TRANSFER_OUT_ACCOUNT_TRANSFER"), amount: out) == nil)
        #expect(m.assignment(plaid("TRANSFER_OUT", "TRANSFER_OUT_WITHDRAWAL"), amount: out)?.account == "Assets:Cash")
        #expect(m.assignment(plaid("LOAN_PAYMENTS", "LOAN_PAYMENTS_CREDIT_CARD_PAYMENT"), amount: out)?.account == "Liabilities:CreditCard")
        #expect(m.assignment(plaid("SOMETHING_ELSE", nil), amount: out) == nil)
    }

    @Test func everyPlaidPrimaryAndDetailedNameHasAnEntry() {
        let table = ProviderMapping.defaults(.plaid)
        #expect(table.count == PlaidCategoryDefaults.primary.count + PlaidCategoryDefaults.detailed.count)
        for name in PlaidCategoryDefaults.detailed.keys {
            let primary = PlaidCategoryDefaults.primary.keys.filter { name.hasPrefix($0 + "_") }
            #expect(!primary.isEmpty, "\(name) has no primary")
        }
        for account in table.values.compactMap(\.outflow) { #expect(LedgerAccountName.problem(account) == nil) }
    }

    @Test func walletCategoriesAndDirections() {
        let m = ProviderMapping()
        let cny = Money(minorUnits: -3200, currency: "CNY")
        #expect(m.assignment([ProviderCategory(taxonomy: .alipay, primary: "餐饮美食")], amount: cny)?.account == "Expenses:Food:Restaurants")
        #expect(m.assignment([ProviderCategory(taxonomy: .alipay, primary: "交通出行")], amount: cny)?.account == "Expenses:Transport")
        let red = [ProviderCategory(taxonomy: .wechat, primary: "微信红包")]
        #expect(m.assignment(red, amount: cny)?.account == "Expenses:Gifts:RedPackets")
        #expect(m.assignment(red, amount: Money(minorUnits: 3200, currency: "CNY"))?.account == "Income:Gifts:RedPackets")
        #expect(m.assignment([ProviderCategory(taxonomy: .wechat, primary: "商户消费")], amount: cny) == nil)
    }

    /// Money in gets an `Income:` account or none, never an `Expenses:` one (a refund takes its
    /// purchase's category by another way); 余额宝's 收益发放 (交易分类 投资理财) is interest.
    @Test func moneyInIsIncomeOrNothingAndYuebaoEarningsAreInterest() {
        let m = ProviderMapping()
        let earnings = ProviderCategory.wallet(.alipay, category: "投资理财", item: "余额宝-2026.05.31-收益发放")
        let income = m.assignment([earnings], amount: Money(minorUnits: 52, currency: "CNY"))
        #expect(income?.account == "Income:Interest" && income?.source == .provider)
        let moved = ProviderCategory.wallet(.alipay, category: "投资理财", item: "余额宝-单次转入")
        #expect(m.assignment([moved], amount: Money(minorUnits: 200_000, currency: "CNY")) == nil)
        for taxonomy in [ProviderTaxonomy.alipay, .wechat] {
            for (name, target) in ProviderMapping.defaults(taxonomy) {
                #expect(target.inflow.map { $0.hasPrefix("Income:") } ?? true, "\(taxonomy) \(name) books money in to \(target.inflow!)")
            }
        }
        let fromPerson = m.assignment([.wallet(.alipay, category: "转账红包", item: "转账")], amount: Money(minorUnits: 50000, currency: "CNY"))
        #expect(fromPerson?.account == "Income:Transfers:People")
    }

    @Test func theUsersFileRemapsAndItsPrimaryBeatsTheDefaultDetailed() throws {
        let file = """
            [plaid]
            FOOD_AND_DRINK = "Expenses:Eating"
            TRANSPORTATION_TAXIS_AND_RIDE_SHARES = ""

            [alipay]
            "餐饮美食" = "Expenses:Food:Dining"

            [wechat]
            "商户消费" = { out = "Expenses:Shopping" }
            """
        let m = try CategoryFiles.mapping(file, file: "categories.toml")
        let coffee = m.assignment(plaid("FOOD_AND_DRINK", "FOOD_AND_DRINK_COFFEE"), amount: out)
        #expect(coffee?.account == "Expenses:Eating")
        #expect(coffee?.reason == .provider(taxonomy: .plaid, category: "FOOD_AND_DRINK", mappedBy: .user))
        #expect(m.assignment(plaid("TRANSPORTATION", "TRANSPORTATION_TAXIS_AND_RIDE_SHARES"), amount: out) == nil)
        #expect(m.assignment(plaid("TRANSPORTATION", "TRANSPORTATION_GAS"), amount: out)?.account == "Expenses:Transport:Fuel")
        let cny = Money(minorUnits: -3200, currency: "CNY")
        #expect(m.assignment([ProviderCategory(taxonomy: .alipay, primary: "餐饮美食")], amount: cny)?.account == "Expenses:Food:Dining")
        let shop = [ProviderCategory(taxonomy: .wechat, primary: "商户消费")]
        #expect(m.assignment(shop, amount: cny)?.account == "Expenses:Shopping")
        #expect(m.assignment(shop, amount: Money(minorUnits: 3200, currency: "CNY")) == nil)
    }

    @Test(arguments: [
        (
            "[plaid]\nFOOD_AND_DRNK = \"Expenses:Food\"\n",
            "categories.toml: [plaid] 'FOOD_AND_DRNK' is not a Plaid personal_finance_category (did you mean 'FOOD_AND_DRINK'?)"
        ),
        ("[alipy]\n", "categories.toml: unknown table [alipy] (did you mean 'alipay'?) (one of plaid, plaid-legacy, alipay, wechat)"),
        (
            "[alipay]\n\"餐饮美食\" = \"Food\"\n",
            "categories.toml: [alipay] '餐饮美食': 'Food' must start with one of Assets, Liabilities, Equity, Income, Expenses (e.g. Expenses:Food:Groceries)"
        ),
        ("[wechat]\n\"微信红包\" = { both = \"Expenses:X\" }\n", "categories.toml: [wechat] '微信红包': unknown key 'both' (out or in)"),
    ])
    func badMappingFilesSayWhatToChange(text: String, message: String) {
        do {
            _ = try CategoryFiles.mapping(text, file: "categories.toml")
            Issue.record("accepted: \(text)")
        } catch {
            #expect(error.description == message)
        }
    }
}

@Suite struct PlaidRecordFieldsTests {
    @Test func readsThePersonalFinanceCategoryThenTheLegacyArray() {
        let pfc = PlaidRecordFields(
            raw:
                #"{"merchant_name":" Starbucks ","personal_finance_category":{"primary":"FOOD_AND_DRINK","detailed":"FOOD_AND_DRINK_COFFEE","confidence_level":"VERY_HIGH"},"category":["Food and Drink","Coffee Shop"]}"#
        )
        #expect(pfc?.merchant == "Starbucks")
        #expect(pfc?.category == ProviderCategory(taxonomy: .plaid, primary: "FOOD_AND_DRINK", detailed: "FOOD_AND_DRINK_COFFEE"))
        let legacy = PlaidRecordFields(raw: #"{"merchant_name":null,"category":["Food and Drink","Restaurants"]}"#)
        #expect(legacy?.merchant == nil)
        #expect(legacy?.category == ProviderCategory(taxonomy: .plaidLegacy, primary: "Food and Drink > Restaurants"))
        #expect(PlaidRecordFields(raw: "[1]") == nil)
        // The mapping reads the legacy path's first part only from the user's file.
        let m = ProviderMapping(overrides: [.plaidLegacy: ["Food and Drink": .both("Expenses:Food")]])
        #expect(m.assignment([legacy!.category!], amount: Money(minorUnits: -100, currency: "USD"))?.account == "Expenses:Food")
        #expect(ProviderMapping().assignment([legacy!.category!], amount: Money(minorUnits: -100, currency: "USD")) == nil)
    }
}
