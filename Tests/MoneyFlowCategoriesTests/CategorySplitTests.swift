import MoneyFlowCore
import Testing

@testable import MoneyFlowCategories

@Suite struct CategorySplitTests {
    let total = Money(minorUnits: -10_000, currency: "CNY")

    @Test func partsTakeTheTransactionsSignAndRestFillsExactly() throws {
        let s = try CategorySplit.parse("Expenses:Food:Groceries:40.00 Expenses:Household:rest", total: total)
        #expect(s.parts.map(\.account) == ["Expenses:Food:Groceries", "Expenses:Household"])
        #expect(s.parts.map(\.amount.minorUnits) == [-4_000, -6_000])
        #expect(s.parts.reduce(0) { $0 + $1.amount.minorUnits } == total.minorUnits)
        // Thirds of 100.00 are not representable: the user gives two, rest takes the last cent.
        let thirds = try CategorySplit.parse(arguments: ["Expenses:A:33.33", "Expenses:B:33.33", "Expenses:C:rest"], total: total)
        #expect(thirds.parts.map(\.amount.minorUnits) == [-3_333, -3_333, -3_334])
        let exact = try CategorySplit.parse("Expenses:A:60 Expenses:B:40.00", total: Money(minorUnits: 10_000, currency: "CNY"))
        #expect(exact.parts.map(\.amount.minorUnits) == [6_000, 4_000])
    }

    @Test(arguments: [
        (
            "Expenses:A:40.00 Expenses:B:50.00",
            "invalid split: the parts sum to -90.00, the transaction is -100.00 CNY (difference -10.00); use 'rest' for the last part"
        ),
        (
            "Expenses:A:100.00 Expenses:B:rest",
            "invalid split: the other parts already take -100.00 of -100.00 CNY: nothing is left for 'rest'"
        ),
        ("Expenses:A:rest Expenses:B:rest", "invalid split: 'rest' may be given for one part only"),
        ("Expenses:A:40.001 Expenses:B:rest", "invalid split: 'Expenses:A:40.001': invalid amount '40.001': more than 2 decimal places"),
        (
            "Expenses:A:-40 Expenses:B:rest",
            "invalid split: 'Expenses:A:-40': write the amount without sign and above zero (it takes the transaction's sign)"
        ),
        ("Expenses:A:40 Expenses:A:rest", "invalid split: account 'Expenses:A' appears twice: give it one part with the combined amount"),
        ("Expenses:A:100", "invalid split: a split needs at least two parts (one account is a plain category)"),
        (
            "Food:40 Expenses:B:rest",
            "invalid split: 'Food:40': 'Food' must start with one of Assets, Liabilities, Equity, Income, Expenses (e.g. Expenses:Food:Groceries)"
        ),
        (
            "Expenses:A Expenses:B:rest",
            "invalid split: 'Expenses:A' is not ACCOUNT:AMOUNT (e.g. Expenses:Food:40.00 or Expenses:Food:rest)"
        ),
    ])
    func badSplitsSayWhatToChange(text: String, message: String) {
        do {
            _ = try CategorySplit.parse(text, total: total)
            Issue.record("accepted: \(text)")
        } catch {
            #expect(error.description == message)
        }
    }
}
