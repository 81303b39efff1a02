import Foundation
import MoneyFlowCore
import MoneyFlowTestSupport
import Testing

@testable import MoneyFlowReconcile

/// The faster forms of the engine's per-record work (#30, engine at 1M), each held to the
/// straightforward form it replaced on random inputs: the plan must not change by a bit.
@Suite struct EngineFastPathTests {
    /// Store numbers deduplicated in place, and disagreement by a merge of two sorted lists,
    /// answer as a `Set` of the numbers did.
    @Test func storeNumbersAnswerLikeTheSetReference() {
        func reference(_ texts: [String?]) -> [Int] {
            var out: [Int] = []
            for text in texts {
                guard let text else { continue }
                var number = 0, digits = 0, afterHash = false
                for b in text.utf8 {
                    if afterHash, b >= 0x30, b <= 0x39, digits < 9 {
                        number = number * 10 + Int(b - 0x30); digits += 1; continue
                    }
                    if afterHash && digits > 0 { out.append(number) }
                    afterHash = b == 0x23
                    number = 0; digits = 0
                }
                if afterHash && digits > 0 { out.append(number) }
            }
            return Array(Set(out)).sorted()
        }
        var rng = SplitMix64(scenarioSeed: 30)
        let pieces = ["#", "#0", "#12", "7", "03", "1234567890", " ", "A", "Luxmi ", "店", "##", "#9"]
        func text() -> String? {
            rng.int(0...5) == 0 ? nil : (0..<rng.int(0...6)).map { _ in pieces[rng.below(pieces.count)] }.joined()
        }
        for _ in 0..<4_000 {
            let (a, b, c, d) = (text(), text(), text(), text())
            let x = TextSimilarity.storeNumbers(a, b), y = TextSimilarity.storeNumbers(c, d)
            #expect(x == reference([a, b]), "\(String(describing: a)) \(String(describing: b))")
            let disagree = !x.isEmpty && !y.isEmpty && Set(x).isDisjoint(with: y)
            #expect(TextSimilarity.storesDisagree(x, y) == disagree, "\(x) \(y)")
        }
    }

    /// A blank is what `trimmingCharacters(in: .whitespaces)` removes: a tab or a space separator.
    @Test func asciiBlanksAreTheSpaceSeparatorsAndTab() {
        let scalars = (0..<0x80).compactMap(Unicode.Scalar.init) + ["\u{A0}", "\u{3000}", "\u{2003}", "\u{200B}", "财", "é"]
        for s in scalars {
            #expect(TextSimilarity.isBlank(s) == (s == "\t" || s.properties.generalCategory == .spaceSeparator), "\(s.value)")
        }
    }

    /// Currency exponents read upper-case ASCII codes without an upper-cased copy; any other
    /// text is upper-cased first, as before.
    @Test func currencyExponentsAnswerLikeUppercasing() {
        func reference(_ c: String) -> Int {
            switch c.uppercased() {
            case "JPY", "KRW", "VND", "CLP", "ISK", "PYG", "UGX", "XAF", "XOF", "HUF0": return 0
            case "BHD", "KWD", "OMR", "JOD", "TND", "LYD", "IQD": return 3
            default: return 2
            }
        }
        for c in ["USD", "usd", "JPY", "jpy", "Kwd", "KWD", "HUF0", "huf0", "ıSK", "ISK", "ＪＰＹ", "CNY", "", "kRW", "J PY"] {
            #expect(Money.exponent(for: c) == reference(c), "\(c)")
        }
    }

    /// Unique amounts by a forward sweep over (amount, day) order count what counting every
    /// row and transaction of the amount within the window counts.
    @Test func uniqueAmountsCountLikeBruteForce() throws {
        var rng = SplitMix64(scenarioSeed: 31)
        let base = LocalDate(year: 2024, month: 1, day: 1)!.dayNumber
        for round in 0..<20 {
            let amounts = (0..<(1 + round % 6)).map { _ in Int64(rng.int(1...9)) * -100 }
            func date() -> LocalDate { LocalDate(dayNumber: base + rng.int(0...90)) }
            let records = (0..<rng.int(1...80)).map { i in
                IncomingRecord(
                    accountKey: "csv:a", sourceKind: .csv, date: date(), amount: Money(minorUnits: amounts[rng.below(amounts.count)], currency: "USD"),
                    description: "ROW \(i % 3)", locator: Locator(row: i + 1))
            }
            let candidates = (0..<rng.int(1...80)).map { k in
                CandidateTransaction(
                    id: Int64(k + 1), accountID: 1, date: date(), amount: Money(minorUnits: amounts[rng.below(amounts.count)], currency: "USD"),
                    description: "ROW \(k % 3)", counterparty: nil, pending: false, supportingKinds: [.plaid])
            }
            var group = MatchGroup(rows: Array(records.indices), records: records, candidates: candidates, options: ReconcileOptions())
            try group.findPairs(view: InMemoryLedgerView(), removedIDs: [], claimedPending: [])
            guard !group.pairs.isEmpty else { continue }
            let w = Scoring.uniqueAmountWindowDays
            for (row, r) in records.enumerated() {
                let d = r.date.dayNumber
                let rows = records.filter { $0.amount == r.amount && abs($0.date.dayNumber - d) <= w }.count
                let transactions = candidates.filter { $0.amount == r.amount && abs($0.date.dayNumber - d) <= w }.count
                #expect(group.amountUnique[row] == (rows == 1 && transactions <= 1), "round \(round) row \(row)")
            }
        }
    }
}
