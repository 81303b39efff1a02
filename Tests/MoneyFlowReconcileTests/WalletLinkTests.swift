import MoneyFlowCore
import MoneyFlowReconcile
import MoneyFlowTestSupport
import Testing

/// A wallet row paid by a card is the same money as that card's statement or bill row: the
/// engine puts it in the card's account and links it as a feed record (``WalletFixture``).
@Suite struct WalletLinkTests {
    typealias W = WalletFixture

    /// The plan's decision per record, keyed by the wallet's order number (and leg).
    static func decisions(_ plan: ImportPlan) -> [String: RecordDecision] {
        var out: [String: RecordDecision] = [:]
        for e in plan.entries {
            let r = plan.statement.records[e.index]
            out[(r.externalID ?? "row\(r.locator.row ?? 0)") + (r.externalIDScope.map { "/" + $0 } ?? "")] = e.decision
        }
        return out
    }

    static func linked(_ d: RecordDecision?) -> Int64? {
        if case .link(let t, _, _, _)? = d { return t }
        return nil
    }

    static func account(_ plan: ImportPlan, _ key: String) -> AccountResolution? { plan.accounts.first { $0.key == key } }

    /// Bank first: each card row of the wallets lands in its card's account and links to its
    /// statement row: same day, next-day booking, the cut card-bill name, twins (two links),
    /// the top-up's card leg. The 零钱 row, the 余额 row and the ICBC row stay on their own.
    @Test func walletRowsLinkToTheirCardsStatementRows() throws {
        let view = InMemoryLedgerView()
        let debit = view.importUnlinked(W.debit(), sha256: "debit")
        let card = view.importUnlinked(W.card, sha256: "card")
        let wechat = try Reconciler().plan(W.wechat, fileName: "wechat", fileSHA256: "wechat", view: view)
        let alipay = try Reconciler().plan(W.alipay, fileName: "alipay", fileSHA256: "alipay", view: view)

        #expect(Self.account(wechat, W.walletDebit)?.accountID == 1, "the debit card is the statement's account")
        #expect(Self.account(alipay, W.walletCredit)?.accountID == 2, "the credit card is the bill's account")
        #expect(Self.account(alipay, W.icbc)?.accountID == nil, "another bank's card is an account of its own")

        let w = Self.decisions(wechat), a = Self.decisions(alipay)
        #expect(Self.linked(w["42000001"]) == debit[0], "美团, same day: \(String(describing: w["42000001"]))")
        #expect(Self.linked(a["2025030422001"]) == debit[1], "23:41 payment booked the next day")
        let twins = [Self.linked(w["42000002"]), Self.linked(w["42000003"])]
        #expect(Set(twins.compactMap { $0 }) == [debit[2], debit[3]], "two equal coffees are two links: \(twins)")
        #expect(Self.linked(a["2025030822002"]) == card[0], "the card bill's cut name is the wallet merchant's prefix")
        #expect(Self.linked(w["42000005/out"]) == debit[6], "the top-up's card leg is the bank's debit row")
        for decoy in ["42000004", "42000005/in"] { #expect(w[decoy] == .new, "\(decoy) is the 零钱 account's own") }
        for decoy in ["2025031222003", "2025031222004"] { #expect(a[decoy] == .new, "\(decoy) never meets a CMB row") }
    }

    /// Wallets first: the statement lands on the account the wallets made for its card, takes
    /// the statement's name, and its rows link to the wallet rows.
    @Test func aStatementAfterItsWalletsLandsOnTheCardsAccount() throws {
        let view = InMemoryLedgerView()
        let wechat = view.importUnlinked(W.wechat, sha256: "wechat")
        let plan = try Reconciler().plan(W.debit(), fileName: "debit", fileSHA256: "debit", view: view)
        let debit = try #require(Self.account(plan, W.debitKey))
        #expect(debit.accountID == 1 && debit.adoptsFacts == true && debit.name == "CMB 3816", "\(debit)")
        let d = Self.decisions(plan)
        #expect(Self.linked(d["row1"]) == wechat[0])
        #expect(Set([Self.linked(d["row3"]), Self.linked(d["row4"])].compactMap { $0 }) == [wechat[1], wechat[2]])
        #expect(Self.linked(d["row7"]) == wechat[4], "the top-up's card leg")
        #expect(d["row5"] == .new, "the 全家 row of the same day and amount was paid from 零钱: not this card")
    }

    /// Two debit cards of one bank ending in the same four digits: the wallet's card is not
    /// guessed; it is an account of its own, and the warning names both.
    @Test func twoCardsEndingTheSameAreNeverGuessed() throws {
        let view = InMemoryLedgerView()
        view.importUnlinked(W.debit(), sha256: "a")
        view.importUnlinked(W.debit(key: "cmb:6225********3816", number: "6225********3816"), sha256: "b")
        let plan = try Reconciler().plan(W.wechat, fileName: "wechat", fileSHA256: "wechat", view: view)
        #expect(Self.account(plan, W.walletDebit)?.accountID == nil)
        #expect(plan.counts.linked == 0)
        #expect(
            plan.statement.warnings.contains { $0.description.contains("bankcard:招商银行:debit:3816") && $0.description.contains("ambiguous") }
        )
    }

    /// A second statement of a card whose wallet rows already sit with the first is a new
    /// account, with a warning: it is never merged into the first by its last four digits.
    @Test func aSecondStatementOfTheSameLastFourIsANewAccount() throws {
        let view = InMemoryLedgerView()
        view.importUnlinked(W.debit(), sha256: "a")
        let plan = try Reconciler().plan(
            W.debit(key: "cmb:6225********3816", number: "6225********3816"), fileName: "b", fileSHA256: "b", view: view)
        #expect(plan.accounts.map(\.accountID) == [nil])
        #expect(plan.statement.warnings.contains { $0.description.contains("CMB 3816") })
    }

    /// The bank's text names the merchant after the channel: two payments of one amount on one
    /// day at two merchants each link to their own.
    @Test func theMerchantAfterTheChannelTellsEqualPaymentsApart() throws {
        let bank = ImportedStatement(
            importerID: "cmb-pdf", accounts: [W.debitFacts()],
            records: [
                W.bank(W.debitKey, 20, -3000, "快捷支付", "财付通支付科技有限公司", "财付通-微信支付-滴滴出行", row: 1),
                W.bank(W.debitKey, 20, -3000, "快捷支付", "财付通支付科技有限公司", "财付通-微信支付-美团平台商户", row: 2),
            ])
        let wallet = ImportedStatement(
            importerID: "wechat", accounts: [W.cardFacts(W.walletDebit, bank: "招商银行", kind: "debit", last4: "3816")],
            records: [
                W.wallet(.wechat, W.walletDebit, 20, "19:00:00", -3000, merchant: "美团平台商户", item: "外卖", order: "m", method: "招商银行(3816)"),
                W.wallet(.wechat, W.walletDebit, 20, "08:00:00", -3000, merchant: "滴滴出行", item: "快车", order: "d", method: "招商银行(3816)"),
            ])
        let (plan, view) = try InMemoryLedgerView.plan(wallet, after: [bank])
        let ids = view.transactions.map(\.id)
        let d = Self.decisions(plan)
        #expect(Self.linked(d["d"]) == ids[0] && Self.linked(d["m"]) == ids[1], "\(d)")
    }
}
