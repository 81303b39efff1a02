import MoneyFlowCore
import MoneyFlowReconcile

// Statements whose right plan is known by construction, shared by the engine's tests (planned
// against ``InMemoryLedgerView``) and the pipeline's (the same files imported into a store).

/// One statement row, two Plaid records equally plausible for it: same amount, same merchant
/// text, one day before and one day after the row. The engine must abstain; the user decides;
/// no later import may overturn the decision.
public enum AbstainFixture {
    public static let facts = AccountFacts(key: "acct", suggestedName: "Checking 1234", currencies: ["USD"])
    public static let day = LocalDate(year: 2025, month: 3, day: 10)!
    public static func usd(_ m: Int64) -> Money { Money(minorUnits: m, currency: "USD") }

    public static func plaid(_ id: String, _ d: LocalDate, _ amount: Int64, _ name: String, row: Int) -> IncomingRecord {
        IncomingRecord(
            accountKey: "acct", sourceKind: .plaid, date: d, amount: usd(amount), description: name, counterparty: name,
            externalID: id, locator: Locator(page: 1, row: row))
    }
    public static func bank(_ d: LocalDate, _ amount: Int64, _ text: String, balance: Int64, line: Int) -> IncomingRecord {
        IncomingRecord(
            accountKey: "acct", sourceKind: .csv, date: d, amount: usd(amount), description: text, balance: usd(balance),
            locator: Locator(line: line, row: line - 1))
    }

    public static let coffee = "POS PURCHASE STARBUCKS STORE 0123 SEATTLE WA CARD 1234"
    /// Plaid: the two coffee candidates plus an unrelated purchase.
    public static var plaidFeed: ImportedStatement {
        ImportedStatement(
            importerID: "plaid", accounts: [facts],
            records: [
                plaid("cof-before", day.adding(days: -1), -545, "Starbucks", row: 1),
                plaid("cof-after", day.adding(days: 1), -545, "Starbucks", row: 2),
                plaid("groc", day.adding(days: -2), -6412, "Safeway", row: 3),
            ])
    }
    /// Statement March 8-10: the grocery row and the single coffee row.
    public static var statement1: ImportedStatement {
        ImportedStatement(
            importerID: "csv", accounts: [facts],
            records: [
                bank(day.adding(days: -2), -6412, "SAFEWAY #1234 SEATTLE WA CARD 1234", balance: 93588, line: 2),
                bank(day, -545, coffee, balance: 93043, line: 3),
            ])
    }
    /// Statement March 10-14, overlapping on the coffee row (byte-identical), plus a new row.
    public static var statement2: ImportedStatement {
        ImportedStatement(
            importerID: "csv", accounts: [facts],
            records: [
                bank(day, -545, coffee, balance: 93043, line: 3),
                bank(day.adding(days: 3), -2217, "UBER *TRIP HELP.UBER.COM CA CARD 1234", balance: 90826, line: 4),
            ])
    }
}

/// A pair whose texts share nothing is a guess (``TextlessLinkRule``): review, unless other
/// evidence carries it. One statement row, one feed record of the same amount.
public enum TextlessFixture {
    public static let facts = AccountFacts(key: "acct", suggestedName: "Checking 1234", currencies: ["USD"])
    public static let day = LocalDate(year: 2025, month: 3, day: 10)!
    public static func usd(_ m: Int64) -> Money { Money(minorUnits: m, currency: "USD") }

    /// The feed holds a Whole Foods purchase and an unrelated, text-confirmed one.
    public static func feed(wholeFoodsOn d: LocalDate, extra: [IncomingRecord] = []) -> ImportedStatement {
        ImportedStatement(
            importerID: "plaid", accounts: [facts],
            records: [
                AbstainFixture.plaid("wf", d, -4210, "WHOLEFDS SEA 10234", row: 1),
                AbstainFixture.plaid("uber", day.adding(days: -3), -2217, "Uber", row: 2),
            ] + extra)
    }
    /// The statement holds a Safeway purchase of the same amount, and the Uber ride.
    public static var statement: ImportedStatement {
        ImportedStatement(
            importerID: "csv", accounts: [facts],
            records: [
                AbstainFixture.bank(day.adding(days: -3), -2217, "UBER *TRIP HELP.UBER.COM CA", balance: 97783, line: 2),
                AbstainFixture.bank(day, -4210, "SAFEWAY #1234 SEATTLE WA", balance: 93573, line: 3),
            ])
    }

    /// The engine's plan for the statement against the ledger holding `feed` (in memory: the
    /// store is not the subject), and the ids of the feed's transactions by external id.
    public static func plan(_ feed: ImportedStatement) throws -> (ImportPlan, [String: Int64]) {
        let (plan, view) = try InMemoryLedgerView.plan(statement, fileName: "stmt.csv", after: [feed])
        return (plan, Dictionary(uniqueKeysWithValues: zip(feed.records.map { $0.externalID! }, view.transactions.map(\.id))))
    }
}

/// A bank that prints the legal entity where the feed names the brand: texts that share
/// nothing, but same-day, unique-amount pairs show they name the same merchant.
public enum LearnedAliasFixture {
    public static let facts = AccountFacts(key: "cmb", suggestedName: "CMB 8705", currencies: ["CNY"])
    public static let day = LocalDate(year: 2026, month: 6, day: 20)!
    public static func cny(_ m: Int64) -> Money { Money(minorUnits: m, currency: "CNY") }
    public static func bank(_ offset: Int, _ amount: Int64, row: Int) -> IncomingRecord {
        IncomingRecord(
            accountKey: "cmb", sourceKind: .cmbPDF, date: day.adding(days: offset), amount: cny(amount), description: "快捷支付",
            counterparty: "拉扎斯网络科技（上海）有限公司", locator: Locator(page: 1, row: row))
    }
    public static func feed(_ id: String, _ offset: Int, _ amount: Int64, row: Int) -> IncomingRecord {
        IncomingRecord(
            accountKey: "cmb", sourceKind: .plaid, date: day.adding(days: offset), amount: cny(amount), description: "饿了么",
            counterparty: "饿了么", externalID: id, locator: Locator(page: 1, row: row))
    }

    /// Two same-day pairs with amounts found nowhere else carry themselves and teach the alias;
    /// the third pair, two days apart, is then linked on that evidence (and says so).
    public static var statement: ImportedStatement {
        ImportedStatement(
            importerID: "cmb-pdf", accounts: [facts],
            records: [
                bank(-10, -3012, row: 1), bank(-5, -4590, row: 2), bank(0, -2733, row: 3),
            ])
    }
    public static var plaid: ImportedStatement {
        ImportedStatement(
            importerID: "plaid", accounts: [facts],
            records: [
                feed("e1", -10, -3012, row: 1), feed("e2", -5, -4590, row: 2), feed("e3", -2, -2733, row: 3),
            ])
    }
    /// One feed record and its bank row, two days apart, with nothing to learn from.
    public static var loneFeed: ImportedStatement {
        ImportedStatement(importerID: "plaid", accounts: [facts], records: [feed("e3", -2, -2733, row: 1)])
    }
    public static var loneRow: ImportedStatement {
        ImportedStatement(importerID: "cmb-pdf", accounts: [facts], records: [bank(0, -2733, row: 1)])
    }
}

/// One line for a decision, for the messages of failed expectations.
public func describe(_ d: RecordDecision) -> String {
    func rs(_ r: [MatchReason]) -> String { r.map(\.description).joined(separator: "; ") }
    switch d {
    case .alreadyPresent(let id): return "alreadyPresent(record \(id))"
    case .update(let id): return "update(record \(id))"
    case .new: return "new"
    case .link(let t, let s, let r, _): return String(format: "link(txn %lld, score %.2f: %@)", t, s, rs(r))
    case .supersede(let p, let t, let r): return "supersede(pending record \(p), txn \(t): \(rs(r)))"
    case .linkToIncoming(let i, let s, let r): return String(format: "linkToIncoming(entry %d, score %.2f: %@)", i, s, rs(r))
    case .supersedeIncoming(let i, let r): return "supersedeIncoming(entry \(i): \(rs(r)))"
    case .needsReview(let c):
        return "needsReview("
            + c.map { String(format: "txn %@ %.2f", $0.transactionID.map(String.init) ?? "entry \($0.incomingIndex ?? -1)", $0.score) }
            .joined(separator: ", ") + ")"
    }
}
