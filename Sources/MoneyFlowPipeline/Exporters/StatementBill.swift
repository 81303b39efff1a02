import MoneyFlowCore

/// One bill's balance facts, as the plain-text exports check them (see
/// ``ExportJournal/billBalances(_:entries:accountNames:)``): what the account owed before the
/// bill (上期账单金额) and after it (本期还款总额), on its statement date, and the import batches
/// that stored it (so each exported row is known to be this bill's or another's).
///
/// Amounts are as the bill prints them: positive = owed. A card account's ledger balance is the
/// negative of that (spending is money out of it).
public struct StatementBill: Sendable, Hashable {
    /// The store account the bill's rows landed in (by name, as batches list their facts).
    public var account: String
    /// `YYYY-MM`: one bill per account and month.
    public var month: String
    public var statementDate: LocalDate
    public var previousBalance: Money
    public var newBalance: Money
    /// Every still-imported batch that stored this bill (the PDF, its e-statement, a re-sent copy).
    public var batchIDs: Set<Int64>
    /// What the bill's own check gives for 本期还款总额 (上期账单金额 − 上期还款金额 + 本期账单金额 −
    /// 本期调整金额 + 循环利息) when it differs from the printed figure: the bill contradicts itself
    /// (the import warned), so its balance is not one to assert. Nil when the check holds or the
    /// bill prints no check terms.
    public var checkGives: Money? = nil

    public init(
        account: String, month: String, statementDate: LocalDate, previousBalance: Money, newBalance: Money, batchIDs: Set<Int64>
    ) {
        self.account = account; self.month = month; self.statementDate = statementDate
        self.previousBalance = previousBalance; self.newBalance = newBalance; self.batchIDs = batchIDs
    }

    /// The bills of the batches still imported (an undone batch's facts go with it), one per
    /// account and statement month, oldest first. A bill needs its statement date, 上期账单金额
    /// and 本期还款总额; `currency` gives the currency of an account's facts (nil: not exported).
    public static func bills(from batches: [LedgerBatch], currency: (String) -> String?) -> [StatementBill] {
        var byKey: [String: StatementBill] = [:]
        for batch in batches.sorted(by: { $0.id < $1.id }) where batch.undoneAt == nil {
            for (account, facts) in batch.facts ?? [:] {
                guard let c = currency(account), let dateText = facts["statementDate"],
                    let date = LocalDate(iso: dateText, .exact), let previous = money(facts["previousBalance"], c),
                    let new = money(facts["newBalance"], c)
                else { continue }
                let month = facts["statementMonth"] ?? String(date.iso.prefix(7))
                let key = account + "\u{0}" + month
                if byKey[key] == nil {
                    byKey[key] = StatementBill(
                        account: account, month: month, statementDate: date, previousBalance: previous, newBalance: new, batchIDs: [])
                    byKey[key]!.checkGives = checkGives(facts, previous: previous, new: new)
                }
                byKey[key]!.batchIDs.insert(batch.id)
            }
        }
        return byKey.values.sorted { ($0.account, $0.statementDate, $0.month) < ($1.account, $1.statementDate, $1.month) }
    }

    /// The bills of the accounts listed, each in its account's one currency.
    public static func bills(from batches: [LedgerBatch], accounts: [LedgerAccount]) -> [StatementBill] {
        let currencies = Dictionary(accounts.map { ($0.name, $0.currencies) }, uniquingKeysWith: { a, _ in a })
        return bills(from: batches) { name in currencies[name].flatMap { $0.count == 1 ? $0[0] : nil } }
    }

    /// The bill's own check (the importer's warning states the same sum), when it fails.
    static func checkGives(_ facts: [String: String], previous: Money, new: Money) -> Money? {
        guard let paid = money(facts["previousPayment"], new.currency), let charges = money(facts["newCharges"], new.currency) else {
            return nil
        }
        let adjustment = money(facts["adjustment"], new.currency)?.minorUnits ?? 0
        let interest = money(facts["interest"], new.currency)?.minorUnits ?? 0
        let terms = [previous.minorUnits, -paid.minorUnits, charges.minorUnits, -adjustment, interest]
        var sum: Int64 = 0
        for t in terms {
            let (s, overflow) = sum.addingReportingOverflow(t)
            guard !overflow else { return nil }
            sum = s
        }
        return sum == new.minorUnits ? nil : Money(minorUnits: sum, currency: new.currency)
    }

    static func money(_ text: String?, _ currency: String) -> Money? {
        guard let text else { return nil }
        return try? Money.parse(text, currency: currency)
    }
}
