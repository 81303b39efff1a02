import Foundation
import MoneyFlowCore
import MoneyFlowPipeline
import MoneyFlowStore
import MoneyFlowStoreTestSupport
import MoneyFlowTestSupport
import Testing

/// Two payments of one amount at one merchant on one day, with different items (a 生椰拿铁 at
/// 09:01, an 美式 at 15:30): the debit statement prints two identical 瑞幸 rows, the earlier
/// first. Whichever file comes first, the earlier wallet order is the earlier bank row, so the
/// item each bank row shows does not depend on the import order.
@Suite("wallet twins pair in time order")
struct WalletTimeOrderTests {
    typealias W = WalletFixture

    /// The WeChat bill as the app writes it (newest first), the two coffees' order numbers in
    /// the opposite order of their times, so neither file order nor order number gives time order.
    static var wechat: ImportedStatement {
        var bill = W.wechat
        bill.records = [
            W.wallet(.wechat, W.walletDebit, 7, "15:30:00", -1500, merchant: "瑞幸咖啡", item: "美式", order: "42000002", method: "招商银行(3816)"),
            W.wallet(.wechat, W.walletDebit, 7, "09:01:00", -1500, merchant: "瑞幸咖啡", item: "生椰拿铁", order: "42000009", method: "招商银行(3816)"),
        ]
        return bill
    }

    static func importFile(_ store: LedgerStore, _ name: String) throws {
        let statement = name == "debit" ? W.debit() : Self.wechat
        _ = try ImportService(store: store).apply(statement, fileName: name, sha256: "sha-\(name)", options: FileImportOptions())
    }

    @Test(arguments: StoreKind.testable, [["debit", "wechat"], ["wechat", "debit"]])
    func theEarlierOrderIsTheEarlierBankRow(_ kind: StoreKind, _ order: [String]) throws {
        let (store, _) = try freshStore(kind)
        for name in order { try Self.importFile(store, name) }
        // Bank row (its row on the statement) -> the wallet order linked to it.
        var paired: [Int: String] = [:]
        for t in try store.transactions() where t.date == W.day(7) {
            let row = t.sources.first { $0.kind == .cmbPDF }?.row
            let order = t.sources.first { $0.kind == .wechat }?.externalID
            if let row, let order { paired[row] = order }
            #expect(t.note?.hasSuffix(order == "42000009" ? " · 生椰拿铁" : " · 美式") ?? false, "\(order ?? "-"): \(t.note ?? "-")")
        }
        #expect(paired == [3: "42000009", 4: "42000002"], "\(order): \(paired)")
    }
}
