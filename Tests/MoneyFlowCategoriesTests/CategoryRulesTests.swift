import Foundation
import MoneyFlowConfig
import MoneyFlowCore
import Testing

@testable import MoneyFlowCategories

@Suite struct CategoryRulesTests {
    static let file = """
        [[rule]]
        name = "rent to landlord"
        category = "Expenses:Housing:Rent"
        counterparty = "张三"
        direction = "out"
        amount_min = "-5000.00"
        amount_max = "-3000"

        [[rule]]
        name = "coffee"
        category = "Expenses:Food:Coffee"
        description = ["星巴克", "starbucks"]

        [[rule]]
        name = "any Plaid debit"
        category = "Expenses:Other"
        source = "plaid"
        direction = "out"
        """

    @Test func firstMatchWinsAndRulesTestShowsWhatEachRuleTakes() throws {
        let rules = try CategoryFiles.rules(Self.file, file: "rules.toml")
        #expect(rules.rules.count == 3)
        let rent = txn(1, "-3500.00", description: "转账汇款", counterparty: "张三", person: true)
        let rentTooSmall = txn(2, "-200.00", description: "转账汇款", counterparty: "张三", person: true)
        let coffeeCMB = alipay(3, "星巴克（西湖店）")
        let coffeePlaid = txn(4, "-4.50", description: "STARBUCKS #123", plaidMerchant: "Starbucks", kinds: [.plaid], currency: "USD")
        let otherPlaid = txn(5, "-9.00", description: "SHELL OIL", kinds: [.plaid], currency: "USD")
        let refundPlaid = txn(6, "9.00", description: "SHELL OIL REFUND", kinds: [.plaid], currency: "USD")
        #expect(rules.firstMatch(rent)?.index == 1)
        #expect(rules.firstMatch(rentTooSmall) == nil)
        #expect(rules.firstMatch(coffeeCMB)?.rule.category == "Expenses:Food:Coffee")
        // Matches rules 2 and 3: the first wins.
        #expect(rules.firstMatch(coffeePlaid)?.index == 2)
        #expect(rules.firstMatch(otherPlaid)?.index == 3)
        #expect(rules.firstMatch(refundPlaid) == nil)
        let report = rules.test([rent, rentTooSmall, coffeeCMB, coffeePlaid, otherPlaid, refundPlaid])
        #expect(report.rules.map(\.decides) == [[1], [3, 4], [5]])
        #expect(report.rules.map(\.shadowedBy) == [[], [], [4]])
        #expect(report.unmatched == [2, 6])
    }

    /// The README's rules and mapping examples are what the files accept, and do what it says.
    @Test func theReadmeExamplesAreValidFiles() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "## Categories (rules file, provider mapping)"))
        let section = String(readme[start.upperBound...]).components(separatedBy: "\n## ")[0]
        let blocks = section.components(separatedBy: "```toml\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        #expect(blocks.count == 2)
        let rules = try CategoryFiles.rules(blocks[0], file: "README rules")
        #expect(rules.rules.map(\.name) == ["rent", "metro", "coffee (Plaid's merchant)", "coffee (the CSV's text)"])
        let rent = txn(1, "-4200.00", description: "转账汇款", counterparty: "李建国", account: "cmb-debit-3816", person: true)
        #expect(rules.firstMatch(rent)?.rule.category == "Expenses:Housing:Rent")
        let mapping = try CategoryFiles.mapping(blocks[1], file: "README mapping")
        #expect(mapping.overrides[.plaid]?["FOOD_AND_DRINK"] == .both("Expenses:Eating"))
    }

    @Test func fullWidthAndCaseFoldInSubstrings() throws {
        let rule = try CategoryRule(name: "x", category: "Expenses:X", description: [.substring("(西湖店)"), .substring("WHOLE FOODS")])
        let rules = CategoryRules([rule])
        #expect(rules.firstMatch(alipay(1, "星巴克（西湖店）")) != nil)
        #expect(rules.firstMatch(txn(2, description: "whole foods market", currency: "USD")) != nil)
        #expect(rules.firstMatch(alipay(3, "星巴克（湖滨店）")) == nil)
    }

    @Test func merchantAccountAndSourceConditions() throws {
        let rule = try CategoryRule(
            name: "m", category: "Expenses:Coffee", merchant: [.regex(try RulePattern("^(starbucks|blue bottle)"))], accounts: ["chase"],
            sources: [.plaid])
        let rules = CategoryRules([rule])
        let plaid = txn(1, description: "SQ *BLUE BOTTLE", plaidMerchant: "Blue Bottle Coffee", kinds: [.plaid, .csv], account: "chase")
        #expect(rules.firstMatch(plaid) != nil)
        var other = plaid
        other.account = "amex"
        #expect(rules.firstMatch(other) == nil)
        other = plaid
        other.sourceKinds = [.csv]
        #expect(rules.firstMatch(other) == nil)
        other = plaid
        other.plaidMerchant = "Peet's"
        #expect(rules.firstMatch(other) == nil)
        other.walletMerchant = "STARBUCKS"
        #expect(rules.firstMatch(other) != nil)
    }

    @Test(arguments: [
        (
            "[[rule]]\ncategory = \"Expenses:X\"\ndescripton = \"a\"\n",
            "rules.toml: rule 1: unknown key 'descripton' (did you mean 'description'?)"
        ),
        (
            "[[rule]]\nname = \"r\"\ncategory = \"Expenses:X\"\n",
            "rules.toml: rule 1 ('r'): rule 'r' has no condition: give at least one of description, counterparty, merchant, amount, direction, account, source"
        ),
        (
            "[[rule]]\ncategory = \"Expenses:X\"\ndescription_regex = \"(unclosed\"\n",
            "rules.toml: rule 1: 'description_regex': invalid regular expression '(unclosed'"
        ),
        (
            "[[rule]]\ncategory = \"Expenses:X\"\namount_min = \"1e3\"\n",
            "rules.toml: rule 1: 'amount_min' = 1e3 is not an exact decimal amount such as \"-50.00\""
        ),
        (
            "[[rule]]\ncategory = \"Food\"\ndescription = \"a\"\n",
            "rules.toml: rule 1: rule 'Food': category 'Food' must start with one of Assets, Liabilities, Equity, Income, Expenses (e.g. Expenses:Food:Groceries)"
        ),
        (
            "[[rule]]\ncategory = \"Expenses:X\"\nsource = \"plad\"\n",
            "rules.toml: rule 1: unknown source 'plad' (did you mean 'plaid'?) (one of cmb-pdf, cmb-csv, plaid, csv, ofx, alipay, wechat)"
        ),
        (
            "[[rule]]\ncategory = \"Expenses:X\"\namount_min = \"10\"\namount_max = \"5\"\n",
            "rules.toml: rule 1: rule 'Expenses:X': amount_min 10 is above amount_max 5"
        ),
        ("[rules]\n", "rules.toml: unknown key 'rules' (did you mean 'rule'?): rules are [[rule]] tables"),
    ])
    func badRulesFilesSayWhatToChange(text: String, message: String) {
        do {
            _ = try CategoryFiles.rules(text, file: "rules.toml")
            Issue.record("accepted: \(text)")
        } catch {
            #expect(error.description == message)
        }
    }
}
