import MoneyFlowCore
import MoneyFlowReconcile
import MoneyFlowTestSupport
import Testing

/// The transfer engine on hand-made legs: what links, what waits for review, what is left
/// alone; and properties: the outcome does not depend on ids or order, and deciding group by
/// group gives what deciding everything at once gives.
@Suite("transfers between own accounts: the engine")
struct TransferMatcherTests {
    static let debit: Int64 = 1, card: Int64 = 2, savings: Int64 = 3, usdCard: Int64 = 4

    static func leg(
        _ id: Int64, _ account: Int64, _ day: Int, _ amount: Int64, _ text: String, currency: String = "CNY"
    ) -> TransferLeg {
        let numbers: [Int64: String] = [debit: "6214********8705", card: "4529", savings: "****1234", usdCard: "7788"]
        return TransferLeg(
            id: id, accountID: account, accountNumber: numbers[account], accountIsCredit: account == card || account == usdCard,
            date: LocalDate(year: 2024, month: 11, day: 1)!.adding(days: day), amount: Money(minorUnits: amount, currency: currency),
            text: text)
    }

    static func pairs(_ list: [TransferPair]) -> [[Int64]] { list.map { [$0.out, $0.into] } }

    @Test("a debit 信用卡还款 and the card's 还款 two days later are one transfer; equal-amount purchases and refunds are not")
    func cardRepayment() {
        let legs = [
            Self.leg(10, Self.debit, 0, -523_100, "信用卡还款"),
            Self.leg(11, Self.card, 2, 523_100, "还款"),
            // Decoys: a purchase and a refund of one amount, a salary equal to a card purchase.
            Self.leg(12, Self.debit, 3, -19_900, "快捷支付 京东"),
            Self.leg(13, Self.card, 4, 19_900, "退款 京东"),
            Self.leg(14, Self.debit, 5, 880_000, "代发工资"),
            Self.leg(15, Self.card, 5, -880_000, "消费 苹果"),
        ]
        let outcome = TransferMatcher.decide(legs)
        #expect(Self.pairs(outcome.linked) == [[10, 11]])
        #expect(outcome.review.isEmpty)
        #expect(outcome.linked[0].reasons.contains { $0.factor == "shape" })
    }

    @Test("two equal moves to savings in one week pair one-to-one by date; an equidistant tie waits for review")
    func equalTransfers() {
        let week = [
            Self.leg(1, Self.debit, 0, -50_000, "Online Transfer to SAV ...1234"),
            Self.leg(2, Self.debit, 3, -50_000, "Online Transfer to SAV ...1234"),
            Self.leg(3, Self.savings, 0, 50_000, "Online Transfer from CHK ...8705"),
            Self.leg(4, Self.savings, 3, 50_000, "Online Transfer from CHK ...8705"),
        ]
        #expect(Self.pairs(TransferMatcher.decide(week).linked) == [[1, 3], [2, 4]])
        // One outflow exactly between two inflows: nothing tells them apart.
        let tie = [
            Self.leg(1, Self.debit, 2, -50_000, "TRANSFER TO SAVINGS"),
            Self.leg(3, Self.savings, 0, 50_000, "TRANSFER FROM CHECKING"),
            Self.leg(4, Self.savings, 4, 50_000, "TRANSFER FROM CHECKING"),
        ]
        let outcome = TransferMatcher.decide(tie)
        #expect(outcome.linked.isEmpty)
        #expect(Self.pairs(outcome.review) == [[1, 3], [1, 4]])
    }

    @Test("wording on one side only, between two bank accounts, is offered for review, not linked; no wording at all is nothing")
    func weakEvidence() {
        let weak = [Self.leg(1, Self.debit, 0, -20_000, "转账 张三"), Self.leg(2, Self.savings, 1, 20_000, "利息")]
        let outcome = TransferMatcher.decide(weak)
        #expect(outcome.linked.isEmpty)
        #expect(Self.pairs(outcome.review) == [[1, 2]])
        let none = [Self.leg(1, Self.debit, 0, -20_000, "快捷支付"), Self.leg(2, Self.savings, 1, 20_000, "利息")]
        #expect(TransferMatcher.decide(none) == TransferOutcome())
        // The other account's last four digits are evidence enough on their own.
        let digits = [Self.leg(1, Self.debit, 0, -20_000, "网银 尾号1234"), Self.leg(2, Self.savings, 1, 20_000, "存入")]
        #expect(Self.pairs(TransferMatcher.decide(digits).linked) == [[1, 2]])
        // Out of the window: never.
        let late = [Self.leg(1, Self.debit, 0, -20_000, "信用卡还款"), Self.leg(2, Self.card, 8, 20_000, "还款")]
        #expect(TransferMatcher.decide(late) == TransferOutcome())
    }

    @Test("accounts the user paired: wording on one side is enough; the pairing alone, with no wording, is not")
    func pairedAccounts() {
        var out = Self.leg(1, Self.debit, 0, -20_000, "转账 张三"), into = Self.leg(2, Self.savings, 1, 20_000, "存入")
        #expect(TransferMatcher.decide([out, into]).linked.isEmpty)
        out.pairedAccounts = [Self.savings]
        let outcome = TransferMatcher.decide([out, into])
        #expect(Self.pairs(outcome.linked) == [[1, 2]])
        #expect(outcome.linked[0].reasons.contains { $0.detail == "you paired these two accounts" })
        var plain = Self.leg(1, Self.debit, 0, -20_000, "快捷支付")
        plain.pairedAccounts = [Self.savings]
        #expect(TransferMatcher.decide([plain, into]) == TransferOutcome())
    }

    @Test("a CNY 购汇还款 paying a USD card row is offered for review with both amounts, never linked")
    func crossCurrency() {
        let legs = [
            Self.leg(1, Self.debit, 0, -723_450, "购汇还款"),
            Self.leg(2, Self.usdCard, 1, 100_000, "还款", currency: "USD"),
            Self.leg(3, Self.usdCard, 1, -100_000, "AMAZON", currency: "USD"),
        ]
        let outcome = TransferMatcher.decide(legs)
        #expect(outcome.linked.isEmpty)
        #expect(Self.pairs(outcome.review) == [[1, 2]])
        #expect(
            outcome.review[0].reasons.contains {
                $0.factor == "currency" && $0.detail.contains("-7234.50 CNY") && $0.detail.contains("1000.00 USD")
            })
    }

    @Test("the user's word: a link holds without evidence, 'not a transfer' is never paired again and frees the legs")
    func verdicts() {
        let legs = [
            Self.leg(1, Self.debit, 0, -30_000, "信用卡还款"),
            Self.leg(2, Self.card, 1, 30_000, "还款"),
            Self.leg(3, Self.debit, 10, -4_200, "快捷支付"),
            Self.leg(4, Self.savings, 30, 4_200, "存入"),
        ]
        let outcome = TransferMatcher.decide(
            legs, verdicts: [TransferVerdict(out: 1, into: 2, together: false), TransferVerdict(out: 3, into: 4, together: true)])
        #expect(Self.pairs(outcome.linked) == [[3, 4]])
        #expect(outcome.userLinked == [3])
        #expect(outcome.review.isEmpty)
    }

    @Test("property: ids and order never change which legs pair up; deciding group by group is deciding all", arguments: 0..<12)
    func orderIndependence(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed) &* 104_729 &+ 17)
        let legs = Self.randomLedger(&rng)
        func content(_ l: TransferLeg) -> String { "\(l.accountID)|\(l.date.iso)|\(l.amount)|\(l.text)" }
        func described(_ o: TransferOutcome, _ legs: [TransferLeg]) -> [String] {
            let byID = Dictionary(uniqueKeysWithValues: legs.map { ($0.id, content($0)) })
            return
                (o.linked.map { "L " + byID[$0.out]! + " -> " + byID[$0.into]! }
                + o.review.map { "R " + byID[$0.out]! + " -> " + byID[$0.into]! })
                .sorted()
        }
        let expected = described(TransferMatcher.decide(legs), legs)
        #expect(expected.contains { $0.hasPrefix("L ") }, "the generated ledger should hold transfers")
        for round in 0..<4 {
            var shuffled = legs
            rng.shuffle(&shuffled)
            // New ids in another order, as a re-import in another order would give.
            var ids = Array(1...Int64(shuffled.count)).map { $0 * 7 + Int64(round) * 1000 }
            rng.shuffle(&ids)
            for i in shuffled.indices { shuffled[i].id = ids[i] }
            #expect(described(TransferMatcher.decide(shuffled), shuffled) == expected)
        }
        // Deciding each group alone gives the same as deciding all.
        let byID = Dictionary(uniqueKeysWithValues: legs.map { ($0.id, $0) })
        var merged = TransferOutcome()
        for g in TransferMatcher.groups(legs) {
            let part = TransferMatcher.decide(g.map { byID[$0]! })
            merged.linked += part.linked
            merged.review += part.review
        }
        #expect(described(merged, legs) == expected)
    }

    /// Three months of a debit account, its card, a savings account and a USD card: monthly
    /// repayments (some on the same amount), moves to savings, and many unrelated rows with
    /// amounts that collide on purpose.
    static func randomLedger(_ rng: inout SplitMix64) -> [TransferLeg] {
        var legs: [TransferLeg] = []
        var next: Int64 = 1
        func add(_ account: Int64, _ day: Int, _ amount: Int64, _ text: String, _ currency: String = "CNY") {
            legs.append(leg(next, account, day, amount, text, currency: currency))
            next += 1
        }
        let amounts: [Int64] = [50_000, 123_400, 99_900, 500_000]
        for month in 0..<3 {
            let base = month * 30
            let amount = rng.pick(amounts)
            let day = base + rng.int(0...20)
            add(debit, day, -amount, rng.pick(["信用卡还款", "还款 尾号4529", "转账还款"]))
            add(card, day + rng.int(0...3), amount, rng.pick(["还款", "自动还款", "掌上生活还款"]))
            if rng.chance(0.7) {
                let s = rng.pick(amounts), d = base + rng.int(0...25)
                add(debit, d, -s, "TRANSFER TO SAV ...1234")
                add(savings, d + rng.int(0...2), s, "TRANSFER FROM CHK ...8705")
            }
            if rng.chance(0.5) {
                let d = base + rng.int(0...25)
                add(debit, d, -rng.int64(600_000...800_000), "购汇还款")
                add(usdCard, d + 1, 100_000, "还款", "USD")
            }
            for _ in 0..<12 {
                let a = rng.pick(amounts + [1_000, 2_500, 8_800])
                let acct = rng.pick([debit, card, savings])
                add(acct, base + rng.int(0...29), rng.chance(0.5) ? a : -a, rng.pick(["快捷支付", "消费", "退款", "利息", "代发工资", "转账 张三"]))
            }
        }
        return legs
    }
}
