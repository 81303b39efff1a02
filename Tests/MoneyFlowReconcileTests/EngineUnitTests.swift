import MoneyFlowCore
import Testing

@testable import MoneyFlowReconcile

@Suite struct AssignmentTests {
    @Test func findsTheOptimalNotTheGreedyAssignment() {
        // Greedy (row 0 takes its best column 0) would force row 1 unmatched; optimal pairs both.
        let cost: [[Double?]] = [[-1.0, -0.9], [-0.95, nil]]
        #expect(Assignment.solve(cost: cost, unmatchedCost: 0) == [1, 0])
    }

    @Test func leavesRowsUnmatchedWhenThatIsCheaper() {
        let cost: [[Double?]] = [[0.5], [-0.2]]
        #expect(Assignment.solve(cost: cost, unmatchedCost: 0) == [nil, 0])
    }

    @Test func handlesEmptyAndRectangularInputs() {
        #expect(Assignment.solve(cost: [], unmatchedCost: 0).isEmpty)
        let wide: [[Double?]] = [[-0.1, -0.9, -0.3]]
        #expect(Assignment.solve(cost: wide, unmatchedCost: 0) == [1])
    }
}

@Suite struct TextSimilarityTests {
    @Test func stripsCardNumbersDatesAndReferences() {
        let t = TextSimilarity.tokens("POS PURCHASE STARBUCKS STORE 0123 SEATTLE WA CARD 1234 01/03")
        #expect(t.contains("starbucks") && t.contains("seattle"))
        #expect(!t.contains("0123") && !t.contains("1234") && !t.contains("card"))
    }

    @Test func cleanedMerchantMatchesRawBankText() {
        #expect(TextSimilarity.similarity("Starbucks", "POS PURCHASE STARBUCKS STORE 0123 SEATTLE WA") == 1.0)
        #expect(TextSimilarity.similarity("Uber", "Whole Foods Market") == 0)
    }

    @Test func cjkTextIsComparedByBigrams() {
        let t = TextSimilarity.tokens("拉扎斯网络科技（上海）有限公司")
        #expect(t.contains("拉扎") && t.contains("上海"))
        #expect(TextSimilarity.similarity("上海公共交通卡股份有限公司", "上海公共交通卡") > 0.9)
        #expect(TextSimilarity.similarity("北京三快在线科技有限公司", "上海公共交通卡") == 0)
        // Full-width forms are folded to ASCII.
        #expect(TextSimilarity.tokens("ＩＢＰＳ").contains("ibps"))
    }

    @Test func datePenaltyPrefersTwoShortLagsAndUsualDirection() {
        #expect(Scoring.datePenalty(1) + Scoring.datePenalty(2) < Scoring.datePenalty(0) + Scoring.datePenalty(3))
        #expect(Scoring.datePenalty(-2) > Scoring.datePenalty(2))
        #expect(Scoring.datePenalty(0) == 0)
    }
}
