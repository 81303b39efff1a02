import Foundation
import MoneyFlowCore

/// Account names for plain-text accounting exports (beancount, hledger/ledger).
///
/// Names follow beancount's rules, which hledger also accepts: a root among `Assets`,
/// `Liabilities`, `Equity`, `Income`, `Expenses`, then `:`-separated components that start
/// with an upper-case letter or a digit and hold only ASCII letters, digits and dashes.
public enum AccountNaming {
    public static let roots = ["Assets", "Liabilities", "Equity", "Income", "Expenses"]
    public static let expenses = "Expenses:Uncategorized"
    public static let income = "Income:Uncategorized"
    public static let equity = "Equity:Uncategorized"
    public static let openingBalances = "Equity:Opening-Balances"

    /// Short institution names used in default account names.
    static let knownInstitutions: [String: String] = [
        "china merchants bank": "CMB", "招商银行": "CMB", "bank of america": "BofA", "american express": "Amex",
        "wells fargo": "WellsFargo", "capital one": "CapitalOne", "chase": "Chase", "jpmorgan chase": "Chase",
    ]

    /// One name component: ASCII words in CamelCase (`chase checking` -> `ChaseChecking`),
    /// dashes kept between words, or nil when nothing ASCII-alphanumeric is left.
    public static func component(_ text: String) -> String? {
        var out = ""
        var capitalizeNext = true
        for ch in text.unicodeScalars {
            if ch.isASCII, ch.properties.isAlphabetic || ("0"..."9").contains(ch) {
                let s = String(ch)
                out += capitalizeNext ? s.uppercased() : s
                capitalizeNext = false
            } else if ch == "-", !out.isEmpty, !out.hasSuffix("-") {
                out += "-"
                capitalizeNext = true
            } else {
                capitalizeNext = true
            }
        }
        while out.hasSuffix("-") { out.removeLast() }
        return out.isEmpty ? nil : out
    }

    /// True for credit cards, loans and other accounts that hold debt.
    public static func isLiability(_ a: LedgerAccount) -> Bool {
        let words = [a.type, a.subtype].compactMap { $0?.lowercased() }
        return words.contains { $0.contains("credit") || $0.contains("card") || $0.contains("loan") || $0.contains("mortgage") }
    }

    /// Short institution component: a known abbreviation, else the sanitized name, else the
    /// prefix of the account's import identity (`cmb:...` -> `CMB`), else `Bank`.
    public static func institutionComponent(_ a: LedgerAccount) -> String {
        if let inst = a.institution?.trimmingCharacters(in: .whitespaces), !inst.isEmpty {
            if let known = knownInstitutions[inst.lowercased()] { return known }
            if let c = component(inst) { return c }
        }
        if let key = a.keys.first, let colon = key.firstIndex(of: ":"),
            let c = component(String(key[..<colon]).uppercased()), c != "CSV", c != "PLAID"
        {
            return c
        }
        return "Bank"
    }

    /// `Assets:<Institution>:<last 4 digits or sanitized name>`, `Liabilities:` for debt.
    public static func defaultName(_ a: LedgerAccount) -> String {
        let root = isLiability(a) ? "Liabilities" : "Assets"
        let inst = institutionComponent(a)
        let digits = (a.number ?? "").filter { $0.isASCII && $0.isNumber }
        var leaf: String
        if digits.count >= 4 {
            leaf = String(digits.suffix(4))
        } else {
            // Drop the institution's words from the display name ("Chase Checking" -> "Checking").
            var name = a.name
            for prefix in [a.institution, inst].compactMap({ $0 }) where name.lowercased().hasPrefix(prefix.lowercased() + " ") {
                name = String(name.dropFirst(prefix.count + 1))
                break
            }
            leaf = component(name) ?? component(a.name) ?? (digits.isEmpty ? "Account\(a.id)" : digits)
        }
        if leaf == inst { leaf = "Account\(a.id)" }
        return "\(root):\(inst):\(leaf)"
    }

    /// Makes a user-set ledger name valid: each component sanitized, a valid root ensured.
    public static func sanitize(ledgerName: String) -> String {
        var parts = ledgerName.split(separator: ":", omittingEmptySubsequences: true).map { component(String($0)) ?? "X" }
        if parts.isEmpty { parts = ["Assets", "Unnamed"] }
        if let i = roots.firstIndex(where: { $0.lowercased() == parts[0].lowercased() }) {
            parts[0] = roots[i]
        } else {
            parts.insert("Assets", at: 0)
        }
        if parts.count == 1 { parts.append("Unnamed") }
        return parts.joined(separator: ":")
    }

    /// Export names by account id. User-set ledger names are kept (sanitized; several accounts
    /// may share one on purpose); default names that collide get `-<id>` appended.
    /// `notes` explains every change made to a user-set name.
    public static func names(for accounts: [LedgerAccount]) -> (names: [Int64: String], notes: [String]) {
        var names: [Int64: String] = [:]
        var notes: [String] = []
        var taken = Set<String>()
        for a in accounts {
            guard let user = a.ledgerName?.trimmingCharacters(in: .whitespaces), !user.isEmpty else { continue }
            let clean = sanitize(ledgerName: user)
            if clean != user { notes.append("ledger name '\(user)' of account '\(a.name)' written as \(clean)") }
            names[a.id] = clean
            taken.insert(clean)
        }
        for a in accounts.sorted(by: { $0.id < $1.id }) where names[a.id] == nil {
            var name = defaultName(a)
            if taken.contains(name) { name += "-\(a.id)" }
            names[a.id] = name
            taken.insert(name)
        }
        return (names, notes)
    }
}

// MARK: - Shared journal model

/// What both plain-text exporters write, computed once: account names and open dates,
/// transactions in chronological order within each day, opening balances and the statement
/// balances that can be asserted.
struct ExportJournal {
    struct Open { var account: String; var date: LocalDate; var currencies: [String] }
    struct Entry {
        var tx: LedgerTransaction
        var account: String
        var counterAccount: String
        /// Balance of `account` in the transaction's currency right after this transaction,
        /// set when it is the day's last transaction of that currency and carries a statement balance.
        var assertion: Money?
        /// The other leg of a transfer, posted in this same entry (see ``foldTransfers(_:)``).
        var partner: Partner? = nil
        /// False when a transfer folded into an earlier entry moves money of this account
        /// before this day: beancount (no posting dates) would see a balance the statement
        /// never showed, so only hledger (posting dates) asserts it.
        var assertionInBeancount = true
    }
    /// The later leg of a transfer, written as the second posting of the earlier leg's entry
    /// (its balance assertion stays where the leg was: a ``Balance`` item).
    struct Partner {
        var tx: LedgerTransaction
        var account: String
    }
    /// A statement balance asserted on its own, where a folded transfer leg carried it.
    struct Balance {
        var account: String
        var date: LocalDate
        var amount: Money
        var inBeancount: Bool
        /// What beancount asserts when it differs from hledger's (a bill's, see ``billBalances(_:entries:accountNames:)``).
        var beancountAmount: Money? = nil
    }
    struct Opening { var account: String; var date: LocalDate; var amount: Money; var narration = "Opening balance" }
    enum Item {
        case opening(Opening)
        case entry(Entry)
        case balance(Balance)
        var date: LocalDate {
            switch self {
            case .opening(let o): return o.date;
            case .entry(let e): return e.tx.date
            case .balance(let b): return b.date
            }
        }
    }

    var opens: [Open] = []
    /// Date-ordered; within a day, openings first, then each account's transactions in
    /// chronological (statement) order.
    var items: [Item] = []
    var currencies: [String] = []
    var notes: [String] = []

    /// `a + b`, or nil when it overflows Int64: stored amounts are only limited by Int64, so
    /// every sum an export makes of them is checked (no input can crash an export).
    static func plus(_ a: Int64, _ b: Int64) -> Int64? {
        let (r, o) = a.addingReportingOverflow(b)
        return o ? nil : r
    }

    static func minus(_ a: Int64, _ b: Int64) -> Int64? {
        let (r, o) = a.subtractingReportingOverflow(b)
        return o ? nil : r
    }

    /// Decimal text of `-m` (also for Int64.min, whose negation Int64 cannot hold).
    static func negatedText(_ m: Money) -> String {
        if m.minorUnits == .min { return String(m.decimalString.dropFirst()) }
        return Money(minorUnits: -m.minorUnits, currency: m.currency).decimalString
    }

    static func counterAccount(_ t: LedgerTransaction, name: (Int64, String) -> String) -> String {
        if let link = t.transfer { return name(link.otherAccountID, link.otherAccount) }
        if let category = t.assignedCategory?.account { return category }
        if t.amount.minorUnits == 0 { return AccountNaming.equity }
        if let c = t.category?.uppercased(), c.contains("TRANSFER") { return AccountNaming.equity }
        return t.amount.minorUnits < 0 ? AccountNaming.expenses : AccountNaming.income
    }

    /// The bank's own record behind a transaction (its statement balance comes from there).
    static func bankSource(_ t: LedgerTransaction) -> LedgerSource? {
        t.sources.filter { $0.kind.isBankOwn }.min { $0.id < $1.id }
    }

    static func fileKey(_ s: LedgerSource) -> String { s.kind.rawValue + "|" + s.file }

    static func position(_ s: LedgerSource) -> [Int] { [s.page ?? 0, s.row ?? 0, s.line ?? 0, Int(s.id)] }

    /// Per source file, whether its rows run newest first. Decided by the running balances of
    /// consecutive rows (balance(b) = balance(a) + amount(b) means oldest first) and, failing
    /// that, by comparing the first and last dates.
    static func newestFirstFiles(_ txs: [LedgerTransaction]) -> Set<String> {
        var byFile: [String: [(pos: [Int], tx: LedgerTransaction)]] = [:]
        for t in txs { if let s = bankSource(t) { byFile[fileKey(s), default: []].append((position(s), t)) } }
        var result = Set<String>()
        for (file, rows) in byFile {
            let sorted = rows.sorted { $0.pos.lexicographicallyPrecedes($1.pos) }.map(\.tx)
            var votes = 0
            var last: [String: LedgerTransaction] = [:]
            for t in sorted {
                let key = "\(t.accountID)|\(t.amount.currency)"
                if let a = last[key], let ab = a.balance?.minorUnits, let bb = t.balance?.minorUnits {
                    if plus(ab, t.amount.minorUnits) == bb { votes += 1 }
                    if plus(bb, a.amount.minorUnits) == ab { votes -= 1 }
                }
                last[key] = t
            }
            if votes < 0 || (votes == 0 && (sorted.first?.date ?? .init(dayNumber: 0)) > (sorted.last?.date ?? .init(dayNumber: 0))) {
                result.insert(file)
            }
        }
        return result
    }

    /// The rows of one day (one account and currency, all with balances) in an order where
    /// each balance is the previous one plus the amount, starting after `start` when possible;
    /// nil when no such order is found. Keeps the given order when it already chains.
    static func chain(_ rows: [LedgerTransaction], after start: Int64?) -> [LedgerTransaction]? {
        let n = rows.count
        if n <= 1 { return rows }
        func balance(_ i: Int) -> Int64 { rows[i].balance!.minorUnits }
        func before(_ i: Int) -> Int64? { minus(balance(i), rows[i].amount.minorUnits) }
        var starts = Array(0..<n)
        if let start { starts = starts.filter { before($0) == start } + starts.filter { before($0) != start } }
        for first in starts {
            var used = [Bool](repeating: false, count: n)
            used[first] = true
            var order = [first]
            while order.count < n, let next = (0..<n).first(where: { !used[$0] && before($0) == balance(order.last!) }) {
                used[next] = true
                order.append(next)
            }
            if order.count == n { return order.map { rows[$0] } }
        }
        return nil
    }

    static func build(accounts: [LedgerAccount], transactions: [LedgerTransaction], bills: [StatementBill] = []) -> ExportJournal {
        var journal = ExportJournal()
        let naming = AccountNaming.names(for: accounts)
        journal.notes = naming.notes
        func name(_ id: Int64, _ account: String) -> String {
            naming.names[id] ?? AccountNaming.sanitize(ledgerName: "Assets:" + account)
        }
        func name(_ t: LedgerTransaction) -> String { name(t.accountID, t.account) }
        let newestFirst = newestFirstFiles(transactions)

        // Group by export account and date, keeping the store's order of accounts and days.
        var groups: [String: [LedgerTransaction]] = [:]
        var groupOrder: [String] = []
        for t in transactions {
            let key = name(t) + "\u{0}" + t.date.iso
            if groups[key] == nil { groupOrder.append(key) }
            groups[key, default: []].append(t)
        }
        // Chronological order inside a day: rows of one statement file by file position
        // (reversed for newest-first files), files in order of appearance, rows without a bank
        // record (e.g. Plaid only) last since a statement balance cannot include them. Then,
        // per currency, rows whose running balances chain in another order (a statement that
        // prints two rows of a day swapped) are put in chain order.
        var entries: [Entry] = []
        var previousEnd: [String: Int64] = [:]
        for key in groupOrder.sorted() {
            let group = groups[key]!
            var fileOrder: [String] = []
            var byFile: [String: [LedgerTransaction]] = [:]
            var day: [LedgerTransaction] = []
            for t in group {
                guard let s = bankSource(t) else { continue }
                let f = fileKey(s)
                if byFile[f] == nil { fileOrder.append(f) }
                byFile[f, default: []].append(t)
            }
            for f in fileOrder {
                var rows = byFile[f]!.sorted { position(bankSource($0)!).lexicographicallyPrecedes(position(bankSource($1)!)) }
                if newestFirst.contains(f) { rows.reverse() }
                day += rows
            }
            day += group.filter { bankSource($0) == nil }
            var dayEntries = day.map { Entry(tx: $0, account: name($0), counterAccount: counterAccount($0, name: name), assertion: nil) }
            var currencies: [String] = []
            for t in day where !currencies.contains(t.amount.currency) { currencies.append(t.amount.currency) }
            for c in currencies {
                let slots = day.indices.filter { day[$0].amount.currency == c }
                let rows = slots.map { day[$0] }
                let balanceKey = name(rows[0]) + "|" + c
                guard let last = rows.last, let end = last.balance else { previousEnd[balanceKey] = nil; continue }
                if rows.allSatisfy({ $0.balance != nil }) {
                    guard let chained = chain(rows, after: previousEnd[balanceKey]) else {
                        journal.notes.append(
                            "\(name(last)) \(last.date.iso) \(c): the statement balances of this day do not chain; no balance assertion")
                        previousEnd[balanceKey] = nil
                        continue
                    }
                    for (slot, t) in zip(slots, chained) { dayEntries[slot].tx = t }
                    dayEntries[slots.last!].assertion = chained.last!.balance
                    previousEnd[balanceKey] = chained.last!.balance!.minorUnits
                } else {
                    dayEntries[slots.last!].assertion = end
                    previousEnd[balanceKey] = end.minorUnits
                }
            }
            entries += dayEntries
        }

        // An account with bills opens at its first bill's 上期账单金额 (ExportJournal+Bills); the
        // others at what the first asserted statement balance says was there before.
        let billed = billBalances(
            bills, entries: entries,
            accountNames: Dictionary(accounts.compactMap { a in naming.names[a.id].map { (a.name, $0) } }, uniquingKeysWith: { a, _ in a }))
        journal.notes += billed.notes
        var running: [String: Int64] = [:]
        var overflowed = Set<String>()
        var openingDone = Set(billed.openings.keys)
        var openings: [String: Opening] = [:]
        var openDates: [String: LocalDate] = [:]
        var openCurrencies: [String: Set<String>] = [:]
        for e in entries {
            let key = e.account + "|" + e.tx.amount.currency
            if let sum = plus(running[key, default: 0], e.tx.amount.minorUnits) { running[key] = sum } else { overflowed.insert(key) }
            // A transfer's entry is dated at its earlier leg (see foldTransfers): open by then.
            let entryDate = min(e.tx.date, e.tx.transfer?.otherDate ?? e.tx.date)
            openDates[e.account] = min(openDates[e.account] ?? entryDate, entryDate)
            openCurrencies[e.account, default: []].insert(e.tx.amount.currency)
            if !openingDone.contains(key), let b = e.assertion {
                openingDone.insert(key)
                guard !overflowed.contains(key), let amount = minus(b.minorUnits, running[key]!) else {
                    journal.notes.append("\(e.account) \(b.currency): amounts too large to compute an opening balance; none exported")
                    continue
                }
                if amount != 0 {
                    openings[key] = Opening(account: e.account, date: e.tx.date, amount: Money(minorUnits: amount, currency: b.currency))
                }
            }
        }
        for (key, o) in billed.openings { openings[key] = o }
        for key in openings.keys { openings[key]!.date = openDates[openings[key]!.account]! }

        // Real accounts (with the currencies of their store account too), then the others.
        var currencyAll = Set<String>()
        for a in accounts { if let n = naming.names[a.id], openCurrencies[n] != nil { openCurrencies[n]!.formUnion(a.currencies) } }
        for (n, date) in openDates.sorted(by: { ($0.value, $0.key) < ($1.value, $1.key) }) {
            journal.opens.append(Open(account: n, date: date, currencies: openCurrencies[n]!.sorted()))
            currencyAll.formUnion(openCurrencies[n]!)
        }
        var firstUse: [String: LocalDate] = [:]
        for e in entries {
            for p in counterPostings(e) { firstUse[p.account] = min(firstUse[p.account] ?? e.tx.date, e.tx.date) }
        }
        for o in Array(openings.values) + billed.adjustments {
            firstUse[AccountNaming.openingBalances] = min(firstUse[AccountNaming.openingBalances] ?? o.date, o.date)
        }
        for (n, date) in firstUse.sorted(by: { ($0.value, $0.key) < ($1.value, $1.key) }) where openDates[n] == nil {
            journal.opens.append(Open(account: n, date: date, currencies: []))
        }
        journal.currencies = currencyAll.sorted()

        // Date order overall (stable): openings first within their day.
        var items: [(date: LocalDate, rank: Int, seq: Int, item: Item)] = []
        for (i, o) in openings.values.sorted(by: { ($0.account, $0.amount.currency) < ($1.account, $1.amount.currency) }).enumerated() {
            items.append((o.date, 0, i, .opening(o)))
        }
        for (i, item) in foldTransfers(entries).enumerated() { items.append((item.date, 1, i, item)) }
        for (i, a) in billed.adjustments.enumerated() { items.append((a.date, 0, openings.count + i, .opening(a))) }
        // A bill's balance after every row of its day (hledger checks in date, then file, order).
        for (i, b) in billed.balances.enumerated() { items.append((b.date, 2, i, .balance(b))) }
        items.sort { ($0.date, $0.rank, $0.seq) < ($1.date, $1.rank, $1.seq) }
        journal.items = items.map(\.item)
        return journal
    }
}
