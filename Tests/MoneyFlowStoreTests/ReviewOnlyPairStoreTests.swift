import Foundation
import MoneyFlowCore
import MoneyFlowPipeline
import MoneyFlowStoreTestSupport
import MoneyFlowTestSupport
import Testing

/// ``ReviewOnlyPairRule`` through the store, whichever side is imported first: a row whose only
/// pair shares no text with the feed does not push the shop's own row onto the shop's coffee
/// of three days before. Fixture: two $4.25 coffees of one shop in the feed (posted days 0 and
/// 3), the bank's row of the second, and another shop's row of day 5 with no feed record.
@Suite struct ReviewOnlyPairStoreTests {
    static let facts = AccountFacts(key: "acct", suggestedName: "Checking 1234", currencies: ["USD"])
    static let base = LocalDate(year: 2025, month: 9, day: 29)!

    static func coffee(_ id: String, day: Int, authorized: Int, row: Int) -> IncomingRecord {
        let date = base.adding(days: day), auth = base.adding(days: authorized)
        let raw = """
            {"account_id":"acct-1","amount":4.25,"authorized_date":"\(auth.iso)","date":"\(date.iso)","iso_currency_code":"USD",\
            "merchant_name":"Donquama","name":"DONQUAMA #3335 NEWARK","pending":false,"transaction_id":"\(id)"}
            """
        return IncomingRecord(
            accountKey: "acct", sourceKind: .plaid, date: date, amount: AbstainFixture.usd(-425), description: "DONQUAMA #3335 NEWARK",
            counterparty: "Donquama", externalID: id, authorizedDate: auth, locator: Locator(page: 1, row: row), raw: raw)
    }

    static var feed: ImportedStatement {
        ImportedStatement(
            importerID: "plaid", accounts: [facts],
            records: [coffee("donq-1", day: 0, authorized: 0, row: 1), coffee("donq-2", day: 3, authorized: 2, row: 2)])
    }

    static var statement: ImportedStatement {
        ImportedStatement(
            importerID: "csv", accounts: [facts],
            records: [
                AbstainFixture.bank(base.adding(days: 3), -425, "POS PURCHASE DONQUAMA #3335 NEWARK NJ", balance: 99_575, line: 2),
                AbstainFixture.bank(base.adding(days: 5), -425, "POS PURCHASE KALY #1364 BOSTON MA", balance: 99_150, line: 3),
            ])
    }

    @Test(arguments: StoreKind.testable, [true, false])
    func theShopsRowLinksToItsOwnCoffee(_ kind: StoreKind, statementSecond: Bool) throws {
        let (store, _) = try freshStore(kind)
        let service = ImportService(store: store)
        let files =
            statementSecond
            ? [("feed.json", Self.feed), ("stmt.csv", Self.statement)] : [("stmt.csv", Self.statement), ("feed.json", Self.feed)]
        for (name, st) in files { _ = try service.apply(st, fileName: name, sha256: "sha-\(name)", options: FileImportOptions()) }
        let linked = try store.transactions().filter { t in t.sources.contains { $0.kind == .csv } && t.sources.contains { $0.kind == .plaid } }
        let pairs = linked.map { t in
            (t.description, t.sources.filter { $0.kind == .plaid }.compactMap(\.externalID))
        }
        #expect(linked.count == 1, "\(pairs)")
        #expect(linked.first?.sources.filter { $0.kind == .plaid }.compactMap(\.externalID) == ["donq-2"], "\(pairs)")
    }
}
