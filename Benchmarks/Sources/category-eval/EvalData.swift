import Foundation
import MoneyFlowCategories
import MoneyFlowCore

/// One row of cmb_year.tsv: the categoriser's input and the ground truth.
struct EvalRow {
    var input: CategorizationInput
    var truth: String
    var group: String
    var entity: String
    var taught: Bool
    var half: Int
    var textTaught: Bool

    struct BadFile: Error, CustomStringConvertible {
        var description: String
    }

    static func read(_ path: String) throws -> [EvalRow] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw BadFile(description: "\(path): cannot read") }
        var out: [EvalRow] = []
        for (k, line) in text.split(separator: "\n", omittingEmptySubsequences: true).enumerated().dropFirst() {
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            func fail(_ m: String) -> BadFile { BadFile(description: "\(path) line \(k + 1): \(m)") }
            guard f.count == 14 else { throw fail("expected 14 fields, found \(f.count)") }
            guard let id = Int64(f[0]) else { throw fail("bad id") }
            let parts = f[1].split(separator: "-").compactMap { Int($0) }
            guard parts.count == 3, let date = LocalDate(year: parts[0], month: parts[1], day: parts[2]) else { throw fail("bad date") }
            let amount = try Money.parse(f[2], currency: "CNY")
            let input = CategorizationInput(
                id: id, account: "cmb-debit", amount: amount, date: date, description: f[3], note: f[4].isEmpty ? nil : f[4],
                counterparty: f[5].isEmpty ? nil : f[5], sourceKinds: [.cmbPDF], isOwnTransfer: f[7] == "1",
                counterpartyIsPerson: f[6] == "1")
            out.append(
                EvalRow(
                    input: input, truth: f[10], group: f[8], entity: f[9], taught: f[11] == "1", half: Int(f[12]) ?? 0,
                    textTaught: f[13] == "1"))
        }
        return out
    }
}

/// Counts of one group of second-half rows.
struct Tally {
    var rows = 0
    /// Rows that got a learned category.
    var learned = 0
    var learnedCorrect = 0
    /// Rows with any category (for own transfers: must stay 0).
    var categorised = 0

    mutating func add(row: EvalRow, assignment a: CategoryAssignment) {
        rows += 1
        if a.account != nil { categorised += 1 }
        if a.source == .learned {
            learned += 1
            if a.account == row.truth { learnedCorrect += 1 }
        }
    }

    static func + (x: Tally, y: Tally) -> Tally {
        Tally(
            rows: x.rows + y.rows, learned: x.learned + y.learned, learnedCorrect: x.learnedCorrect + y.learnedCorrect,
            categorised: x.categorised + y.categorised)
    }

    var json: [String: Any] { ["rows": rows, "learned": learned, "learned_correct": learnedCorrect, "categorised": categorised] }
}

/// A realistic rules file for the timing: a few rules for things learning cannot know, most of
/// which do not match, so nearly every transaction is tested against every rule and then learned.
enum EvalRules {
    static func make() -> CategoryRules {
        func rule(
            _ name: String, _ category: String, description: [TextMatch] = [], counterparty: [TextMatch] = [],
            min: Decimal? = nil, max: Decimal? = nil
        ) -> CategoryRule {
            try! CategoryRule(
                name: name, category: category, description: description, counterparty: counterparty, amountMin: min, amountMax: max)
        }
        return CategoryRules([
            rule("interest", "Income:Interest", description: [.substring("结息")]),
            rule("bank fees", "Expenses:Fees:Bank", description: [.substring("年费"), .substring("手续费"), .substring("短信服务费")]),
            rule("insurance", "Expenses:Insurance", counterparty: [.substring("保险")]),
            rule("tax", "Expenses:Taxes", counterparty: [.regex(try! RulePattern("税务局$"))]),
            rule("big purchases", "Expenses:Review", description: [.substring("消费")], min: -100000, max: -20000),
            rule("parking", "Expenses:Transport:Parking", description: [.regex(try! RulePattern("停车(场|费)"))]),
            rule("hospital", "Expenses:Health:Doctor", counterparty: [.substring("医院")]),
            rule("tuition", "Expenses:Education", counterparty: [.substring("学校"), .substring("大学")]),
        ])
    }
}
