import Foundation

/// Plaid JSON files of one bank linked twice (two Plaid items): the same accounts and history
/// under each item's own account ids and transaction ids, as `/accounts/get` (with its `item`)
/// and `/transactions/sync` pages. Deterministic (``SplitMix64``), so failures replay.
public enum PlaidRelinkFixture {
    /// One Plaid account of the bank.
    public struct Account: Sendable {
        public var suffix: String, name: String, mask: String, type: String, subtype: String
        public init(suffix: String, name: String, mask: String, type: String, subtype: String) {
            self.suffix = suffix; self.name = name; self.mask = mask; self.type = type; self.subtype = subtype
        }
    }

    /// One real transaction (Plaid sign: positive = money out), on account number `account`.
    public struct Txn: Sendable {
        public var account: Int, date: String, amount: String, name: String, merchant: String
        public var pending = false
        /// When the card was swiped (Plaid's `authorized_date`), days before `date`; nil: `date`.
        public var authorizedDate: String? = nil
        /// Number of the item's pending transaction this posted one replaces.
        public var replaces: Int? = nil
        public init(account: Int, date: String, amount: String, name: String, merchant: String, pending: Bool = false) {
            self.account = account; self.date = date; self.amount = amount; self.name = name; self.merchant = merchant
            self.pending = pending
        }
    }

    public static let checking = Account(suffix: "chk", name: "Plaid Checking", mask: "0000", type: "depository", subtype: "checking")
    public static let card = Account(suffix: "cc", name: "Plaid Credit Card", mask: "3333", type: "credit", subtype: "credit card")
    public static let coffee = Txn(
        account: 0, date: "2024-03-12", amount: "5.75", name: "BLUE BOTTLE COFFEE OAKLAND CA", merchant: "Blue Bottle Coffee")

    /// 40 transactions over March 2024 on both accounts, plus two identical coffees on one day
    /// (two real purchases): 42 in all.
    public static func history(seed: UInt64 = 15) -> [Txn] {
        let merchants = [
            ("BLUE BOTTLE COFFEE OAKLAND CA", "Blue Bottle Coffee"), ("SAFEWAY #1234 OAKLAND", "Safeway"),
            ("UBER TRIP HELP.UBER.COM", "Uber"), ("PGANDE WEB ONLINE", "Pacific Gas and Electric"),
            ("AMAZON MKTPLACE PMTS", "Amazon"), ("SHELL OIL 5744", "Shell"), ("NETFLIX.COM", "Netflix"),
            ("TRADER JOE S #0555", "Trader Joe's"),
        ]
        var rng = SplitMix64(seed: seed)
        var out: [Txn] = []
        for k in 0..<40 {
            let m = rng.pick(merchants)
            let cents = rng.int(150...20_149)
            let day = 1 + k * 3 / 4
            let date = "2024-03-" + (day < 10 ? "0\(day)" : "\(day)")
            out.append(Txn(account: k % 3 == 0 ? 1 : 0, date: date, amount: amount(cents), name: m.0, merchant: m.1))
        }
        return out + [coffee, coffee]
    }

    /// A two-year history of `count` transactions on both accounts, as a heavy user's: fixed
    /// prices (a gym, a subscription, a transit fare) make many transactions of one amount, and
    /// about one day in twelve repeats a purchase identically (same amount, name and account on
    /// one day: two or three fares, two coffees), each a real transaction. Authorized dates
    /// run 0-2 days before the posting date, as at Plaid. In date order.
    public static func longHistory(count: Int, seed: UInt64 = 1255) -> [Txn] {
        let merchants: [(name: String, merchant: String, account: Int, cents: ClosedRange<Int>)] = [
            ("BART CLIPPER TRANSIT FARE", "Clipper", 1, 275...275), ("BLUE BOTTLE COFFEE OAKLAND CA", "Blue Bottle Coffee", 1, 575...575),
            ("TOUCHSTONE CLIMBING", "Touchstone", 0, 7850...7850), ("NETFLIX.COM", "Netflix", 1, 1549...1549),
            ("SAFEWAY #1234 OAKLAND", "Safeway", 1, 1200...18_000), ("UBER TRIP HELP.UBER.COM", "Uber", 1, 900...4800),
            ("SHELL OIL 5744", "Shell", 1, 3000...7000), ("PGANDE WEB ONLINE", "Pacific Gas and Electric", 0, 6000...21_000),
            ("STARBUCKS STORE 0555", "Starbucks", 1, 425...425),
        ]
        var rng = SplitMix64(seed: seed)
        var out: [Txn] = []
        while out.count < count {
            let m = rng.pick(merchants)
            let day = rng.below(730)
            let date = isoDate(dayOffset: day)
            var t = Txn(account: m.account, date: date, amount: amount(rng.int(m.cents)), name: m.name, merchant: m.merchant)
            t.authorizedDate = isoDate(dayOffset: max(0, day - rng.below(3)))
            out.append(t)
            if rng.chance(1.0 / 12) {
                for _ in 0..<rng.int(1...2) where out.count < count { out.append(t) }
            }
        }
        return out.enumerated().sorted { ($0.element.date, $0.offset) < ($1.element.date, $1.offset) }.map(\.element)
    }

    /// `2022-01-01` plus `dayOffset` days.
    static func isoDate(dayOffset: Int) -> String {
        var c = DateComponents()
        c.year = 2022; c.month = 1; c.day = 1 + dayOffset
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = TimeZone(identifier: "UTC")!
        let d = cal.date(from: c)!
        let parts = cal.dateComponents([.year, .month, .day], from: d)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(parts.year!)-\(two(parts.month!))-\(two(parts.day!))"
    }

    /// Three transactions after the old item stopped syncing: only the new item has them.
    public static let newer: [Txn] = [
        Txn(account: 0, date: "2024-04-02", amount: "61.20", name: "SAFEWAY #1234 OAKLAND", merchant: "Safeway"),
        Txn(account: 0, date: "2024-04-03", amount: "-2500.00", name: "ACME PAYROLL DIR DEP", merchant: "Acme"),
        Txn(account: 1, date: "2024-04-03", amount: "14.99", name: "NETFLIX.COM", merchant: "Netflix"),
    ]

    static func amount(_ cents: Int) -> String {
        let c = cents % 100
        return "\(cents / 100)." + (c < 10 ? "0\(c)" : "\(c)")
    }

    /// A Plaid item of the bank: its account ids (`<tag>acct<suffix>`) and transaction ids
    /// (`<tag>tx<n>`) carry the item's tag.
    public struct Item: Sendable {
        public var tag: String
        public var institutionID = "ins_109508"
        public var institutionName = "First Platypus Bank"
        public var accounts = [PlaidRelinkFixture.checking, PlaidRelinkFixture.card]
        public init(tag: String) { self.tag = tag }

        public func accountID(_ i: Int) -> String { "\(tag)acct\(accounts[i].suffix)" }

        func accountsJSON() -> String {
            accounts.indices.map { i in
                let a = accounts[i]
                return """
                    {"account_id": "\(accountID(i))", "balances": {"available": 1000.5, "current": 1200.25, "iso_currency_code": "USD",
                     "limit": null, "unofficial_currency_code": null}, "mask": "\(a.mask)", "name": "\(a.name)",
                     "official_name": null, "subtype": "\(a.subtype)", "type": "\(a.type)"}
                    """
            }.joined(separator: ",\n")
        }

        /// `/accounts/get` response.
        public func accountsGet() -> String {
            """
            {"accounts": [\(accountsJSON())],
             "item": {"item_id": "\(tag)item", "institution_id": "\(institutionID)", "institution_name": "\(institutionName)",
                      "available_products": [], "billed_products": ["transactions"], "webhook": ""},
             "request_id": "req\(tag)"}
            """
        }

        /// One `/transactions/sync` page adding `txns` (ids numbered from `first`).
        public func syncPage(_ txns: [Txn], first: Int, cursor: String) -> String {
            let added = txns.enumerated().map { k, t in
                """
                {"account_id": "\(accountID(t.account))", "amount": \(t.amount), "iso_currency_code": "USD",
                 "unofficial_currency_code": null, "date": "\(t.date)", "authorized_date": "\(t.authorizedDate ?? t.date)", "name": "\(t.name)",
                 "merchant_name": "\(t.merchant)", "pending": \(t.pending), "pending_transaction_id": \(t.replaces.map { "\"\(tag)tx\($0)\"" } ?? "null"),
                 "transaction_id": "\(tag)tx\(first + k)", "payment_channel": "in store"}
                """
            }
            return """
                {"accounts": [\(accountsJSON())], "added": [\(added.joined(separator: ",\n"))], "modified": [], "removed": [],
                 "next_cursor": "\(cursor)", "has_more": false, "request_id": "req\(tag)\(first)"}
                """
        }

        /// The item's files in import order (name, JSON): accounts, the history page, and a
        /// second page with `newer` when given.
        public func files(history: [Txn], newer: [Txn] = []) -> [(String, String)] {
            var out = [("\(tag)-accounts.json", accountsGet()), ("\(tag)-sync1.json", syncPage(history, first: 0, cursor: "\(tag)c1"))]
            if !newer.isEmpty { out.append(("\(tag)-sync2.json", syncPage(newer, first: 1000, cursor: "\(tag)c2"))) }
            return out
        }
    }
}
