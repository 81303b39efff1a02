import Foundation
import MoneyFlowCore
import MoneyFlowPipeline
import MoneyFlowStoreTestSupport
import Testing

@testable import MoneyFlowStore

/// A transfer to a person is never learned from a shop's category: the store tells the
/// categoriser which transactions are transfers to people (``PersonTransfer``, from what each
/// record's source says), so the stall named 张三 that the user booked to coffee does not make a
/// 转账 to 张三 coffee too.
@Suite struct PersonTransferCategoryTests {
    static let start = LocalDate(year: 2026, month: 3, day: 1)!

    /// One row of `kind` in account `key`, day `day`.
    static func row(
        _ key: String, _ kind: SourceKind, day: Int, minor: Int64, description: String, counterparty: String, category: String? = nil
    ) -> IncomingRecord {
        IncomingRecord(
            accountKey: key, sourceKind: kind, date: start.adding(days: day), amount: Money(minorUnits: minor, currency: "CNY"),
            description: description, counterparty: counterparty, category: category, locator: Locator(line: day + 2, row: day + 1),
            raw: "{\"day\":\(day)}")
    }

    static func statement(_ key: String, _ kind: SourceKind, _ records: [IncomingRecord]) -> ImportedStatement {
        ImportedStatement(
            importerID: kind.rawValue, accounts: [AccountFacts(key: key, suggestedName: key, institution: "Test", currencies: ["CNY"])],
            records: records)
    }

    /// (the shop's row, the person's transfer) per source: a CMB debit statement (交易摘要 and
    /// 对手信息) and a WeChat Pay bill (交易类型).
    static let cases: [(SourceKind, shop: (String, String?), person: (String, String?))] = [
        (.cmbCSV, shop: ("快捷支付", nil), person: ("转账汇款", nil)),
        (.wechat, shop: ("咖啡", "商户消费"), person: ("/", "转账")),
    ]

    @Test(arguments: StoreKind.testable, [0, 1]) func aTransferToAPersonIsNotLearnedFromAShop(_ kind: StoreKind, _ index: Int) throws {
        let (store, _) = try freshStore(kind)
        let (source, shop, person) = Self.cases[index]
        let st = Self.statement(
            "acct-\(source.rawValue)", source,
            [
                Self.row(
                    "acct-\(source.rawValue)", source, day: 0, minor: -3500, description: shop.0, counterparty: "张三", category: shop.1),
                Self.row(
                    "acct-\(source.rawValue)", source, day: 1, minor: -3200, description: shop.0, counterparty: "张三", category: shop.1),
                Self.row(
                    "acct-\(source.rawValue)", source, day: 2, minor: -50000, description: person.0, counterparty: "张三", category: person.1),
            ])
        _ = try ImportService(store: store).apply(st, fileName: "a.csv", sha256: "a", options: FileImportOptions())
        let byDay = { (d: Int) in try #require(try store.transactions().first { $0.date == Self.start.adding(days: d) }) }
        try store.categorize([try byDay(0).id], .account("Expenses:Food:Coffee"))
        // The same stall again is learned; the transfer to the person of the same name is not.
        #expect(try byDay(1).assignedCategory?.account == "Expenses:Food:Coffee")
        let transfer = try byDay(2).assignedCategory
        #expect(transfer?.account != "Expenses:Food:Coffee" && transfer?.source != "learned", "\(String(describing: transfer))")
        // A decision about the person teaches the person's next transfer.
        try store.categorize([try byDay(2).id], .account("Expenses:Family"))
        let next = Self.statement(
            "acct-\(source.rawValue)", source,
            [
                Self.row(
                    "acct-\(source.rawValue)", source, day: 5, minor: -20000, description: person.0, counterparty: "张三", category: person.1)
            ])
        _ = try ImportService(store: store).apply(next, fileName: "b.csv", sha256: "b", options: FileImportOptions())
        #expect(try byDay(5).assignedCategory?.account == "Expenses:Family")
    }
}
