import Foundation
import MoneyFlowCore
import MoneyFlowTestSupport
import Testing

@testable import MoneyFlowReconcile

/// The pieces the fast engine is built from, each checked against a slow, obviously correct
/// reference on random inputs.
@Suite struct EngineInternalsTests {
    /// The byte-level ASCII tokeniser must produce exactly the tokens of the Unicode one.
    @Test func asciiFastPathTokenisesLikeTheReference() {
        var rng = SplitMix64(scenarioSeed: 11)
        let alphabet = Array("abcXYZ019 #*-/.,'&POS purchase STORE ppd id web 12 34 5")
        var table = TokenTable()
        for _ in 0..<2_000 {
            let text = String((0..<rng.int(0...39)).map { _ in alphabet[rng.int(0...alphabet.count - 1)] })
            let fast = Set(table.add(text).map { table.strings[Int($0)] })
            #expect(fast == TextSimilarity.tokens(text), "\(text)")
        }
        // Non-ASCII text goes through the reference itself; description and counterparty are one text.
        let ids = table.add("拉扎斯网络科技（上海）有限公司", "Ｅｌｅｍｅ")
        #expect(Set(ids.map { table.strings[Int($0)] }) == TextSimilarity.tokens("拉扎斯网络科技（上海）有限公司").union(["eleme"]))
    }

    /// The payment-channel merchant read without Foundation's trimming for texts that name no
    /// channel must answer exactly as trimming every text and testing each prefix.
    @Test func channelMerchantFastPathAnswersLikeTheReference() {
        func reference(_ text: String?) -> String? {
            guard let t = text?.trimmingCharacters(in: .whitespaces) else { return nil }
            for p in TextSimilarity.channelPrefixes where t.hasPrefix(p) {
                let rest = t.dropFirst(p.count).trimmingCharacters(in: .whitespaces)
                return rest.isEmpty ? nil : rest
            }
            return nil
        }
        var rng = SplitMix64(scenarioSeed: 12)
        let pieces = [" ", "\t", "\u{00A0}", "\u{3000}", "\n", "财付通-", "微信支付-", "支付宝-", "支付", "财", "-", "美团", "KFC ", "e\u{301}", ""]
        for _ in 0..<3_000 {
            let text = (0..<rng.int(0...5)).map { _ in pieces[rng.int(0...pieces.count - 1)] }.joined()
            #expect(TextSimilarity.channelMerchant(text) == reference(text), "\(text.unicodeScalars.map(\.value))")
        }
        #expect(TextSimilarity.channelMerchant("\u{3000} 财付通-微信支付-美团 ") == "美团")
        #expect(TextSimilarity.channelMerchant(nil) == nil)
    }

    /// Rare tokens weigh more: a shared city says little, a shared merchant name a lot.
    @Test func sharedCityCountsForLessThanSharedMerchant() {
        var table = TokenTable()
        var docs: [[Int32]] = []
        let merchants = ["velmora", "torru", "ixke", "dalnemi", "quanelux", "zenbra", "mobrator", "pavelri"]
        for m in merchants {
            for _ in 0..<3 { docs.append(table.add("POS PURCHASE \(m.uppercased()) #0123 SEATTLE WA")) }
        }
        let bank = table.add("POS PURCHASE SAMOLUX #9035 SEATTLE WA")
        let right = table.add("SAMOLUX #9035 SEATTLE", "Samolux")
        let wrong = table.add("PAVELRI #8788 SEATTLE", "Pavelri")
        table.finishWeights()
        func sim(_ a: [Int32], _ b: [Int32]) -> Double { table.similarity(a, table.totalWeight(a), b, table.totalWeight(b)) }
        #expect(sim(bank, right) == 1)
        #expect(sim(bank, wrong) > 0 && sim(bank, wrong) < 0.3)
        #expect(docs.count == 24)
    }

    /// Random small problems: the engine's (sparse) solver's optimum equals brute force, and the dual bound never
    /// exceeds what forbidding a chosen pair really costs (the bound lets the engine skip
    /// re-solving; it must be a lower bound to be safe).
    @Test func assignmentIsOptimalAndDualBoundIsALowerBound() {
        var rng = SplitMix64(scenarioSeed: 5)
        for _ in 0..<300 {
            let rows = 1 + rng.int(0...3), cols = 1 + rng.int(0...3)
            var problem = AssignmentProblem(rows: rows, columns: cols)
            for i in 0..<rows { for j in 0..<cols where rng.int(0...2) > 0 { problem[i, j] = -Double(rng.int(0...199)) / 100 } }
            let best = problem.sparse.solve()
            #expect(abs(best.cost - bruteForce(problem)) < 1e-9)
            for (i, j) in best.columns.enumerated() {
                guard let j else { continue }
                var rowAlt = Double.infinity
                for j2 in 0..<problem.width where j2 != j && problem.allowed(i, j2) {
                    rowAlt = min(rowAlt, problem.reducedCost(best, i, j2))
                }
                var colAlt = -best.v[j + 1]
                for i2 in 0..<rows where i2 != i && problem.allowed(i2, j) { colAlt = min(colAlt, problem.reducedCost(best, i2, j)) }
                var without = problem
                without[i, j] = AssignmentProblem.forbidden
                let alt = without.sparse.solve()
                #expect(alt.cost - best.cost >= rowAlt + colAlt - 1e-9)
            }
        }
    }

    /// The sparse solver the engine runs on its blocks returns the dense solver's solution bit
    /// for bit (assignment, cost, both potentials), so it cannot change a decision: random
    /// sparse problems with many ties (costs in quarters), rows with no pair at all, empty
    /// column sets, and the same problems with a pair forbidden (the engine's near-tie re-solve).
    @Test func sparseAssignmentEqualsDense() {
        var rng = SplitMix64(scenarioSeed: 11)
        func same(_ a: AssignmentSolution, _ b: AssignmentSolution) -> Bool {
            a.columns == b.columns && a.cost.bitPattern == b.cost.bitPattern
                && a.u.map(\.bitPattern) == b.u.map(\.bitPattern) && a.v.map(\.bitPattern) == b.v.map(\.bitPattern)
        }
        var forbiddenRows = 0, ties = 0
        for round in 0..<2_000 {
            let rows = 1 + rng.int(0...9), cols = rng.int(0...12)
            let density = [1, 2, 3, 6][rng.int(0...3)]
            let unmatched = round % 3 == 0 ? 0.5 : 0
            var dense = AssignmentProblem(rows: rows, columns: cols, unmatchedCost: unmatched)
            var sparse = SparseAssignmentProblem(rows: rows, columns: cols, unmatchedCost: unmatched)
            var allowed: [(Int, Int)] = []
            for i in 0..<rows {
                let none = rng.int(0...5) == 0
                if none { forbiddenRows += 1 }
                for j in 0..<cols where !none && rng.int(0...9) < density {
                    let c = rng.int(0...1) == 0 ? -Double(rng.int(0...4)) / 4 : -Double(rng.int(0...199)) / 100
                    dense[i, j] = c
                    sparse.add(column: j, cost: c)
                    allowed.append((i, j))
                }
                sparse.closeRow()
            }
            let d = dense.solve(), s = sparse.solve()
            #expect(same(d, s), "round \(round): \(d.columns) vs \(s.columns)")
            if Set(allowed.map { dense[$0.0, $0.1] }).count < allowed.count { ties += 1 }
            guard !allowed.isEmpty else { continue }
            let (i, j) = rng.pick(allowed)
            dense[i, j] = AssignmentProblem.forbidden
            sparse.forbid(i, j)
            #expect(same(dense.solve(), sparse.solve()), "round \(round) without (\(i), \(j))")
        }
        #expect(forbiddenRows > 500 && ties > 500, "\(forbiddenRows) rows without a pair, \(ties) problems with ties")
    }

    func bruteForce(_ p: AssignmentProblem) -> Double {
        var best = 0.0
        var used = [Bool](repeating: false, count: p.columns)
        func go(_ i: Int, _ acc: Double) {
            if i == p.rows { best = min(best, acc); return }
            go(i + 1, acc + p[i, p.columns + i])
            for j in 0..<p.columns where !used[j] && p.allowed(i, j) {
                used[j] = true; go(i + 1, acc + p[i, j]); used[j] = false
            }
        }
        go(0, 0)
        return best
    }
}

/// Store numbers as the engine reads them from both sides' texts.
@Suite struct StoreNumberTests {
    @Test func storeNumbersAreReadAfterAHash() {
        #expect(TextSimilarity.storeNumbers("POS PURCHASE LUXMI #0393 MIAMI FL") == [393])
        #expect(TextSimilarity.storeNumbers("LUXMI #0393 MIAMI", "Luxmi") == [393])
        #expect(TextSimilarity.storeNumbers("RECURRING CARD PMT IXKE MEMBERSHIP AZ", nil).isEmpty)
        #expect(TextSimilarity.storeNumbers("CHECK # 12", "#A1 #7 #7") == [7])
        #expect(TextSimilarity.storesDisagree([1798], [7985]))
        #expect(!TextSimilarity.storesDisagree([1798], [1798, 7985]))
        #expect(!TextSimilarity.storesDisagree([], [7985]))
    }

    /// Tokens of non-ASCII text come from a `Set`, whose order differs between processes:
    /// new ones must get ids in sorted order, so a score's summation order is the same in
    /// every run (a process's own `Set` order is almost never the sorted one for these texts).
    @Test func nonASCIITokensGetIdsInSortedOrder() {
        let texts = [
            "支付宝 美团外卖 北京三快在线科技有限公司 订单号",
            "Café Zürich Bahnhofstraße Bäckerei Müller Frühstück",
            "微信支付 瑞幸咖啡 上海 门店 消费",
        ]
        for text in texts {
            var table = TokenTable()
            let ids = table.tokens(of: text, nil)
            #expect(ids == Array(0..<Int32(ids.count)), "\(text)")
            #expect(table.strings == TextSimilarity.tokens(text).sorted(), "\(text)")
        }
    }
}
