import MoneyFlowCore

/// ``ReviewOnlyPairRule``'s case, shared by the engine's tests and the store's: two $4.25
/// coffees at one shop in the feed, posted three days apart (days 0 and 3, authorised days 0
/// and 2); the bank's row of the second coffee, and a row of another shop two days later with
/// no feed record of its own. That row's only pair, with the shop's second coffee, shares no
/// text: it can only be reviewed, and must not push the shop's own row onto the first coffee.
public enum ReviewOnlyPairFixture {
    public static let facts = AccountFacts(key: "acct", suggestedName: "Checking 1234", currencies: ["USD"])
    public static let base = LocalDate(year: 2025, month: 9, day: 29)!

    /// The feed: (id, posted day, authorized day), days after `base`.
    public static let coffees: [(id: String, day: Int, authorized: Int)] = [("donq-1", 0, 0), ("donq-2", 3, 2)]

    /// The feed's records, each with the raw Plaid JSON a store keeps.
    public static var feed: ImportedStatement {
        ImportedStatement(
            importerID: "plaid", accounts: [facts],
            records: coffees.enumerated().map { k, c in
                let date = base.adding(days: c.day), auth = base.adding(days: c.authorized)
                let raw = """
                    {"account_id":"acct-1","amount":4.25,"authorized_date":"\(auth.iso)","date":"\(date.iso)","iso_currency_code":"USD",\
                    "merchant_name":"Donquama","name":"DONQUAMA #3335 NEWARK","pending":false,"transaction_id":"\(c.id)"}
                    """
                return IncomingRecord(
                    accountKey: "acct", sourceKind: .plaid, date: date, amount: AbstainFixture.usd(-425),
                    description: "DONQUAMA #3335 NEWARK", counterparty: "Donquama", externalID: c.id, authorizedDate: auth,
                    locator: Locator(page: 1, row: k + 1), raw: raw)
            })
    }

    /// The shop's row of the second coffee, then the other shop's row (no feed record).
    public static var statement: ImportedStatement {
        ImportedStatement(
            importerID: "csv", accounts: [facts],
            records: [
                AbstainFixture.bank(base.adding(days: 3), -425, "POS PURCHASE DONQUAMA #3335 NEWARK NJ", balance: 99_575, line: 2),
                AbstainFixture.bank(base.adding(days: 5), -425, "POS PURCHASE KALY #1364 BOSTON MA", balance: 99_150, line: 3),
            ])
    }
}
