import Foundation
import MoneyFlowCore
import MoneyFlowTestSupport

/// Deterministic, seeded synthetic data for the benchmarks: N real-world transactions of one
/// busy USD checking account, seen by two sources with realistic overlap:
///
/// - the bank's own statement (a Chase-style CSV export: posting date, description, amount,
///   running balance), posted 0-3 days after the purchase;
/// - a Plaid `/transactions/sync` feed (transaction ids, date, authorized date, name,
///   merchant name, location: the store number, city and state the bank's text prints too).
///   Its dates are as Plaid documents them for a posted transaction: `date` is the day it
///   posted (the bank's posting date, which Plaid reads from the bank), `authorized_date` the
///   day of the purchase. `--legacy-dates` gives the dates of sessions 1-12 instead, which
///   drew the bank's posting date 0-3 days after Plaid's `date` and the authorization 0-1 day
///   before it, independently: a Plaid posting date four days before the bank's posting.
///
/// About 3 % of the transactions are missing from each source (independently), 2 % are genuine
/// same-day twins (two identical coffees), and many amounts collide across merchants (common
/// price points, round amounts, subscriptions), so the matcher meets real ambiguity.
/// The same (n, seed) gives byte-identical data on every machine.
struct Dataset {
    struct Merchant {
        enum Kind { case cafe, subscription, retail, bill, income }
        var name: String            // "Velmora"
        var kind: Kind
        var stores: [(num: String, city: String, state: String)]
        var fixedPrice: Int64
    }
    struct Txn {
        var day: Int                // the purchase (day number); Plaid `date` with legacy dates
        var merchant: Int
        var store: Int
        var amount: Int64           // minor units, negative = money out
        var group: Int              // twin group: identical transactions share it
        var lag: Int                // posting lag: statement posting date - `day` (0...3)
        var authLag: Int            // legacy dates only: Plaid date - authorized date (0...1)
        var inStatement: Bool
        var inPlaid: Bool
    }

    static let accountName = "Bench Checking"
    static let plaidAccountID = "BxBenchCheckingAcct0000000000000000000"
    static let statementKey = "csv:bench/checking"
    static let perDay = 40

    /// Which dates the Plaid side carries (see the type's documentation).
    enum PlaidDates { case posted, legacy }

    let n: Int
    let seed: UInt64
    let plaidDates: PlaidDates
    var merchants: [Merchant] = []
    var txns: [Txn] = []
    /// Transaction index of each statement row / Plaid record, in file order.
    var statementTxn: [Int] = []
    var plaidTxn: [Int] = []
    /// Plaid record index of each transaction, or -1.
    var plaidIndexOfTxn: [Int] = []
    var startDay = 0

    init(n: Int, seed: UInt64, plaidDates: PlaidDates = .posted) {
        self.n = n; self.seed = seed; self.plaidDates = plaidDates
        var rng = SplitMix64(seed: seed)
        merchants = Self.makeMerchants(&rng)
        let days = max(1, n / Self.perDay)
        startDay = LocalDate(year: 2026, month: 1, day: 1)!.dayNumber - days - 7
        let cafePrices: [Int64] = [350, 425, 450, 500, 525, 575, 600, 650, 795, 899, 1000, 1250]
        txns.reserveCapacity(n)
        var k = 0
        while k < n {
            let day = startDay + (k * days) / n
            // Popular merchants are visited more often (skewed pick).
            let u = rng.unit()
            let m = min(merchants.count - 1, Int(Double(merchants.count) * u * u))
            let mer = merchants[m]
            let store = rng.below(mer.stores.count)
            var amount: Int64
            switch mer.kind {
            case .cafe: amount = -cafePrices[rng.below(cafePrices.count)]
            case .subscription: amount = -mer.fixedPrice
            case .retail:
                let v = exp(log(300.0) + rng.unit() * (log(25000.0) - log(300.0)))
                amount = -Int64(v)
                if rng.chance(0.3) { amount = (amount / 100) * 100 - 100 }
            case .bill: amount = -Int64(5000 + rng.below(25000))
            case .income: amount = Int64(50000 + rng.below(3500)) * 100
            }
            let twin = k + 1 < n && rng.chance(0.02)
            for _ in 0..<(twin ? 2 : 1) {
                let r = rng.unit()
                let lag = r < 0.40 ? 0 : r < 0.75 ? 1 : r < 0.90 ? 2 : 3
                txns.append(Txn(day: day, merchant: m, store: store, amount: amount, group: k, lag: lag,
                                authLag: rng.chance(0.5) ? 1 : 0,
                                inStatement: !rng.chance(0.03), inPlaid: !rng.chance(0.03)))
            }
            k += twin ? 2 : 1
        }
        // Files are in date order (statement: posting date; Plaid: date); ties keep creation order.
        statementTxn = txns.indices.filter { txns[$0].inStatement }
        statementTxn.sort { (txns[$0].day + txns[$0].lag, $0) < (txns[$1].day + txns[$1].lag, $1) }
        plaidTxn = txns.indices.filter { txns[$0].inPlaid }
        if plaidDates == .posted {
            // Plaid's `date` is the posting date here, so its order differs from the purchases'.
            let posted = txns.map { $0.day + $0.lag }
            plaidTxn.sort { (posted[$0], $0) < (posted[$1], $1) }
        }
        plaidIndexOfTxn = [Int](repeating: -1, count: txns.count)
        for (j, t) in plaidTxn.enumerated() { plaidIndexOfTxn[t] = j }
    }

    static func makeMerchants(_ rng: inout SplitMix64) -> [Merchant] {
        let syl = ["bra", "co", "vel", "mi", "tor", "sa", "ne", "lux", "ka", "ri", "don", "fe", "ly", "qua", "zen", "ta",
                   "mo", "ber", "ix", "ol", "pa", "gra", "vin", "so", "dal", "ru", "ke", "pi", "ster", "ma"]
        let cities: [(String, String)] = [("SEATTLE", "WA"), ("PORTLAND", "OR"), ("AUSTIN", "TX"), ("DENVER", "CO"), ("BOSTON", "MA"),
                                          ("CHICAGO", "IL"), ("ATLANTA", "GA"), ("PHOENIX", "AZ"), ("MIAMI", "FL"), ("OAKLAND", "CA"),
                                          ("TUCSON", "AZ"), ("RALEIGH", "NC"), ("BOISE", "ID"), ("OMAHA", "NE"), ("TAMPA", "FL"),
                                          ("MADISON", "WI"), ("RENO", "NV"), ("DAYTON", "OH"), ("FRESNO", "CA"), ("NEWARK", "NJ")]
        var names = Set<String>()
        var out: [Merchant] = []
        while out.count < 400 {
            var name = ""
            for _ in 0..<(2 + rng.below(2)) { name += syl[rng.below(syl.count)] }
            name = name.prefix(1).uppercased() + name.dropFirst()
            guard names.insert(name).inserted else { continue }
            let kind: Merchant.Kind
            switch out.count % 20 {
            case 0...4: kind = .cafe
            case 5, 6: kind = .subscription
            case 18: kind = .bill
            case 19: kind = .income
            default: kind = .retail
            }
            var stores: [(String, String, String)] = []
            for _ in 0..<(1 + rng.below(3)) {
                let c = cities[rng.below(cities.count)]
                stores.append((String(format: "%04d", rng.below(10000)), c.0, c.1))
            }
            let subs: [Int64] = [999, 1499, 1549, 699, 1199, 2000, 499, 1099]
            out.append(Merchant(name: name, kind: kind, stores: stores, fixedPrice: subs[rng.below(subs.count)]))
        }
        return out
    }

    // MARK: Dates

    /// The bank's posting date of a transaction (day number).
    func postingDay(_ t: Txn) -> Int { t.day + t.lag }
    /// Plaid's `date`: the posting date (legacy: the drawn day).
    func plaidDay(_ t: Txn) -> Int { plaidDates == .posted ? t.day + t.lag : t.day }
    /// Plaid's `authorized_date`: the purchase (legacy: 0-1 day before Plaid's date).
    func authorizedDay(_ t: Txn) -> Int { plaidDates == .posted ? t.day : t.day - t.authLag }

    // MARK: Texts

    func statementDescription(_ t: Txn) -> String {
        let m = merchants[t.merchant], s = m.stores[t.store], up = m.name.uppercased()
        switch m.kind {
        case .cafe, .retail: return "POS PURCHASE \(up) #\(s.num) \(s.city) \(s.state)"
        case .subscription: return "RECURRING CARD PMT \(up) MEMBERSHIP \(s.state)"
        case .bill: return "ONLINE PAYMENT \(up) BILL PAY \(s.num)"
        case .income: return "DIRECT DEP \(up) PAYROLL PPD ID: 9\(s.num)31"
        }
    }

    func plaidName(_ t: Txn) -> String {
        let m = merchants[t.merchant], s = m.stores[t.store], up = m.name.uppercased()
        switch m.kind {
        case .cafe, .retail: return "\(up) #\(s.num) \(s.city)"
        case .subscription: return "\(m.name) Membership"
        case .bill: return "\(up) BILL PAY"
        case .income: return "\(up) PAYROLL"
        }
    }

    /// What Plaid's `location` says of a transaction, as ``writePlaidGet`` writes it: the store
    /// number, city and state of an in-store purchase, the state of any other charge (Plaid
    /// reads them from the card descriptor, which the bank's text prints too:
    /// `… #0393 MIAMI FL`, `… MEMBERSHIP GA`).
    func plaidPlace(_ t: Txn) -> PaymentPlace {
        let m = merchants[t.merchant], s = m.stores[t.store]
        let inStore = m.kind == .cafe || m.kind == .retail
        return PaymentPlace(storeNumber: inStore ? s.num : nil, city: inStore ? s.city : nil, region: s.state)
    }

    /// ``plaidPlace(_:)`` as Plaid's `location` object.
    func plaidLocationJSON(_ t: Txn) -> String {
        let p = plaidPlace(t)
        func q(_ s: String?) -> String { s.map { "\"\($0)\"" } ?? "null" }
        return "{\"address\":null,\"city\":\(q(p.city)),\"country\":\"US\",\"lat\":null,\"lon\":null,\"postal_code\":null,\"region\":\(q(p.region)),\"store_number\":\(q(p.storeNumber))}"
    }

    /// Plaid-style 37-character transaction id, derived from the seed and the transaction.
    func plaidID(_ t: Int) -> String {
        let b62 = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
        var g = SplitMix64(seed: seed &* 0x9E37_79B9 &+ UInt64(t))
        return String((0..<37).map { _ in b62[g.below(62)] })
    }

    static func decimal(_ minor: Int64) -> String { Money.format(minorUnits: minor, exponent: 2) }
    static func usDate(_ d: LocalDate) -> String { String(format: "%02d/%02d/%04d", d.month, d.day, d.year) }

    // MARK: In-memory statements (what the importers would produce from the files)

    var statementAccount: AccountFacts {
        AccountFacts(key: Self.statementKey, suggestedName: "Chase Checking", institution: "Chase", type: "checking", currencies: ["USD"])
    }
    var plaidAccount: AccountFacts {
        AccountFacts(key: "plaid:" + Self.plaidAccountID, suggestedName: Self.accountName, institution: "Plaid", number: "0000",
                     type: "depository", subtype: "checking", provider: "plaid", providerAccountID: Self.plaidAccountID, currencies: ["USD"])
    }

    /// The bank statement side (`csv` kind, running balance, no ids).
    func statementStatement() -> ImportedStatement {
        var records: [IncomingRecord] = []
        records.reserveCapacity(statementTxn.count)
        var balance: Int64 = 25_000_00
        for (i, ti) in statementTxn.enumerated() {
            let t = txns[ti]
            balance += t.amount
            let date = LocalDate(dayNumber: t.day + t.lag)
            let desc = statementDescription(t)
            let amount = Self.decimal(t.amount), bal = Self.decimal(balance)
            let details = t.amount < 0 ? "DEBIT" : "CREDIT"
            let raw = "{\"Amount\":\"\(amount)\",\"Balance\":\"\(bal)\",\"Description\":\"\(desc)\",\"Details\":\"\(details)\",\"Posting Date\":\"\(Self.usDate(date))\",\"Type\":\"\(t.amount < 0 ? "DEBIT_CARD" : "ACH_CREDIT")\"}"
            records.append(IncomingRecord(accountKey: Self.statementKey, sourceKind: .csv, date: date,
                                          amount: Money(minorUnits: t.amount, currency: "USD"), description: desc,
                                          balance: Money(minorUnits: balance, currency: "USD"),
                                          locator: Locator(line: i + 2, row: i + 1), raw: raw))
        }
        return ImportedStatement(importerID: "csv", accounts: [statementAccount], records: records)
    }

    /// The Plaid side (`plaid` kind, transaction ids, authorized dates, merchant names).
    func plaidStatement() -> ImportedStatement {
        var records: [IncomingRecord] = []
        records.reserveCapacity(plaidTxn.count)
        for (j, ti) in plaidTxn.enumerated() {
            let t = txns[ti]
            let date = LocalDate(dayNumber: plaidDay(t)), auth = LocalDate(dayNumber: authorizedDay(t))
            let id = plaidID(ti), name = plaidName(t), merchant = merchants[t.merchant].name
            let raw = "{\"account_id\":\"\(Self.plaidAccountID)\",\"amount\":\(Self.decimal(-t.amount)),\"authorized_date\":\"\(auth.iso)\",\"date\":\"\(date.iso)\",\"iso_currency_code\":\"USD\",\"location\":\(plaidLocationJSON(t)),\"merchant_name\":\"\(merchant)\",\"name\":\"\(name)\",\"payment_channel\":\"in store\",\"pending\":false,\"pending_transaction_id\":null,\"transaction_id\":\"\(id)\"}"
            records.append(IncomingRecord(accountKey: "plaid:" + Self.plaidAccountID, sourceKind: .plaid, date: date,
                                          amount: Money(minorUnits: t.amount, currency: "USD"), description: name,
                                          counterparty: merchant, pending: false, externalID: id, authorizedDate: auth,
                                          locator: Locator(row: j + 1), raw: raw, place: plaidPlace(t)))
        }
        return ImportedStatement(importerID: "plaid", accounts: [plaidAccount], records: records)
    }

    // MARK: Ground truth

    struct Score {
        var correct = 0, wrong = 0, missed = 0, newCorrect = 0, review = 0, other = 0
        /// Counted in `correct`: linked to a Plaid record that is observably identical to the
        /// true partner (same Plaid date, amount and name), i.e. a swap nobody can tell apart.
        var swapped = 0
        /// Counted in `wrong`: linked to the same merchant, store and amount on another day (a
        /// swap between repeat purchases that only the dates tell apart).
        var wrongSamePurchaseOtherDay = 0
        /// Statement rows whose real transaction is also in the Plaid feed.
        var linkable = 0
    }

    /// Scores statement-row decisions: `plaidIndex(row)` is the Plaid record index a row was
    /// linked to (nil = not linked), `review(row)` true when it went to review. A link to an
    /// identical twin of the true partner, or to a Plaid record identical to it, counts as correct.
    func score(rows: Int, linkedPlaid: (Int) -> Int?, isNew: (Int) -> Bool, isReview: (Int) -> Bool) -> Score {
        var s = Score()
        for i in 0..<rows {
            let t = statementTxn[i]
            let partner = plaidIndexOfTxn[t]
            if partner >= 0 { s.linkable += 1 }
            if let j = linkedPlaid(i) {
                let l = txns[plaidTxn[j]], x = txns[t]
                if l.group == x.group { s.correct += 1 }
                else if plaidDay(l) == plaidDay(x) && l.amount == x.amount && plaidName(l) == plaidName(x) { s.correct += 1; s.swapped += 1 }
                else {
                    s.wrong += 1
                    if l.amount == x.amount && l.merchant == x.merchant && l.store == x.store { s.wrongSamePurchaseOtherDay += 1 }
                }
            } else if isReview(i) {
                s.review += 1
            } else if isNew(i) {
                if partner >= 0 { s.missed += 1 } else { s.newCorrect += 1 }
            } else { s.other += 1 }
        }
        return s
    }

    /// What the Plaid side shows of a transaction (date, amount, name): equal identities cannot be told apart.
    func identity(_ t: Txn) -> String { "\(LocalDate(dayNumber: plaidDay(t)).iso)|\(t.amount)|\(plaidName(t))" }

    // MARK: Files (for the importers, the peers, and anyone who wants to look)

    /// Writes `statement.csv` (Chase checking layout), `plaid/pageNNNN.json` (sync pages of 500
    /// `added`), `truth.tsv`, and the beancount conversions of both sides.
    func writeFiles(to dir: String, plaidPages: Bool) throws {
        let fm = FileManager.default
        try fm.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let write = BufferedFileWriter.write
        // Statement CSV.
        try write(dir + "/statement.csv") { w in
            w.buf += "Details,Posting Date,Description,Amount,Type,Balance,Check or Slip #\r\n"
            var balance: Int64 = 25_000_00
            for ti in statementTxn {
                let t = txns[ti]
                balance += t.amount
                let date = LocalDate(dayNumber: t.day + t.lag)
                w.buf += "\(t.amount < 0 ? "DEBIT" : "CREDIT"),\(Self.usDate(date)),\"\(statementDescription(t))\",\(Self.decimal(t.amount)),\(t.amount < 0 ? "DEBIT_CARD" : "ACH_CREDIT"),\(Self.decimal(balance)),,\r\n"
                try w.maybeFlush()
            }
        }
        // Ground truth: one line per statement row.
        try write(dir + "/truth.tsv") { w in
            w.buf += "row\tdate\tamount\tgroup\tplaid_index\tplaid_transaction_id\tidentity\n"
            for (i, ti) in statementTxn.enumerated() {
                let t = txns[ti], j = plaidIndexOfTxn[ti]
                w.buf += "\(i)\t\(LocalDate(dayNumber: t.day + t.lag).iso)\t\(Self.decimal(t.amount))\t\(t.group)\t\(j)\t\(j >= 0 ? plaidID(ti) : "")\t\(identity(t))\n"
                try w.maybeFlush()
            }
        }
        try write(dir + "/plaid_groups.tsv") { w in
            w.buf += "plaid_index\ttransaction_id\tgroup\tidentity\n"
            for (j, ti) in plaidTxn.enumerated() {
                w.buf += "\(j)\t\(plaidID(ti))\t\(txns[ti].group)\t\(identity(txns[ti]))\n"
                try w.maybeFlush()
            }
        }
        // Beancount conversions (single bank posting per entry, as beangulp importers emit).
        try write(dir + "/statement.beancount") { w in
            w.buf += "option \"operating_currency\" \"USD\"\n2000-01-01 open Assets:Bank:Checking\n\n"
            var balance: Int64 = 25_000_00
            for (i, ti) in statementTxn.enumerated() {
                let t = txns[ti]
                balance += t.amount
                w.buf += "\(LocalDate(dayNumber: t.day + t.lag).iso) * \"\(statementDescription(t))\"\n  row: \(i)\n  Assets:Bank:Checking  \(Self.decimal(t.amount)) USD\n\n"
                try w.maybeFlush()
            }
        }
        try write(dir + "/plaid.beancount") { w in
            w.buf += "option \"operating_currency\" \"USD\"\n2000-01-01 open Assets:Bank:Checking\n\n"
            for (j, ti) in plaidTxn.enumerated() {
                let t = txns[ti]
                w.buf += "\(LocalDate(dayNumber: plaidDay(t)).iso) * \"\(merchants[t.merchant].name)\" \"\(plaidName(t))\"\n  plaid_index: \(j)\n  Assets:Bank:Checking  \(Self.decimal(t.amount)) USD\n\n"
                try w.maybeFlush()
            }
        }
        guard plaidPages else { return }
        // Plaid /transactions/sync pages, 500 `added` each, cursors chained.
        let pdir = dir + "/plaid"
        try fm.createDirectory(atPath: pdir, withIntermediateDirectories: true)
        let perPage = 500
        let pages = max(1, (plaidTxn.count + perPage - 1) / perPage)
        let account = """
        {"account_id":"\(Self.plaidAccountID)","balances":{"available":null,"current":null,"iso_currency_code":"USD","limit":null,"unofficial_currency_code":null},"mask":"0000","name":"\(Self.accountName)","official_name":"Bench Checking","subtype":"checking","type":"depository"}
        """
        for p in 0..<pages {
            try write(String(format: "%@/page%05d.json", pdir, p + 1)) { w in
                w.buf += "{\"accounts\":[\(account)],\"added\":["
                let lo = p * perPage, hi = min(plaidTxn.count, lo + perPage)
                for j in lo..<hi {
                    let ti = plaidTxn[j], t = txns[ti]
                    if j > lo { w.buf += "," }
                    let date = LocalDate(dayNumber: plaidDay(t)).iso, auth = LocalDate(dayNumber: authorizedDay(t)).iso
                    w.buf += "{\"account_id\":\"\(Self.plaidAccountID)\",\"account_owner\":null,\"amount\":\(Self.decimal(-t.amount)),\"iso_currency_code\":\"USD\",\"unofficial_currency_code\":null,\"check_number\":null,\"date\":\"\(date)\",\"datetime\":null,\"authorized_date\":\"\(auth)\",\"authorized_datetime\":null,\"location\":\(plaidLocationJSON(t)),\"name\":\"\(plaidName(t))\",\"merchant_name\":\"\(merchants[t.merchant].name)\",\"payment_channel\":\"in store\",\"pending\":false,\"pending_transaction_id\":null,\"transaction_id\":\"\(plaidID(ti))\",\"transaction_code\":null,\"transaction_type\":\"place\"}"
                }
                let next = "bench-\(n)-\(seed)-cursor-\(p + 1)"
                w.buf += "],\"modified\":[],\"removed\":[],\"next_cursor\":\"\(next)\",\"has_more\":\(p + 1 < pages),\"request_id\":\"bench\(p + 1)\",\"transactions_update_status\":\"HISTORICAL_UPDATE_COMPLETE\"}\n"
            }
        }
    }
}

/// Buffered file writer for the generated files: `w.buf += ...; try w.maybeFlush()`.
final class BufferedFileWriter {
    let h: FileHandle
    var buf = ""
    init(_ path: String) throws {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        h = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        buf.reserveCapacity(1 << 21)
    }
    func maybeFlush() throws { if buf.utf8.count > 1 << 20 { try flush() } }
    func flush() throws { try h.write(contentsOf: Data(buf.utf8)); buf.removeAll(keepingCapacity: true) }

    /// Writes the file at `path` with `body`, flushing and closing it afterwards.
    static func write(_ path: String, _ body: (BufferedFileWriter) throws -> Void) throws {
        let w = try BufferedFileWriter(path)
        try body(w)
        try w.flush()
        try w.h.close()
    }
}
