import MoneyFlowCore
import Testing

@testable import MoneyFlowStore

/// The source-precedence policy on its own (``SourcePrecedence``): which record each shown field
/// of a transaction comes from, by role, whatever order the records arrived in.
@Suite struct SourcePrecedenceTests {
    typealias R = SourcePrecedence.Record

    static func statement(_ kind: SourceKind = .cmbPDF, counterparty: String? = "Bank party", category: String? = "bank-cat") -> R {
        R(
            kind: kind.rawValue, pending: false, date: "2026-03-02", amountMinor: -1250, currency: "CNY",
            description: "Statement text", counterparty: counterparty, note: "statement note", balanceMinor: 98_750,
            category: category)
    }
    static func feed(pending: Bool = false, date: String = "2026-03-01", merchant: String? = "Merchant", category: String? = "Food") -> R {
        R(
            kind: SourceKind.plaid.rawValue, pending: pending, date: date, amountMinor: -1300, currency: "CNY",
            description: "FEED TEXT", counterparty: merchant, note: nil, balanceMinor: nil, category: category)
    }

    /// Every kind has a role: the feeds are Plaid and the wallet bills, every other source is the
    /// bank's own statement.
    @Test func rolesOfTheKnownSources() {
        for kind in SourceKind.allCases {
            #expect(kind.role == ([.plaid, .alipay, .wechat].contains(kind) ? .feed : .statement), "\(kind)")
            #expect(kind.isBankOwn == (kind.role == .statement))
        }
        #expect(R(kind: "future-source", pending: false, date: "2026-03-01", amountMinor: 0, currency: "CNY", description: "").role == nil)
    }

    /// The statement wins date, amount, description, note and balance; the feed wins the
    /// category; the statement's counterparty stays: in either order of the records.
    @Test(arguments: [false, true]) func theStatementWinsDateAndAmountTheFeedWinsCategory(feedFirst: Bool) throws {
        for kind in SourceKind.allCases where kind.role == .statement {
            let records = feedFirst ? [Self.feed(), Self.statement(kind)] : [Self.statement(kind), Self.feed()]
            let m = try #require(SourcePrecedence.merge(records))
            #expect(m.primary.kind == kind.rawValue)
            #expect(m.primary.date == "2026-03-02" && m.primary.amountMinor == -1250 && m.primary.balanceMinor == 98_750)
            #expect(m.primary.description == "Statement text" && m.primary.note == "statement note")
            #expect(m.category == "Food")
            #expect(m.counterparty == "Bank party")
            #expect(!m.pending)
        }
    }

    /// The feed's merchant fills a counterparty the statement does not name; with no category
    /// from the feed, the statement's shows.
    @Test func theFeedFillsWhatTheStatementLacks() throws {
        let m = try #require(SourcePrecedence.merge([Self.statement(counterparty: nil), Self.feed(category: nil)]))
        #expect(m.counterparty == "Merchant")
        #expect(m.category == "bank-cat")
    }

    /// Without a statement the feed's posted record wins over its pending one, whichever came
    /// first; the transaction is pending only while every record is.
    @Test func aPostedFeedRecordWinsOverItsPendingOne() throws {
        let pending = Self.feed(pending: true, date: "2026-02-27", merchant: "Pending merchant", category: "Pending cat")
        let posted = Self.feed(date: "2026-03-01")
        let m = try #require(SourcePrecedence.merge([pending, posted]))
        #expect(m.primary.date == "2026-03-01" && m.counterparty == "Merchant" && m.category == "Food" && !m.pending)
        let onlyPending = try #require(SourcePrecedence.merge([pending]))
        #expect(onlyPending.primary.date == "2026-02-27" && onlyPending.pending)
    }

    /// Records of no known role: the first one (by id) shows; no records, no transaction.
    @Test func unknownRolesShowTheFirstRecordAndNoneShowsNothing() throws {
        let a = R(kind: "a", pending: false, date: "2026-03-01", amountMinor: 1, currency: "CNY", description: "first")
        let b = R(kind: "b", pending: false, date: "2026-03-02", amountMinor: 2, currency: "CNY", description: "second")
        #expect(try #require(SourcePrecedence.merge([a, b])).primary.description == "first")
        #expect(SourcePrecedence.merge([]) == nil)
    }
}
