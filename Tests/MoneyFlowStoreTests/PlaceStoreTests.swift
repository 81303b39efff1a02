import Foundation
import MoneyFlowCore
import MoneyFlowPipeline
import MoneyFlowStoreTestSupport
import MoneyFlowTestSupport
import Testing

/// The store hands the engine where a stored feed record says the payment was made (Plaid's
/// `location`, kept in the record's raw JSON), so ``PaymentPlace`` evidence works whichever side
/// is imported first: a bank row of the GA membership is not linked to the feed's FL charge of
/// the same day and price when its own GA charge is three days back.
@Suite struct PlaceStoreTests {
    static let facts = AccountFacts(key: "acct", suggestedName: "Checking 1234", currencies: ["USD"])
    static let base = LocalDate(year: 2025, month: 3, day: 10)!

    static func charge(_ id: String, day: Int, region: String, row: Int) -> IncomingRecord {
        let date = base.adding(days: day)
        let raw = """
            {"account_id":"acct-1","amount":29.99,"authorized_date":"\(date.iso)","date":"\(date.iso)","iso_currency_code":"USD",\
            "location":{"address":null,"city":null,"country":"US","lat":null,"lon":null,"postal_code":null,"region":"\(region)","store_number":null},\
            "merchant_name":"Orvo Fitness","name":"Orvo Fitness","pending":false,"transaction_id":"\(id)"}
            """
        return IncomingRecord(
            accountKey: "acct", sourceKind: .plaid, date: date, amount: AbstainFixture.usd(-2999), description: "Orvo Fitness",
            counterparty: "Orvo Fitness", externalID: id, authorizedDate: date, locator: Locator(page: 1, row: row), raw: raw,
            place: PaymentPlace(region: region))
    }

    static var feed: ImportedStatement {
        ImportedStatement(
            importerID: "plaid", accounts: [facts],
            records: [charge("orvo-ga", day: 0, region: "GA", row: 1), charge("orvo-fl", day: 3, region: "FL", row: 2)])
    }

    static var statement: ImportedStatement {
        ImportedStatement(
            importerID: "csv", accounts: [facts],
            records: [AbstainFixture.bank(base.adding(days: 3), -2999, "RECURRING CARD PMT ORVO FITNESS GA", balance: 97_001, line: 2)])
    }

    @Test(arguments: StoreKind.testable, [true, false])
    func theRowLinksToItsOwnStatesCharge(_ kind: StoreKind, statementSecond: Bool) throws {
        let (store, _) = try freshStore(kind)
        try importBothSides(into: store, feed: Self.feed, statement: Self.statement, statementSecond: statementSecond)
        let linked = try store.transactions().filter { t in t.sources.contains { $0.kind == .csv } }
        #expect(linked.count == 1)
        let feedIDs = linked.flatMap { $0.sources.filter { $0.kind == .plaid }.compactMap(\.externalID) }
        #expect(feedIDs == ["orvo-ga"], "\(feedIDs)")
    }
}
