/// Checks that a statement's printed running balances chain: each balance equals the previous
/// balance plus the row's amount, in the order the rows happened.
///
/// Why: a row whose amount was altered (or misread) still parses; only the balance the bank
/// printed next to it can tell. Every importer whose source prints balances (bank CSV with a
/// balance column, CMB PDF/CSV) runs the same check so the warnings read the same everywhere.
///
/// Rows are given in FILE order. Exports are oldest-first or newest-first; the direction is taken
/// from the dates when they move one way only, else from whichever direction chains better (ties
/// read oldest-first). Rows with several per day keep the file's own order within the day: the
/// file order is the only evidence of same-day order, so nothing here sorts.
public enum BalanceChain {
    /// The order a file lists its rows in.
    public enum Direction: String, Sendable, Hashable {
        case oldestFirst = "oldest-first"
        case newestFirst = "newest-first"
    }

    /// One row as printed. `balance` nil = the row prints no balance (a pending line): its amount
    /// is carried into the next printed balance.
    public struct Entry: Sendable, Hashable {
        public var amount: Money
        public var balance: Money?
        public var date: LocalDate?
        public var locator: Locator
        public init(amount: Money, balance: Money?, date: LocalDate?, locator: Locator) {
            self.amount = amount; self.balance = balance; self.date = date; self.locator = locator
        }
    }

    /// A printed balance that is not the previous balance plus the amounts since.
    public struct Break: Sendable, Hashable {
        /// Index of the row in the entries given.
        public var index: Int
        public var previous: Money
        /// Sum of the amounts from the previous balance to this one (this row's amount when every
        /// row prints a balance).
        public var amount: Money
        public var expected: Money
        public var printed: Money
        public var locator: Locator

        /// `balance chain break (USD): previous balance 10.00 + amount -2.00 = 8.00, printed balance 9.00`
        public var message: String {
            "balance chain break (\(printed.currency)): previous balance \(previous.decimalString) + amount \(amount.decimalString) = \(expected.decimalString), printed balance \(printed.decimalString)"
        }

        public var warning: ImportWarning { ImportWarning(message, at: locator) }
    }

    public struct Result: Sendable, Hashable {
        /// nil when fewer than two rows print a balance (nothing to chain).
        public var direction: Direction?
        public var breaks: [Break]
    }

    /// Checks the chain per currency. `direction` nil = detect (see the type's doc).
    public static func check(_ entries: [Entry], direction: Direction? = nil) -> Result {
        check(count: entries.count, direction: direction) { entries[$0] }
    }

    /// Same, with rows produced on demand (a 2 M-row import need not build a second array).
    public static func check(count: Int, direction: Direction? = nil, entry: (Int) -> Entry) -> Result {
        var withBalance = 0
        for i in 0..<count where entry(i).balance != nil { withBalance += 1; if withBalance >= 2 { break } }
        guard withBalance >= 2 else { return Result(direction: nil, breaks: []) }
        if let direction { return Result(direction: direction, breaks: breaks(count, direction, entry)) }
        if let byDates = directionFromDates(count, entry) { return Result(direction: byDates, breaks: breaks(count, byDates, entry)) }
        let forward = breaks(count, .oldestFirst, entry)
        let backward = breaks(count, .newestFirst, entry)
        return backward.count < forward.count
            ? Result(direction: .newestFirst, breaks: backward)
            : Result(direction: .oldestFirst, breaks: forward)
    }

    /// The direction the dates move in, when they move one way only (equal dates say nothing).
    static func directionFromDates(_ count: Int, _ entry: (Int) -> Entry) -> Direction? {
        var up = false, down = false
        var last: LocalDate?
        for i in 0..<count {
            guard let d = entry(i).date else { continue }
            if let l = last { if d > l { up = true } else if d < l { down = true } }
            last = d
        }
        switch (up, down) {
        case (true, false): return .oldestFirst
        case (false, true): return .newestFirst
        default: return nil
        }
    }

    static func breaks(_ count: Int, _ direction: Direction, _ entry: (Int) -> Entry) -> [Break] {
        // Per currency: the last printed balance and the amounts since. A file has a currency or
        // two, and neighbouring rows share theirs: a short list, the last slot used tried first
        // (two dictionary lookups a row were most of a bank file's check).
        var states: [(currency: String, last: Money?, pending: Int64)] = []
        var s = -1
        var out: [Break] = []
        for k in 0..<count {
            let i = direction == .oldestFirst ? k : count - 1 - k
            let e = entry(i)
            let currency = e.amount.currency
            if s < 0 || states[s].currency != currency {
                if let j = states.firstIndex(where: { $0.currency == currency }) {
                    s = j
                } else {
                    states.append((currency, nil, 0)); s = states.count - 1
                }
            }
            states[s].pending += e.amount.minorUnits
            guard let printed = e.balance else { continue }
            if let prev = states[s].last {
                let moved = states[s].pending
                let (expected, overflow) = prev.minorUnits.addingReportingOverflow(moved)
                if overflow || expected != printed.minorUnits {
                    out.append(
                        Break(
                            index: i, previous: prev, amount: Money(minorUnits: moved, currency: currency),
                            expected: Money(minorUnits: expected, currency: currency), printed: printed, locator: e.locator))
                }
            }
            states[s].last = printed
            states[s].pending = 0
        }
        return out.sorted { $0.index < $1.index }
    }
}
