import Foundation
import GRDB
import MoneyFlowCore

/// A transfer between two of the ledger's own accounts: the outflow and the inflow legs.
public struct LedgerTransfer: Sendable, Hashable {
    public var out: LedgerTransaction
    public var into: LedgerTransaction
    /// `auto`, `user`, or `review` for a pair offered for review.
    public var decidedBy: String
    public var score: Double
    public var reasons: [MatchReason]
}

extension LedgerStore {
    /// Transfers (linked pairs) and the pairs offered for review, ordered by the outflow's date.
    public func transfers(account: String? = nil) throws -> (linked: [LedgerTransfer], review: [LedgerTransfer]) {
        try read { db in
            let pairs = try TransferQueries.pairs(db)
            let ids = Set(pairs.flatMap { [$0.out, $0.into] })
            var txs = [Int64: LedgerTransaction]()
            let sorted = ids.sorted()
            for start in stride(from: 0, to: sorted.count, by: 500) {
                let chunk = Array(sorted[start..<min(start + 500, sorted.count)])
                for t in try Queries.transactions(db, account: nil, from: nil, through: nil, includeAll: true, ids: chunk) { txs[t.id] = t }
            }
            var linked: [LedgerTransfer] = [], review: [LedgerTransfer] = []
            for p in pairs {
                guard let o = txs[p.out], let i = txs[p.into] else { continue }
                if let account, o.account != account, i.account != account { continue }
                let t = LedgerTransfer(out: o, into: i, decidedBy: p.decidedBy, score: p.score, reasons: p.reasons)
                if p.decidedBy == "review" { review.append(t) } else { linked.append(t) }
            }
            let order: (LedgerTransfer, LedgerTransfer) -> Bool = {
                ($0.out.date, $0.out.id, $0.into.id) < ($1.out.date, $1.out.id, $1.into.id)
            }
            return (linked.sorted(by: order), review.sorted(by: order))
        }
    }

    /// The user's decision: transactions `a` and `b` (one money out, one money in, in two
    /// accounts) are one transfer. Remembered across undo and re-import, never overturned.
    public func linkTransfer(_ a: Int64, _ b: Int64, at date: Date = Date()) throws {
        try write { db in
            let legs = try TransferQueries.legs(db, [a, b])
            guard let x = legs[a] else { throw StoreError.notFound("no transaction \(a)") }
            guard let y = legs[b] else { throw StoreError.notFound("no transaction \(b)") }
            guard x.accountID != y.accountID else {
                throw StoreError(
                    "transactions \(a) and \(b) are both in account '\(x.account)': a transfer moves money between two accounts")
            }
            guard (x.amountMinor < 0) != (y.amountMinor < 0), x.amountMinor != 0, y.amountMinor != 0 else {
                throw StoreError(
                    "transactions \(a) and \(b) both move money \(x.amountMinor < 0 ? "out" : "in"): a transfer has one outflow and one inflow"
                )
            }
            let (out, into) = x.amountMinor < 0 ? (a, b) : (b, a)
            try TransferVerdicts.decide(db, out: out, into: into, together: true, at: date)
        }
    }

    /// The user's word that accounts `a` and `b` (names) move money between them (a card and
    /// the account that pays it, checking and savings): wording on one side of an equal-amount
    /// pair between them is then enough to link it. `remove` takes the word back. Either way
    /// their transfers are decided again.
    public func pairAccounts(_ a: String, _ b: String, remove: Bool = false, at date: Date = Date()) throws {
        try write { db in
            func account(_ name: String) throws -> (id: Int64, key: String) {
                guard let id = try Int64.fetchOne(db, sql: "SELECT id FROM account WHERE name = ?", arguments: [name]),
                    let key = try String.fetchOne(db, sql: "SELECT min(key) FROM account_key WHERE account_id = ?", arguments: [id])
                else { throw StoreError.notFound("no account named '\(name)'") }
                return (id, key)
            }
            let (x, y) = (try account(a), try account(b))
            guard x.id != y.id else { throw StoreError("'\(a)' cannot be paired with itself: a transfer moves money between two accounts") }
            try db.execute(
                sql:
                    "DELETE FROM account_pair WHERE (account_key = ? AND other_account_key = ?) OR (account_key = ? AND other_account_key = ?)",
                arguments: [x.key, y.key, y.key, x.key])
            if !remove {
                try db.execute(
                    sql: "INSERT INTO account_pair(account_key, other_account_key, paired_at) VALUES (?, ?, ?)",
                    arguments: [x.key, y.key, PlanApplier.timestamp(date)])
            }
            try db.execute(
                sql:
                    "INSERT INTO mf_touched_txn(id) SELECT id FROM txn WHERE account_id IN (?, ?) AND status = 'active' ON CONFLICT DO NOTHING",
                arguments: [x.id, y.id])
        }
    }

    /// The user's decision: transaction `id` and the other leg of its transfer are not one
    /// transfer (never paired again). Returns the other leg.
    @discardableResult
    public func unlinkTransfer(_ id: Int64, at date: Date = Date()) throws -> Int64 {
        try write { db in
            guard try Int64.fetchOne(db, sql: "SELECT id FROM txn WHERE id = ?", arguments: [id]) != nil else {
                throw StoreError.notFound("no transaction \(id)")
            }
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT out_txn, in_txn FROM transfer WHERE out_txn = ? OR in_txn = ?", arguments: [id, id])
            else {
                throw StoreError("transaction \(id) is not part of a transfer (see `moneyflow transfers`); nothing was changed")
            }
            let (out, into): (Int64, Int64) = (row["out_txn"], row["in_txn"])
            try TransferVerdicts.decide(db, out: out, into: into, together: false, at: date)
            return out == id ? into : out
        }
    }
}

/// Reads of the transfer tables shared by listings and outputs.
enum TransferQueries {
    struct Pair {
        var out: Int64, into: Int64, decidedBy: String, score: Double, reasons: [MatchReason]
    }

    static func pairs(_ db: Database) throws -> [Pair] {
        // A store older than v8-transfers opened read-only has no transfers yet.
        guard try db.tableExists("transfer") else { return [] }
        let decoder = JSONDecoder()
        func reasons(_ r: Row) -> [MatchReason] {
            (try? decoder.decode([MatchReason].self, from: Data((r["reasons"] as String).utf8))) ?? []
        }
        let linked = try Row.fetchAll(db, sql: "SELECT * FROM transfer ORDER BY out_txn").map {
            Pair(out: $0["out_txn"], into: $0["in_txn"], decidedBy: $0["decided_by"], score: $0["score"], reasons: reasons($0))
        }
        let review = try Row.fetchAll(db, sql: "SELECT * FROM transfer_review ORDER BY out_txn, in_txn").map {
            Pair(out: $0["out_txn"], into: $0["in_txn"], decidedBy: "review", score: $0["score"], reasons: reasons($0))
        }
        return linked + review
    }

    /// Every transaction's transfer and review candidates (few rows in any ledger: read whole
    /// before the transactions stream).
    static func links(_ db: Database) throws -> (linked: [Int64: TransferLink], review: [Int64: [TransferLink]]) {
        guard try db.tableExists("transfer"),
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM transfer) OR EXISTS (SELECT 1 FROM transfer_review)") == true
        else {
            return ([:], [:])
        }
        let pairs = try pairs(db)
        let legs = try legs(db, Set(pairs.flatMap { [$0.out, $0.into] }))
        var linked = [Int64: TransferLink](), review = [Int64: [TransferLink]]()
        for p in pairs {
            guard let o = legs[p.out], let i = legs[p.into] else { continue }
            let toIn = TransferLink(
                direction: "out", otherTransactionID: p.into, otherAccountID: i.accountID, otherAccount: i.account, otherDate: i.date,
                otherAmount: i.amount,
                decidedBy: p.decidedBy, score: p.score, reasons: p.reasons)
            let toOut = TransferLink(
                direction: "in", otherTransactionID: p.out, otherAccountID: o.accountID, otherAccount: o.account, otherDate: o.date,
                otherAmount: o.amount,
                decidedBy: p.decidedBy, score: p.score, reasons: p.reasons)
            if p.decidedBy == "review" {
                review[p.out, default: []].append(toIn); review[p.into, default: []].append(toOut)
            } else {
                linked[p.out] = toIn; linked[p.into] = toOut
            }
        }
        return (linked, review)
    }

    struct Leg {
        var accountID: Int64, account: String, date: LocalDate, amountMinor: Int64, amount: Money
    }

    static func legs(_ db: Database, _ ids: some Collection<Int64>) throws -> [Int64: Leg] {
        var out = [Int64: Leg]()
        try TransferRefresher.forEachChunk(of: Set(ids)) { list in
            for r in try Row.fetchAll(
                db,
                sql: """
                    SELECT t.id, t.account_id, a.name, t.date, t.amount_minor, t.currency FROM txn t JOIN account a ON a.id = t.account_id
                    WHERE t.id IN (\(list)) AND t.status = 'active'
                    """)
            {
                guard let date = LocalDate(iso: r["date"] as String, .lenient) else { continue }
                out[r["id"]] = Leg(
                    accountID: r["account_id"], account: r["name"], date: date, amountMinor: r["amount_minor"],
                    amount: Money(minorUnits: r["amount_minor"], currency: r["currency"]))
            }
        }
        return out
    }
}
