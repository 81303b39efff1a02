import Foundation
import MoneyFlowCore
import MoneyFlowPipeline
import MoneyFlowStore
import MoneyFlowStoreTestSupport
import MoneyFlowTestSupport
import Testing

/// An Alipay and a WeChat payment of one amount at one merchant, paid with one card a few days
/// apart, are two payments: before the card's statement arrives neither bill's row may join the
/// other's (both are feeds; a feed confirms statement rows, never another feed's), and once it
/// does each links to its own bank row. (The wallet year benchmark had exactly such a pair,
/// 饿了么 -80.69 on 2026-02-21 and 2026-02-25, linked as one before wallet rows were feeds.)
@Suite("two wallets' payments of one card and amount stay two")
struct WalletCrossFeedTests {
    typealias W = WalletFixture

    static var alipay: ImportedStatement {
        var bill = W.alipay
        bill.records = [
            W.wallet(
                .alipay, W.walletDebit, 21, "12:00:00", -8069, merchant: "上海拉扎斯信息科技有限公司", item: "饿了么外卖订单", order: "2025032122001",
                method: "招商银行储蓄卡(3816)")
        ]
        return bill
    }

    static var wechat: ImportedStatement {
        var bill = W.wechat
        bill.records = [
            W.wallet(
                .wechat, W.walletDebit, 25, "12:30:00", -8069, merchant: "上海拉扎斯信息科技有限公司", item: "饿了么外卖订单", order: "42000025",
                method: "招商银行(3816)")
        ]
        return bill
    }

    static var debit: ImportedStatement {
        var s = W.debit()
        s.records = [
            W.bank(W.debitKey, 21, -8069, "快捷支付", "支付宝（中国）网络技术有限公司", "支付宝-上海拉扎斯信息科技有限公司", row: 1),
            W.bank(W.debitKey, 25, -8069, "快捷支付", "财付通支付科技有限公司", "财付通-微信支付-上海拉扎斯信息科技有限公司", row: 2),
        ]
        return s
    }

    @Test(arguments: StoreKind.testable)
    func neverOneTransaction(_ kind: StoreKind) throws {
        let (store, _) = try freshStore(kind)
        let service = ImportService(store: store)
        for (name, s) in [("alipay", Self.alipay), ("wechat", Self.wechat)] {
            let r = try service.apply(s, fileName: name, sha256: "sha-\(name)", options: FileImportOptions())
            #expect(r.plan.counts.linked == 0 && r.plan.counts.needsReview == 0, "\(name): \(r.plan.counts)")
        }
        #expect(try store.transactions().count == 2)
        _ = try service.apply(Self.debit, fileName: "debit", sha256: "sha-debit", options: FileImportOptions())
        let txs = try store.transactions()
        #expect(txs.count == 2)
        for t in txs {
            let kinds = t.sources.map(\.kind.rawValue).sorted()
            #expect(kinds == (t.date == W.day(21) ? ["alipay", "cmb-pdf"] : ["cmb-pdf", "wechat"]), "\(t.date.iso): \(kinds)")
        }
    }
}
