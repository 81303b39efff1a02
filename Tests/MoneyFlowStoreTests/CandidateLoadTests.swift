import Foundation
import MoneyFlowCore
import MoneyFlowPipeline
import MoneyFlowStoreTestSupport
import MoneyFlowTestSupport
import Testing

/// The store hands the engine its candidate transactions in a compact form (lists inline, kinds
/// as bits, repeated texts shared): what the engine reads from them is, field by field, what
/// the stored records say, in their order, whether a transaction has one supporting record or
/// several, and on either store (a PostgreSQL ledger plans on its SQLite working copy).
@Suite struct CandidateLoadTests {
    static let facts = AccountFacts(key: "acct", suggestedName: "Checking 1234", currencies: ["USD"])
    static let base = LocalDate(year: 2025, month: 3, day: 10)!
    /// Plaid's 37–38 character account id, the same on every record: shared, never lost.
    static let plaidAccount = "BxPlaidCheckingAccountId00000000000001"

    struct Feed {
        var id: String
        var day: Int
        var amount: Int64
        var name: String
        var authorizedDay: Int?
        var place: PaymentPlace?
        var time: String?
    }

    static let feedRows = [
        Feed(
            id: "txn-orvo-0000000000000000000000000001", day: 0, amount: -2999, name: "Orvo Fitness Membership", authorizedDay: -1,
            place: PaymentPlace(storeNumber: "0393", city: "South San Francisco", region: "CA"), time: "12:56:16"),
        Feed(
            id: "txn-cafe-0000000000000000000000000002", day: 1, amount: -455, name: "Blue Bottle Coffee #12", authorizedDay: nil,
            place: PaymentPlace(city: "South San Francisco"), time: nil),
        Feed(id: "txn-rent-0000000000000000000000000003", day: 2, amount: -180_000, name: "Rent", authorizedDay: 2, place: nil, time: "08:00:00"),
        // One name in two spellings Swift's `==` calls equal (é, e + U+0301): each keeps its own bytes.
        Feed(id: "txn-bleu-0000000000000000000000000004", day: 3, amount: -1250, name: "Cafe\u{301} Bleu South Beach", authorizedDay: nil, place: nil, time: nil),
        Feed(id: "txn-bleu-0000000000000000000000000005", day: 3, amount: -1300, name: "Caf\u{E9} Bleu South Beach", authorizedDay: nil, place: nil, time: nil),
    ]

    static func json(_ s: String?) -> String { s.map { "\"\($0)\"" } ?? "null" }

    static func record(_ f: Feed, row: Int) -> IncomingRecord {
        let date = base.adding(days: f.day), auth = f.authorizedDay.map { base.adding(days: $0) }
        let location =
            f.place.map { p in
                "{\"city\":\(json(p.city)),\"region\":\(json(p.region)),\"store_number\":\(json(p.storeNumber))}"
            } ?? "{\"city\":null,\"region\":null,\"store_number\":null}"
        let raw = """
            {"account_id":"\(plaidAccount)","amount":\(Double(-f.amount) / 100),"authorized_date":\(json(auth?.iso)),\
            "date":"\(date.iso)","iso_currency_code":"USD","location":\(location),"merchant_name":"\(f.name)",\
            "name":"\(f.name)","pending":false,"transaction_id":"\(f.id)"}
            """
        return IncomingRecord(
            accountKey: "acct", sourceKind: .plaid, date: date, amount: AbstainFixture.usd(f.amount), description: f.name,
            counterparty: f.name, externalID: f.id, authorizedDate: auth, time: f.time, locator: Locator(page: 1, row: row), raw: raw,
            place: f.place)
    }

    /// The candidate as plain arrays and sets, the form before it was made compact.
    struct Plain: Equatable {
        var id: Int64
        var date: LocalDate
        var amount: Money
        /// Texts as bytes: `String`'s `==` would not tell two spellings of one text apart.
        var description: [UInt8]
        var counterparty: [UInt8]?
        var kinds: Set<SourceKind>
        var otherDates: [LocalDate]
        var externalIDs: [String]
        var plaidAccountIDs: [String]
        var time: String?
        var authorizedDates: [LocalDate]
        var places: [PaymentPlace]
        /// What a failure prints.
        var spelled: String { "\(id) \(kinds) \(otherDates) \(externalIDs) \(plaidAccountIDs) \(time ?? "-") \(authorizedDates) \(places)" }
    }

    static func plain(_ c: CandidateTransaction) -> Plain {
        Plain(
            id: c.id, date: c.date, amount: c.amount, description: Array(c.description.utf8), counterparty: c.counterparty.map { Array($0.utf8) },
            kinds: Set(c.supportingKinds), otherDates: Array(c.otherDates), externalIDs: Array(c.externalIDs),
            plaidAccountIDs: Array(c.plaidAccountIDs), time: c.time, authorizedDates: Array(c.authorizedDates), places: Array(c.places))
    }

    @Test(arguments: StoreKind.testable)
    func candidatesSayWhatTheRecordsSay(_ kind: StoreKind) throws {
        let (store, _) = try freshStore(kind)
        let service = ImportService(store: store)
        let feed = ImportedStatement(
            importerID: "plaid", accounts: [Self.facts], records: Self.feedRows.enumerated().map { Self.record($1, row: $0 + 1) })
        // The bank's row of the membership, a day later: one transaction of two records.
        let statement = ImportedStatement(
            importerID: "csv", accounts: [Self.facts],
            records: [AbstainFixture.bank(Self.base.adding(days: 1), -2999, "RECURRING CARD PMT ORVO FITNESS MEMBERSHIP", balance: 97_001, line: 2)])
        _ = try service.apply(feed, fileName: "feed.json", sha256: "sha-feed", options: FileImportOptions())
        _ = try service.apply(statement, fileName: "stmt.csv", sha256: "sha-stmt", options: FileImportOptions())

        let txns = try store.transactions().sorted { $0.id < $1.id }
        #expect(txns.count == 5)
        #expect(Set(txns.map { Array($0.description.utf8) }).count == 5, "both spellings stored as sent")
        #expect(txns.contains { $0.sources.count == 2 }, "the bank row should join the feed's membership")
        let byID = Dictionary(uniqueKeysWithValues: Self.feedRows.map { ($0.id, $0) })
        let expected = txns.map { t in
            let sources = t.sources.filter { $0.state == "active" }.sorted { $0.id < $1.id }
            let feeds = sources.compactMap { $0.externalID.flatMap { byID[$0] } }
            return Plain(
                id: t.id, date: t.date, amount: t.amount, description: Array(t.description.utf8), counterparty: t.counterparty.map { Array($0.utf8) },
                kinds: Set(sources.map(\.kind)), otherDates: sources.map(\.date), externalIDs: sources.compactMap(\.externalID),
                plaidAccountIDs: feeds.map { _ in Self.plaidAccount }, time: feeds.compactMap(\.time).min(),
                authorizedDates: feeds.compactMap { $0.authorizedDay.map { Self.base.adding(days: $0) } },
                places: feeds.compactMap(\.place))
        }
        let accountID = txns[0].accountID
        var loaded: [CandidateTransaction] = []
        _ = try store.plan { view in
            loaded = try view.candidateTransactions(
                accountID: accountID, currency: "USD", from: Self.base.adding(days: -30), through: Self.base.adding(days: 30))
            return ImportPlan(fileName: "-", fileSHA256: "-", statement: statement, accounts: [], entries: [], removals: [])
        }
        #expect(loaded.map(\.accountID) == txns.map(\.accountID))
        #expect(loaded.map(Self.plain) == expected, "\(loaded.map { Self.plain($0).spelled })")
    }
}
