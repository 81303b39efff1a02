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

    /// Pairs are scored in the list's own storage (no scored copy beside it at a million rows),
    /// with the similarity and score the group's own scoring gave them, in order, on one worker
    /// or several (the list repeated past the size that splits the work).
    @Test func pairsAreScoredInTheirOwnStorage() throws {
        var rng = SplitMix64(scenarioSeed: 37)
        let base = LocalDate(year: 2024, month: 1, day: 1)!.dayNumber
        let words = ["POS", "LUXMI", "Velmora", "#0393", "MIAMI", "FL", "Ixke", "COFFEE"]
        func text() -> String { (0..<rng.int(1...4)).map { _ in words[rng.below(words.count)] }.joined(separator: " ") }
        let records = (0..<60).map { i in
            IncomingRecord(
                accountKey: "csv:a", sourceKind: .csv, date: LocalDate(dayNumber: base + rng.int(0...30)),
                amount: Money(minorUnits: Int64(rng.int(1...4)) * -100, currency: "USD"), description: text(), locator: Locator(row: i + 1))
        }
        let candidates = (0..<60).map { k in
            CandidateTransaction(
                id: Int64(k + 1), accountID: 1, date: LocalDate(dayNumber: base + rng.int(0...30)),
                amount: Money(minorUnits: Int64(rng.int(1...4)) * -100, currency: "USD"), description: text(), counterparty: nil, pending: false,
                supportingKinds: [.plaid])
        }
        var group = MatchGroup(rows: Array(records.indices), records: records, candidates: candidates, options: ReconcileOptions())
        try group.findPairs(view: InMemoryLedgerView(), removedIDs: [], claimedPending: [])
        let scored = group.pairs
        try #require(!scored.isEmpty)
        for size in [scored.count, 120_000] {
            var list: [MatchPair] = []
            list.reserveCapacity(size + scored.count)
            while list.count < size {
                for var p in scored {
                    p.sim = -1; p.score = -1; p.placesDisagree = true
                    list.append(p)
                }
            }
            let storage = list.withUnsafeBufferPointer { $0.baseAddress }
            let count = list.count
            group.score(&list)
            #expect(list.withUnsafeBufferPointer { $0.baseAddress } == storage, "\(count) pairs")
            #expect(list.count == count)
            let differing = list.indices.filter { k in
                let p = list[k], q = scored[k % scored.count]
                return p.row != q.row || p.col != q.col || p.sim != q.sim || p.score != q.score || p.placesDisagree != q.placesDisagree
            }
            #expect(differing.isEmpty, "\(differing.count) of \(count) pairs")
        }
    }

    /// A group's texts read once per distinct text, on any number of workers, give the token
    /// ids, token sets, weights, place claims and similarities of the plain form: every paired
    /// row and column through `TokenTable.add` and `PlaceRule.claims`, in first-seen order.
    @Test func groupTextsReadLikeThePlainForm() {
        var rng = SplitMix64(scenarioSeed: 33)
        let words = ["POS", "PURCHASE", "LUXMI", "Velmora", "#0393", "#12", "MIAMI", "FL", "GA", "store", "0123", "Ixke", "ab", "Q"]
        func text() -> String { (0..<rng.int(0...5)).map { _ in words[rng.below(words.count)] }.joined(separator: " ") }
        func place() -> PaymentPlace? {
            rng.int(0...2) == 0 ? PaymentPlace(storeNumber: ["393", "12", nil][rng.below(3)], region: ["FL", "ga", nil][rng.below(3)]) : nil
        }
        let day = LocalDate(year: 2024, month: 1, day: 1)!
        let money = Money(minorUnits: -500, currency: "USD")
        for round in 0..<12 {
            let records = (0..<rng.int(1...60)).map { i in
                IncomingRecord(
                    accountKey: "csv:a", sourceKind: .csv, date: day, amount: money, description: text(),
                    counterparty: rng.int(0...1) == 0 ? nil : text(), locator: Locator(row: i + 1), place: place())
            }
            let candidates = (0..<rng.int(1...60)).map { k in
                CandidateTransaction(
                    id: Int64(k + 1), accountID: 1, date: day, amount: money, description: text(),
                    counterparty: rng.int(0...1) == 0 ? nil : text(), pending: false, supportingKinds: [.plaid],
                    places: InlineList((0..<rng.int(0...2)).compactMap { _ in place() }))
            }
            let pairs = (0..<rng.int(1...150)).map { _ in
                MatchPair(row: Int32(rng.below(records.count)), col: Int32(rng.below(candidates.count)), lag: 0, sim: 0, score: 0)
            }
            // The plain form.
            var table = TokenTable()
            var rowTokens = [[Int32]](repeating: [], count: records.count), colTokens = [[Int32]](repeating: [], count: candidates.count)
            var rowClaims = [PlaceRule.Claims?](repeating: nil, count: records.count)
            var colClaims = [PlaceRule.Claims?](repeating: nil, count: candidates.count)
            for p in pairs {
                let (r, c) = (Int(p.row), Int(p.col))
                if rowClaims[r] == nil {
                    let (a, b) = TextSimilarity.matchTexts(description: records[r].description, counterparty: records[r].counterparty, note: nil)
                    rowTokens[r] = table.add(a, b)
                    rowClaims[r] = PlaceRule.claims(a, b, places: records[r].place.map { [$0] } ?? [])
                }
                if colClaims[c] == nil {
                    let (a, b) = TextSimilarity.matchTexts(description: candidates[c].description, counterparty: candidates[c].counterparty, note: nil)
                    colTokens[c] = table.add(a, b)
                    colClaims[c] = PlaceRule.claims(a, b, places: Array(candidates[c].places))
                }
            }
            table.finishWeights()
            for workers in 1...4 {
                let texts = GroupTexts(pairs: pairs, rows: Array(records.indices), records: records, candidates: candidates, workers: workers)
                #expect(texts.table.strings == table.strings, "round \(round), \(workers) workers")
                #expect(texts.table.weight.map(\.bitPattern) == table.weight.map(\.bitPattern))
                for r in records.indices {
                    #expect(Array(texts.tokens(ofSet: texts.rowSet[r])) == rowTokens[r], "round \(round) row \(r)")
                    #expect(texts.weight[Int(texts.rowSet[r])].bitPattern == table.totalWeight(rowTokens[r]).bitPattern)
                }
                for c in candidates.indices { #expect(Array(texts.tokens(ofSet: texts.colSet[c])) == colTokens[c], "round \(round) col \(c)") }
                for p in pairs {
                    let (r, c) = (Int(p.row), Int(p.col))
                    let (x, y) = (texts.claims[Int(texts.rowClaims[r])], texts.claims[Int(texts.colClaims[c])])
                    #expect(x.stores == rowClaims[r]!.stores && x.regions == rowClaims[r]!.regions)
                    #expect(y.stores == colClaims[c]!.stores && y.regions == colClaims[c]!.regions)
                    let plain = table.similarity(rowTokens[r], table.totalWeight(rowTokens[r]), colTokens[c], table.totalWeight(colTokens[c]))
                    #expect(texts.similarity(row: r, col: c).bitPattern == plain.bitPattern)
                }
            }
        }
    }

    /// A link's amount reason, spelled once per amount, reads as spelling it each time, in any
    /// currency (another currency's amount of the same minor units is not the cached one).
    @Test func amountReasonsSpelledOnceReadLikeSpellingEachTime() {
        var rng = SplitMix64(scenarioSeed: 34)
        let texts = AmountTexts()
        for _ in 0..<3_000 {
            let amount = Money(minorUnits: Int64(rng.int(-2_000...2_000)), currency: ["USD", "JPY", "KWD", "CNY"][rng.below(4)])
            #expect(texts.equal(amount) == "equal \(amount.decimalString)", "\(amount)")
        }
    }

    /// Candidates sorted as packed (amount, day, index) keys come in the order of sorting their
    /// indices by the same triple through a closure, as the index was built before.
    @Test func packedAmountDayKeysSortLikeTheTupleOrder() {
        var rng = SplitMix64(scenarioSeed: 35)
        for _ in 0..<200 {
            let m = rng.int(0...60)
            let amounts = (0..<m).map { _ in Int64(rng.int(-3...3)) * 100 }, days = (0..<m).map { _ in rng.int(0...4) }
            var plain = Array(0..<m)
            plain.sort { (amounts[$0], days[$0], $0) < (amounts[$1], days[$1], $1) }
            let packed = (0..<m).map { MatchGroup.AmountDay(amount: amounts[$0], day: days[$0], row: $0) }.sorted().map(\.row)
            #expect(packed == plain)
        }
    }

    /// The radix passes give `sort()`'s order: amounts and days from narrow to full-width ranges
    /// (negative, near the ends of Int64), many equal (amount, day), rows ascending with gaps;
    /// and rows out of order fall back to `sort()`.
    @Test func radixSortedAmountDayKeys() {
        var rng = SplitMix64(scenarioSeed: 36)
        for round in 0..<60 {
            let n = rng.int(0...3_000)
            let spread: Int64 = [3, 5_000, 1 << 40, Int64.max / 2][round % 4]
            let days = [2, 900, 1 << 30][rng.int(0...2)]
            var row = rng.int(-5...5)
            var keys: [MatchGroup.AmountDay] = []
            for _ in 0..<n {
                row += rng.int(1...3)
                let amount = Int64(rng.int(-1_000_000...1_000_000)) % (spread + 1) * (round % 8 == 7 ? 2 : 1)
                keys.append(MatchGroup.AmountDay(amount: round % 5 == 4 ? amount | Int64.min : amount, day: rng.int(-days...days), row: row))
            }
            if round % 10 == 9 { keys.reverse() }
            var radix = keys
            MatchGroup.AmountDay.sort(&radix)
            #expect(radix.map(\.row) == keys.sorted().map(\.row), "round \(round), \(n) keys")
        }
    }
}
