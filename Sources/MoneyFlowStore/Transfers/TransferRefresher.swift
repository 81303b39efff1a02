import Foundation
import GRDB
import MoneyFlowCore
import MoneyFlowReconcile

/// Brings `transfer` and `transfer_review` up to date with the transactions a write touched,
/// inside that write's transaction (see ``TransferTables``).
///
/// Which legs pair up depends only on the legs that can reach each other through candidate
/// pairs (a *group*: same amount, other account, within the window, with evidence), so only
/// the groups holding a touched transaction are decided again, by the engine
/// (``TransferMatcher``), from scratch. The store loads the legs dated near the touched ones,
/// widening the span until no group reaches its edge: the result is what deciding over the
/// whole ledger would give, at the cost of a few weeks of rows per import.
enum TransferRefresher {
    /// Decides the transfers of the transactions noted by ``TransferTables/track(_:)`` during
    /// this write (``TransferPass`` writes the outcome): the outcome, and the transactions whose
    /// stored pairs it replaces. The seeds stay in that temporary table and are used by SQL (a
    /// first import of a million rows touches a million transactions: none of them is copied
    /// out to find the few pairs).
    static func decide(_ db: Database) throws -> (outcome: TransferOutcome, affected: Set<Int64>) {
        let accounts = try AccountShape.load(db)
        let verdicts = try TransferVerdicts.load(db)
        let seedTable = "SELECT id FROM mf_touched_txn"
        // Whatever the touched transactions were paired with before this write is a seed too.
        for table in ["transfer", "transfer_review"] where try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM \(table))") == true {
            for (a, b) in [("out_txn", "in_txn"), ("in_txn", "out_txn")] {
                try db.execute(
                    sql: "INSERT INTO mf_touched_txn(id) SELECT \(b) FROM \(table) WHERE \(a) IN (\(seedTable)) ON CONFLICT DO NOTHING")
            }
        }
        let decidedLegs = Set(verdicts.flatMap { [$0.out, $0.into] })
        let decidedSeeds = try seeds(among: decidedLegs, db)
        for v in verdicts where decidedSeeds.contains(v.out) || decidedSeeds.contains(v.into) {
            try db.execute(sql: "INSERT INTO mf_touched_txn(id) VALUES (?), (?) ON CONFLICT DO NOTHING", arguments: [v.out, v.into])
        }
        // Legs pair only across two accounts, or by the user's word: with transactions in one
        // account at most and no verdict there is no group, so nothing is decided (the seeds'
        // old pairs are still replaced by nothing). A first import into an empty store is this
        // case; it would otherwise read every row it just wrote to find no pair.
        guard accounts.values.filter({ !$0.currencies.isEmpty }).count >= 2 || !verdicts.isEmpty else {
            return (TransferMatcher.decide([], verdicts: verdicts), [])
        }
        // The days the seeds that still exist are on.
        let row = try Row.fetchOne(
            db, sql: "SELECT min(t.date), max(t.date) FROM txn t WHERE t.status = 'active' AND t.id IN (\(seedTable))")
        let first = (row?[0] as String?).flatMap { LocalDate(iso: $0, .lenient) }?.dayNumber
        let last = (row?[1] as String?).flatMap { LocalDate(iso: $0, .lenient) }?.dayNumber
        let window = TransferEvidence.windowDays
        var legs = [Int64: TransferLeg]()
        var affected = Set<Int64>()
        if let first, let last {
            var span = (first - window, last + window)
            var loaded: (Int, Int)? = nil
            while true {
                let missing = loaded.map { [(span.0, $0.0 - 1), ($0.1 + 1, span.1)] } ?? [span]
                for (from, through) in missing where from <= through {
                    for leg in try loadLegs(db, accounts, from: from, through: through, including: decidedLegs) { legs[leg.id] = leg }
                }
                loaded = span
                let groups = TransferMatcher.groups(Array(legs.values), verdicts: verdicts)
                let seeded = try seeds(among: Set(groups.joined()), db)
                affected = Set(groups.filter { !$0.isDisjoint(with: seeded) }.joined())
                let days = affected.compactMap { legs[$0]?.date.dayNumber }
                guard let a = days.min(), let b = days.max(), a - window < span.0 || b + window > span.1 else { break }
                span = (min(span.0, a - window), max(span.1, b + window))
            }
        }
        return (TransferMatcher.decide(affected.compactMap { legs[$0] }, verdicts: verdicts), affected)
    }

    /// Which of `ids` are seeds of this write.
    static func seeds(among ids: Set<Int64>, _ db: Database) throws -> Set<Int64> {
        var out = Set<Int64>()
        try forEachChunk(of: ids) { list in
            out.formUnion(try Int64.fetchAll(db, sql: "SELECT id FROM mf_touched_txn WHERE id IN (\(list))"))
        }
        return out
    }

    /// Replaces the stored pairs that involve `ids` or a seed of this write with `outcome`'s,
    /// writing only differences.
    static func write(_ outcome: TransferOutcome, replacing ids: Set<Int64>, _ db: Database) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        func reasons(_ p: TransferPair) throws -> String { String(decoding: try encoder.encode(p.reasons), as: UTF8.self) }
        var oldLinked = [[Int64]: Row](), oldReview = [[Int64]: Row]()
        let lists = ["SELECT id FROM mf_touched_txn"] + chunks(of: ids)
        for list in lists {
            for r in try Row.fetchAll(db, sql: "SELECT * FROM transfer WHERE out_txn IN (\(list)) OR in_txn IN (\(list))") {
                oldLinked[[r["out_txn"], r["in_txn"]]] = r
            }
            for r in try Row.fetchAll(db, sql: "SELECT * FROM transfer_review WHERE out_txn IN (\(list)) OR in_txn IN (\(list))") {
                oldReview[[r["out_txn"], r["in_txn"]]] = r
            }
        }
        var newLinked = [[Int64]: (TransferPair, String)]()
        for p in outcome.linked { newLinked[[p.out, p.into]] = (p, outcome.userLinked.contains(p.out) ? "user" : "auto") }
        let newReview = Dictionary(outcome.review.map { ([$0.out, $0.into], $0) }, uniquingKeysWith: { a, _ in a })
        for (key, row) in oldLinked {
            if let (p, by) = newLinked[key], row["decided_by"] as String == by, row["score"] as Double == p.score,
                row["reasons"] as String == (try reasons(p))
            {
                newLinked[key] = nil
            } else {
                try db.execute(sql: "DELETE FROM transfer WHERE out_txn = ?", arguments: [key[0]])
            }
        }
        for (key, row) in oldReview {
            if let p = newReview[key], row["score"] as Double == p.score, row["reasons"] as String == (try reasons(p)) { continue }
            try db.execute(sql: "DELETE FROM transfer_review WHERE out_txn = ? AND in_txn = ?", arguments: [key[0], key[1]])
        }
        for (p, by) in newLinked.values.sorted(by: { $0.0.out < $1.0.out }) {
            try db.execute(
                sql: "INSERT INTO transfer(out_txn, in_txn, score, reasons, decided_by) VALUES (?, ?, ?, ?, ?)",
                arguments: [p.out, p.into, p.score, try reasons(p), by])
        }
        for p in outcome.review {
            try db.execute(
                sql: "INSERT OR REPLACE INTO transfer_review(out_txn, in_txn, score, reasons) VALUES (?, ?, ?, ?)",
                arguments: [p.out, p.into, p.score, try reasons(p)])
        }
    }

    /// Active transactions dated `from...through` (day numbers), in every account and currency
    /// (one index range per account and currency: `txn_by_account_date`), that could be a leg
    /// of a transfer. Read in two passes: amounts and dates first; the texts then only of the
    /// rows with an opposite amount in another account within the window, or that a decision
    /// of the user names (of every row when the span holds two currencies: cross-currency
    /// pairs are found by their wording). A big first import reads texts of the few rows
    /// that matter.
    static func loadLegs(
        _ db: Database, _ accounts: [Int64: AccountShape], from: Int, through: Int, including decided: Set<Int64>
    ) throws -> [TransferLeg] {
        struct Light { var id: Int64, account: Int64, day: Int, amount: Int64 }
        var byCurrency = [String: [Light]]()
        for (account, shape) in accounts.sorted(by: { $0.key < $1.key }) {
            for currency in shape.currencies {
                // Days as SQLite's julian day numbers: only differences are compared, and no
                // date text is made for the million rows of a big first import.
                let rows = try Row.fetchCursor(
                    db,
                    sql: """
                        SELECT id, CAST(julianday(date) AS INTEGER), amount_minor FROM txn
                        WHERE account_id = ? AND currency = ? AND date BETWEEN ? AND ? AND status = 'active'
                        """, arguments: [account, currency, LocalDate(dayNumber: from).iso, LocalDate(dayNumber: through).iso])
                while let r = try rows.next() {
                    guard let day = r[1] as Int? else { continue }
                    byCurrency[currency, default: []].append(Light(id: r[0], account: account, day: day, amount: r[2]))
                }
            }
        }
        // The legs of the user's decisions are read whatever their amounts.
        var wanted = Set(byCurrency.values.joined().map(\.id).filter(decided.contains))
        if byCurrency.count > 1 {
            for list in byCurrency.values { wanted.formUnion(list.map(\.id)) }
        } else {
            let window = TransferEvidence.windowDays
            for list in byCurrency.values {
                var byAmount = [UInt64: [Light]]()
                for l in list where l.amount != 0 { byAmount[l.amount.magnitude, default: []].append(l) }
                for var bucket in byAmount.values where bucket.count > 1 {
                    bucket.sort { $0.day < $1.day }
                    for (k, l) in bucket.enumerated() {
                        var j = k + 1
                        while j < bucket.count, bucket[j].day - l.day <= window {
                            let m = bucket[j]
                            if m.account != l.account && (m.amount < 0) != (l.amount < 0) { wanted.formUnion([l.id, m.id]) }
                            j += 1
                        }
                    }
                }
            }
        }
        var legs: [TransferLeg] = []
        try forEachChunk(of: wanted) { ids in legs += try loadLegs(db, accounts, where: "t.id IN (\(ids))", []) }
        return legs
    }

    static func loadLegs(
        _ db: Database, _ accounts: [Int64: AccountShape], where condition: String, _ arguments: [any DatabaseValueConvertible]
    ) throws -> [TransferLeg] {
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT t.id, t.account_id, t.date, t.amount_minor, t.currency,
                       coalesce(t.user_description, t.description) AS d, coalesce(t.user_counterparty, t.counterparty) AS c,
                       coalesce(t.user_note, t.note) AS n, t.category AS k,
                       (SELECT group_concat(r.source_kind || ':' || r.external_id, char(31)) FROM link l JOIN record r ON r.id = l.record_id
                        WHERE l.transaction_id = t.id AND r.state = 'active' AND r.external_id IS NOT NULL
                          AND r.source_kind IN \(SourceKindSQL.feeds)) AS f
                FROM txn t WHERE t.status = 'active' AND \(condition)
                """, arguments: StatementArguments(arguments))
        var legs: [TransferLeg] = []
        while let r = try rows.next() {
            let accountID: Int64 = r["account_id"]
            guard let date = LocalDate(iso: r["date"] as String, .lenient) else { continue }
            // The provider's category is evidence too (Plaid `TRANSFER_OUT`, `LOAN_PAYMENTS_CREDIT_CARD_PAYMENT`,
            // a bank export's `ACCT_XFER` / `LOAN_PMT`).
            let text = [r["d"] as String?, r["c"] as String?, r["n"] as String?, r["k"] as String?].compactMap { $0 }.joined(separator: " ")
            legs.append(
                TransferLeg(
                    id: r["id"], accountID: accountID, accountNumber: accounts[accountID]?.number,
                    accountIsCredit: accounts[accountID]?.isCredit ?? false, date: date,
                    amount: Money(minorUnits: r["amount_minor"], currency: r["currency"]), text: text,
                    pairedAccounts: accounts[accountID]?.paired ?? [],
                    feedIDs: Set(((r["f"] as String?) ?? "").split(separator: "\u{1F}").map(String.init))))
        }
        return legs
    }

    /// Calls `body` with the ids as SQL lists of at most 500 (under SQLite's and PostgreSQL's limits).
    static func forEachChunk(of ids: Set<Int64>, _ body: (String) throws -> Void) throws {
        for list in chunks(of: ids) { try body(list) }
    }

    static func chunks(of ids: Set<Int64>) -> [String] {
        let sorted = ids.sorted()
        return stride(from: 0, to: sorted.count, by: 500).map {
            sorted[$0..<min($0 + 500, sorted.count)].map(String.init).joined(separator: ",")
        }
    }
}

/// What the transfer evidence needs of an account: its number, whether it is a card, and
/// its currencies (to read its transactions by index).
struct AccountShape {
    var number: String?
    var isCredit: Bool
    var currencies: [String] = []
    /// Accounts the user paired with this one (`accounts pair`).
    var paired: Set<Int64> = []

    static func load(_ db: Database) throws -> [Int64: AccountShape] {
        var out = [Int64: AccountShape]()
        for r in try Row.fetchAll(db, sql: "SELECT id, number, type, subtype FROM account") {
            let kind = ((r["type"] as String?) ?? "") + " " + ((r["subtype"] as String?) ?? "")
            out[r["id"]] = AccountShape(number: r["number"], isCredit: kind.lowercased().contains("credit"))
        }
        if try db.tableExists("account_pair") {
            for r in try Row.fetchAll(
                db,
                sql: """
                    SELECT a.account_id AS a, b.account_id AS b FROM account_pair p
                    JOIN account_key a ON a.key = p.account_key JOIN account_key b ON b.key = p.other_account_key
                    """)
            {
                let (a, b): (Int64, Int64) = (r["a"], r["b"])
                out[a]?.paired.insert(b)
                out[b]?.paired.insert(a)
            }
        }
        // Each account's currencies, by seeks on txn_by_account_date (a skip scan: no pass over the rows).
        for id in out.keys {
            var last = ""
            while let c = try String.fetchOne(
                db, sql: "SELECT currency FROM txn WHERE account_id = ? AND currency > ? ORDER BY currency LIMIT 1", arguments: [id, last])
            {
                out[id]?.currencies.append(c)
                last = c
            }
        }
        return out
    }
}
