import Foundation
import MoneyFlowCore

/// Checks `LEDGERBAL` against the rows where the file itself gives a known starting balance.
///
/// OFX bank statements carry only a closing balance, so one statement cannot be checked alone.
/// When a file holds two statements of the same account (consecutive periods downloaded
/// together), the later balance must equal the earlier one plus the account's rows posted
/// after the earlier balance's day up to the later one's. A mismatch is a warning naming both
/// statements (never an error: the rows themselves are still what the bank sent). The check is
/// skipped when it cannot be exact: a row in another currency, or a row on the earlier balance's
/// own day that only the later statement holds (it may be before or after that balance).
enum OFXBalanceCheck {
    struct Statement {
        var accountKey: String
        var name: String
        var line: Int
        var ledger: (amount: Money, asOf: LocalDate)?
        var externalIDs: Set<String>
    }

    static func check(_ statements: [Statement], records: [IncomingRecord]) -> [ImportWarning] {
        var warnings: [ImportWarning] = []
        let byAccount = Dictionary(grouping: statements.filter { $0.ledger != nil }, by: \.accountKey)
        for key in byAccount.keys.sorted() {
            let list = byAccount[key]!.sorted { ($0.ledger!.asOf, $0.line) < ($1.ledger!.asOf, $1.line) }
            let rows = records.filter { $0.accountKey == key }
            for (a, b) in zip(list, list.dropFirst()) {
                let (start, from) = a.ledger!, (end, through) = b.ledger!
                guard start.currency == end.currency else { continue }
                let between = rows.filter { $0.date > from && $0.date <= through }
                let ambiguous = rows.contains { $0.date == from && !a.externalIDs.contains($0.externalID ?? "") }
                guard !ambiguous, between.allSatisfy({ $0.amount.currency == start.currency }) else { continue }
                let sum = between.reduce(Int64(0)) { $0 + $1.amount.minorUnits }
                if start.minorUnits + sum != end.minorUnits {
                    let expected = Money(minorUnits: start.minorUnits + sum, currency: start.currency)
                    warnings.append(
                        ImportWarning(
                            "statement \(b.name) (line \(b.line)): LEDGERBAL \(end.decimalString) as of \(through.iso) does not add up: the statement at line \(a.line) closed at \(start.decimalString) on \(from.iso) and the \(between.count) rows since sum to \(Money(minorUnits: sum, currency: start.currency).decimalString), giving \(expected.decimalString); some rows may be missing from the download",
                            at: Locator(line: b.line)))
                }
            }
        }
        return warnings
    }
}
