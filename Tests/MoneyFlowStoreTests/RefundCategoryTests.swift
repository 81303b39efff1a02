import Foundation
import MoneyFlowCategories
import MoneyFlowCore
import MoneyFlowPipeline
import MoneyFlowStoreTestSupport
import Testing

@testable import MoneyFlowStore

/// A wallet refund is booked to the category of the purchase it gives back (``RefundOriginals``):
/// the Alipay refund by its order number `<original>_<suffix>`, the WeChat Pay refund by its
/// merchant and item; it follows the purchase when that is categorised again, and falls back to
/// the ordinary sources while the purchase is not in the store.
@Suite struct RefundCategoryTests {
    static let start = LocalDate(year: 2026, month: 5, day: 1)!

    static func row(
        _ kind: SourceKind, day: Int, minor: Int64, order: String, item: String, merchant: String, category: String
    ) -> IncomingRecord {
        IncomingRecord(
            accountKey: "wallet-\(kind.rawValue)", sourceKind: kind, date: start.adding(days: day),
            amount: Money(minorUnits: minor, currency: "CNY"), description: item, counterparty: merchant, externalID: order,
            category: category, time: "10:00:00", locator: Locator(line: day + 2, row: day + 1), raw: "{\"order\":\"\(order)\"}")
    }

    static func importRows(_ store: LedgerStore, _ kind: SourceKind, _ rows: [IncomingRecord], name: String) throws {
        let key = "wallet-\(kind.rawValue)"
        let st = ImportedStatement(
            importerID: kind.rawValue, accounts: [AccountFacts(key: key, suggestedName: key, institution: "Test", currencies: ["CNY"])],
            records: rows)
        _ = try ImportService(store: store).apply(st, fileName: name, sha256: name, options: FileImportOptions())
    }

    static func category(_ store: LedgerStore, day: Int) throws -> (id: Int64, category: TransactionCategory?) {
        let t = try #require(try store.transactions().first { $0.date == start.adding(days: day) })
        return (t.id, t.assignedCategory)
    }

    /// (purchase, refund) per wallet: an Alipay order and its `_suffix` refund; a WeChat Pay
    /// purchase and its `<merchant>-退款` row.
    static let cases: [(SourceKind, purchase: IncomingRecord, refund: IncomingRecord)] = [
        (
            .alipay,
            row(
                .alipay, day: 0, minor: -39900, order: "2026050122001310170972175373", item: "运动鞋", merchant: "多一度电子商务有限公司",
                category: "服饰装扮"),
            row(
                .alipay, day: 5, minor: 39900, order: "2026050122001310170972175373_6231510427", item: "退款-运动鞋", merchant: "多一度电子商务有限公司",
                category: "退款")
        ),
        (
            .wechat,
            row(
                .wechat, day: 0, minor: -12000, order: "4200012895202605014319030020", item: "盒马鲜生门店消费", merchant: "盒马鲜生", category: "商户消费"),
            row(
                .wechat, day: 5, minor: 2000, order: "4200019910202605069397619938", item: "盒马鲜生门店消费", merchant: "盒马鲜生", category: "盒马鲜生-退款"
            )
        ),
    ]

    @Test(arguments: StoreKind.testable, [0, 1]) func aRefundTakesItsPurchasesCategoryAndFollowsIt(_ kind: StoreKind, _ index: Int) throws {
        let (store, _) = try freshStore(kind)
        let (source, purchase, refund) = Self.cases[index]
        // The refund alone: no purchase in the store, the ordinary sources (nothing applies).
        try Self.importRows(store, source, [refund], name: "refund.csv")
        #expect(try Self.category(store, day: 5).category?.reasonKind != "refund")
        // The purchase arrives in a later file: the refund follows it in that write.
        try Self.importRows(store, source, [purchase], name: "purchase.csv")
        let (purchaseID, bought) = try Self.category(store, day: 0)
        var (_, back) = try Self.category(store, day: 5)
        if source == .alipay { #expect(bought?.account == "Expenses:Shopping:Clothing" && bought?.source == "provider") }
        #expect(back?.account == bought?.account && back?.source == bought?.source)
        if bought?.account != nil {
            #expect(back?.reasonKind == "refund" && back?.reasonText.contains("#\(purchaseID)") == true, "\(String(describing: back))")
        }
        // The user decides the purchase: the refund follows, learned (the user did not decide it).
        try store.categorize([purchaseID], .account("Expenses:Sport"))
        (_, back) = try Self.category(store, day: 5)
        #expect(back?.account == "Expenses:Sport" && back?.source == "learned" && back?.reasonKind == "refund")
        try store.categorize([purchaseID], .account("Expenses:Groceries"))
        #expect(try Self.category(store, day: 5).category?.account == "Expenses:Groceries")
    }
}
