import Foundation
import MoneyFlowCore
import MoneyFlowPipeline
import MoneyFlowStore
import MoneyFlowTestSupport

// MARK: - Merchants

enum Flavor: String, Sendable, CaseIterable {
    /// US checking account: bank CSV export (`csv`), USD, POS-style bank text.
    case us
    /// CMB account: 招商银行 PDF statement (`cmb-pdf`), CNY, `快捷支付` + legal-entity counterparty.
    case cmb

    var currency: String { self == .us ? "USD" : "CNY" }
    var statementKind: SourceKind { self == .us ? .csv : .cmbPDF }
    var statementFile: String { self == .us ? "statement.csv" : "statement.pdf" }
}

struct Merchant {
    enum Kind { case spend, income, transfer }
    var bank: String // statement description
    var counterparty: String? // statement counterparty (CMB prints the legal entity)
    var plaid: String // Plaid name / merchant_name (cleaned)
    var prices: [Int64]? // fixed prices (minor units, positive)
    var range: ClosedRange<Int64>
    var weight: Int
    var tipable = false
    var kind: Kind = .spend
    var refundable = false
    var refundBank: String? = nil
}

enum Catalogue {
    static let us: [Merchant] = [
        Merchant(
            bank: "POS PURCHASE STARBUCKS STORE 0123 SEATTLE WA CARD 1234", plaid: "Starbucks", prices: [475, 545, 610, 725],
            range: 475...725, weight: 6),
        Merchant(bank: "POS PURCHASE WHOLEFDS MKT 10234 SEATTLE WA CARD 1234", plaid: "Whole Foods Market", range: 1500...18000, weight: 5),
        Merchant(
            bank: "AMZN MKTP US*2K4L55PQ1 AMZN.COM/BILL WA", plaid: "Amazon", range: 899...15999, weight: 5,
            refundable: true, refundBank: "AMZN MKTP US REFUND AMZN.COM/BILL WA"),
        Merchant(bank: "UBER *TRIP HELP.UBER.COM CA CARD 1234", plaid: "Uber", range: 700...4500, weight: 4),
        Merchant(bank: "SHELL OIL 57442 SEATTLE WA CARD 1234", plaid: "Shell", range: 2500...7500, weight: 3),
        Merchant(bank: "CHIPOTLE 1234 SEATTLE WA CARD 1234", plaid: "Chipotle Mexican Grill", range: 950...1850, weight: 3),
        Merchant(bank: "SAFEWAY #1234 SEATTLE WA CARD 1234", plaid: "Safeway", range: 800...12000, weight: 4),
        Merchant(bank: "SQ *BLUE MOON CAFE SEATTLE WA CARD 1234", plaid: "Blue Moon Cafe", range: 2500...9000, weight: 3, tipable: true),
        Merchant(bank: "OLIVE GARDEN 0345 BELLEVUE WA CARD 1234", plaid: "Olive Garden", range: 3000...12000, weight: 2, tipable: true),
        Merchant(
            bank: "TARGET T-1234 SEATTLE WA CARD 1234", plaid: "Target", range: 500...20000, weight: 3,
            refundable: true, refundBank: "TARGET RETURN T-1234 SEATTLE WA"),
        Merchant(bank: "TRADER JOE S #130 SEATTLE WA CARD 1234", plaid: "Trader Joe's", range: 1200...9000, weight: 3),
        Merchant(bank: "VENMO PAYMENT 1023456789 WEB ID: 3264681992", plaid: "Venmo", range: 1000...8000, weight: 2),
        Merchant(bank: "NETFLIX.COM 866-579-7172 CA", plaid: "Netflix", prices: [1549], range: 1549...1549, weight: 0),
        Merchant(
            bank: "ACH DEPOSIT ACME CORP PAYROLL PPD ID: 9876543210", plaid: "ACME Corp", range: 280000...292000, weight: 0, kind: .income),
        Merchant(
            bank: "ONLINE TRANSFER TO SAV XXXXXX5678 REF #IB0X2Q", plaid: "Transfer to Savings", range: 20000...50000, weight: 0,
            kind: .transfer),
    ]

    static let cmb: [Merchant] = [
        Merchant(bank: "快捷支付", counterparty: "拉扎斯网络科技（上海）有限公司", plaid: "饿了么", range: 1500...8000, weight: 6),
        Merchant(bank: "快捷支付", counterparty: "北京三快在线科技有限公司", plaid: "美团", range: 1000...9000, weight: 5),
        Merchant(
            bank: "银联快捷支付", counterparty: "星巴克企业管理（中国）有限公司", plaid: "星巴克", prices: [3200, 3500, 3800, 4100], range: 3200...4100, weight: 5),
        Merchant(bank: "快捷支付", counterparty: "北京小桔科技有限公司", plaid: "滴滴出行", range: 1200...6000, weight: 4),
        Merchant(
            bank: "网联快捷支付", counterparty: "京东商城业务", plaid: "京东", range: 2000...50000, weight: 3,
            refundable: true, refundBank: "网联退款"),
        Merchant(bank: "快捷支付", counterparty: "盒马网络科技有限公司", plaid: "盒马鲜生", range: 3000...30000, weight: 3),
        Merchant(bank: "银联消费", counterparty: "四川海底捞餐饮股份有限公司", plaid: "海底捞", range: 15000...60000, weight: 2, tipable: true),
        Merchant(
            bank: "财付通快捷支付", counterparty: "拼多多平台商户", plaid: "拼多多", range: 900...20000, weight: 3,
            refundable: true, refundBank: "财付通退款"),
        Merchant(bank: "银联消费", counterparty: "上海西贝餐饮管理有限公司", plaid: "西贝莜面村", range: 8000...30000, weight: 2, tipable: true),
        Merchant(bank: "转账汇款", counterparty: "张伟", plaid: "张伟", range: 10000...200000, weight: 1),
        Merchant(bank: "代扣", counterparty: "爱奇艺会员", plaid: "爱奇艺", prices: [2500], range: 2500...2500, weight: 0),
        Merchant(bank: "代发工资", counterparty: "深圳某某科技有限公司", plaid: "工资", range: 1_800_000...1_850_000, weight: 0, kind: .income),
        Merchant(bank: "转账汇款", counterparty: "招商银行信用卡还款", plaid: "信用卡还款", range: 300000...800000, weight: 0, kind: .transfer),
    ]

    static func merchants(_ f: Flavor) -> [Merchant] { f == .us ? us : cmb }
}

// MARK: - Scenario

struct ScenarioConfig {
    var seed: UInt64
    var flavor: Flavor = .us
    var count = 400
    var days = 90
    var twinGroups = 4
    var sameAmountPairs = 5
    var refunds = 6
    var holds = 5
    /// Holds with exactly the amount of a real purchase at the same merchant a day later.
    var trickyHolds = 1
    var missingRate = 0.03
    var pendingRate = 0.25
    var tipRate = 0.5
    /// Plaid pages end this many days before the statement does (the newest card purchases are
    /// still pending, or not visible yet, on the Plaid side).
    var plaidLagDays = 2
    /// Everything Plaid, all posted, no pending lifecycle (for symmetric order properties).
    var plaidPostedOnly = false
    var pageDays = 7
    var accountKey = "acct"
}

/// One real-world money movement and how each source saw it.
struct RealTxn {
    enum Lifecycle: String { case posted, pendingThenPosted = "pending->posted", pendingTip = "pending+tip" }
    var id = 0
    var merchant: Int
    var amount: Int64 // final, signed
    var postDay: Int // statement posting day
    var plaidShift = 0 // Plaid date = postDay - plaidShift
    var authLag: Int? = nil // authorized date = Plaid date - authLag
    var lifecycle: Lifecycle = .posted
    var pendingAmount: Int64 = 0
    var onStatement = true
    var onPlaid = true
    var unit = 0 // twin unit (== id unless a genuine identical twin)
    var tag = "regular"
}

struct Hold {
    var id: Int
    var merchant: Int
    var amount: Int64
    var day: Int
    var removeDay: Int
    var tag: String
}

struct Scenario {
    var config: ScenarioConfig
    var start: LocalDate
    var real: [RealTxn]
    var holds: [Hold]
    /// Full statement, in file order (each row has a stable locator).
    var statementRows: [IncomingRecord]
    var statementRealID: [Int] // parallel to statementRows
    var plaidPages: [ImportedStatement]
    /// Plaid external id -> real id (holds have ids >= 1_000_000).
    var realOfExternal: [String: Int]
    /// Bank locator key -> real id.
    var realOfLocator: [String: Int]
    /// Real id -> records expected to be active at the end ("bank:<loc>" / "plaid:<ext>").
    var expectedActive: [Int: [String]]
    /// Genuine twin unit of each real transaction (id of its first member).
    var unitOf: [Int: Int]
    var tagOf: [Int: String]
    /// Record key ("bank:<locator>" / "plaid:<external id>") -> what the engine can observe of it:
    /// kind, date, amount, text (and pending). Records sharing a signature are interchangeable:
    /// no rule can tell which is which, so pairing them either way is equally right.
    var signatureOf: [String: String] = [:]
    /// Signatures held by more than one record of the scenario.
    var ambiguousSignatures: Set<String> = []

    var accountFacts: AccountFacts {
        AccountFacts(
            key: config.accountKey, suggestedName: config.flavor == .us ? "Checking 1234" : "CMB 8705",
            institution: config.flavor == .us ? "Test Bank" : "招商银行", number: "1234",
            currencies: [config.flavor.currency])
    }

    func date(_ day: Int) -> LocalDate { start.adding(days: day) }

    /// Statement file with the rows whose posting day is in `days` (all by default).
    func statement(days: ClosedRange<Int>? = nil, rows: [IncomingRecord]? = nil) -> ImportedStatement {
        var recs = rows ?? statementRows
        if let days { recs = recs.filter { days.contains($0.date.dayNumber - start.dayNumber) } }
        return ImportedStatement(importerID: config.flavor == .us ? "csv" : "cmb-pdf", accounts: [accountFacts], records: recs)
    }

    /// All Plaid pages as one file (e.g. a `/transactions/get` style export of the final state).
    func plaidFinalExport() -> ImportedStatement {
        var byID: [String: IncomingRecord] = [:]
        var order: [String] = []
        var removed = Set<String>()
        for p in plaidPages {
            for r in p.records { if byID[r.externalID!] == nil { order.append(r.externalID!) }; byID[r.externalID!] = r }
            for x in p.removals { removed.insert(x.externalID) }
        }
        let recs = order.filter { !removed.contains($0) }.map { byID[$0]! }
        return ImportedStatement(importerID: "plaid", accounts: [accountFacts], records: recs)
    }
}

func locatorKey(_ file: String, line: Int?, page: Int?, row: Int?) -> String {
    "\(file)|\(line ?? 0)|\(page ?? 0)|\(row ?? 0)"
}

enum ScenarioGenerator {
    static func make(_ c: ScenarioConfig) -> Scenario {
        var rng = SplitMix64(scenarioSeed: c.seed)
        let merchants = Catalogue.merchants(c.flavor)
        let start = LocalDate(year: 2025, month: 1, day: 6)!
        let spend = merchants.indices.filter { merchants[$0].kind == .spend && merchants[$0].weight > 0 }
        var weighted: [Int] = []
        for m in spend { weighted += Array(repeating: m, count: merchants[m].weight) }
        func price(_ m: Int) -> Int64 {
            let mm = merchants[m]
            if let p = mm.prices { return rng.pick(p) }
            return rng.int64(mm.range)
        }
        var real: [RealTxn] = []
        var unitCounter = 0
        func add(_ t: RealTxn) { var t = t; unitCounter += 1; t.unit = unitCounter; real.append(t) }

        // Recurring: income, subscription, transfers.
        if let pay = merchants.firstIndex(where: { $0.kind == .income }) {
            for d in stride(from: 3, to: c.days, by: 14) {
                add(RealTxn(merchant: pay, amount: rng.int64(merchants[pay].range), postDay: d, tag: "income"))
            }
        }
        if let sub = merchants.firstIndex(where: { $0.weight == 0 && $0.kind == .spend }) {
            for d in stride(from: 5, to: c.days, by: 30) {
                add(RealTxn(merchant: sub, amount: -merchants[sub].prices![0], postDay: d, tag: "subscription"))
            }
        }
        if let tr = merchants.firstIndex(where: { $0.kind == .transfer }) {
            for d in stride(from: 10, to: c.days, by: 30) {
                add(RealTxn(merchant: tr, amount: -rng.int64(merchants[tr].range), postDay: d, tag: "transfer"))
            }
        }
        // Genuine identical twins: two coffees, same day, same amount, seen identically by both sources.
        let coffee = spend.first { merchants[$0].prices != nil }!
        for _ in 0..<c.twinGroups {
            let d = rng.int(0...(c.days - 1))
            let p = -price(coffee)
            let shift = rng.int(0...2)
            let lag: Int? = rng.chance(0.5) ? rng.int(0...1) : nil
            add(RealTxn(merchant: coffee, amount: p, postDay: d, plaidShift: shift, authLag: lag, tag: "twin"))
            var second = real[real.count - 1]
            second.unit = real[real.count - 1].unit
            real.append(second)
        }
        // Same amount, different merchants, adjacent days.
        for _ in 0..<c.sameAmountPairs {
            let d = rng.int(0...(c.days - 2))
            let a = rng.pick(spend)
            var b = rng.pick(spend)
            while b == a { b = rng.pick(spend) }
            let amt = -(c.flavor == .us ? rng.int64(1000...5000) : rng.int64(2000...9000))
            add(RealTxn(merchant: a, amount: amt, postDay: d, tag: "same-amount-pair"))
            add(RealTxn(merchant: b, amount: amt, postDay: d + 1, tag: "same-amount-pair"))
        }
        // Refunds of the same absolute amount, a few days after the purchase.
        let refundable = merchants.indices.filter { merchants[$0].refundable }
        for _ in 0..<c.refunds {
            let m = rng.pick(refundable)
            let d = rng.int(0...(c.days - 6))
            let amt = price(m)
            add(RealTxn(merchant: m, amount: -amt, postDay: d, tag: "refunded-purchase"))
            add(RealTxn(merchant: m, amount: amt, postDay: d + rng.int(1...5), tag: "refund"))
        }
        // Fill with ordinary spending.
        while real.count < c.count {
            let m = rng.pick(weighted)
            add(RealTxn(merchant: m, amount: -price(m), postDay: rng.int(0...(c.days - 1))))
        }
        // Observation details.
        for i in real.indices where real[i].tag != "twin" {
            let r = rng.int(0...9)
            real[i].plaidShift = r < 3 ? 0 : r < 7 ? 1 : r < 9 ? 2 : 3
            real[i].authLag = rng.chance(0.5) ? rng.int(0...2) : nil
            let m = merchants[real[i].merchant]
            guard !c.plaidPostedOnly, m.kind == .spend, real[i].amount < 0, real[i].tag != "refunded-purchase" else { continue }
            if m.tipable && rng.chance(c.tipRate) {
                real[i].lifecycle = .pendingTip
                let tipPct = Int64(rng.int(10...25))
                real[i].pendingAmount = -((-real[i].amount) * 100 / (100 + tipPct))
                real[i].tag = "tip"
            } else if rng.chance(c.pendingRate) {
                real[i].lifecycle = .pendingThenPosted
                real[i].pendingAmount = real[i].amount
            }
        }
        // Chronological ids (stable order for readable reports).
        real.sort { ($0.postDay, $0.merchant, $0.amount, $0.unit) < ($1.postDay, $1.merchant, $1.amount, $1.unit) }
        var unitMap: [Int: Int] = [:]
        for i in real.indices {
            real[i].id = i + 1
            if let u = unitMap[real[i].unit] { real[i].unit = u } else { unitMap[real[i].unit] = i + 1; real[i].unit = i + 1 }
        }
        // Missing records, only where the truth stays recoverable from the data: the amount is
        // unique within +-8 days (otherwise a missing row makes the right pairing unknowable).
        func uniqueAmount(_ t: RealTxn) -> Bool {
            !real.contains { $0.id != t.id && $0.amount == t.amount && abs($0.postDay - t.postDay) <= 8 }
        }
        var eligible = real.indices.filter { real[$0].tag == "regular" && uniqueAmount(real[$0]) }
        rng.shuffle(&eligible)
        let missingEach = Int((Double(c.count) * c.missingRate).rounded())
        for k in 0..<min(eligible.count, 2 * missingEach) {
            if k % 2 == 0 {
                real[eligible[k]].onStatement = false; real[eligible[k]].tag = "not-on-statement"
            } else {
                real[eligible[k]].onPlaid = false; real[eligible[k]].tag = "not-on-plaid"
            }
        }
        // Holds that are removed and never post.
        var holds: [Hold] = []
        let holdMerchants = merchants.indices.filter {
            merchants[$0].tipable || merchants[$0].plaid == "Shell" || merchants[$0].plaid == "京东"
        }
        for k in 0..<c.holds {
            let m = rng.pick(holdMerchants)
            let d = rng.int(0...(c.days - 8))
            holds.append(
                Hold(
                    id: 1_000_000 + k, merchant: m, amount: -rng.int64(merchants[m].range), day: d, removeDay: d + rng.int(2...5),
                    tag: "hold"))
        }
        if !c.plaidPostedOnly {
            for k in 0..<c.trickyHolds {
                // A real purchase at the same merchant for exactly the held amount, a day later.
                let candidates = real.filter {
                    $0.tag == "regular" && $0.lifecycle == .posted && $0.amount < 0 && $0.postDay >= 4 && $0.postDay < c.days - 8
                }
                guard !candidates.isEmpty else { break }
                let t = rng.pick(candidates)
                holds.append(
                    Hold(
                        id: 1_000_100 + k, merchant: t.merchant, amount: t.amount, day: t.postDay - t.plaidShift - 1,
                        removeDay: t.postDay + 2, tag: "hold-same-amount-as-\(t.id)"))
            }
        } else {
            holds = []
        }

        return assemble(c, start: start, merchants: merchants, real: real, holds: holds)
    }
}
