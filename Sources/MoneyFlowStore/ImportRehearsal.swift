import Foundation
import GRDB
import MoneyFlowCore

/// What an import would do, found by doing it: the real write (plan, apply, and the passes
/// after a write: ``WritePasses``) on a private in-memory copy of the store, rolled back. So a
/// dry run shows the transfers and merged fields the real import then writes, and still writes
/// nothing: the store (a SQLite file, or a PostgreSQL ledger and its working copy) is only read.
public struct ImportRehearsal: Sendable {
    public var plan: ImportPlan
    /// Transfers and pairs offered for review (`decidedBy == "review"`) with a leg the import
    /// touches, as the import would leave them, ordered like `transfers`.
    public var transfers: [LedgerTransfer]
    /// The transactions the import touches that more than one active record supports: the
    /// fields the merged view would show (which source's date, amount, merchant, category).
    public var merged: [LedgerTransaction]
    /// Ids of the transactions only the rehearsal created: they do not exist in the store, and
    /// the real import may number them otherwise. Show them as new, never as ids.
    public var newTransactionIDs: Set<Int64>
}

extension LedgerStore {
    /// Plans with `makePlan` and applies the plan as ``importStatement(dryRun:importedAt:makePlan:)``
    /// would, on an in-memory copy of the store that is then dropped.
    public func rehearseImport(
        importedAt: Date = Date(), makePlan: (any LedgerView) throws -> ImportPlan
    ) throws -> ImportRehearsal {
        let scratch = try DatabaseQueue()
        try read { db in try scratch.writeWithoutTransaction { copy in try db.backup(to: copy) } }
        return try inStoreWords {
            try scratch.inDatabase { db in
                var result: ImportRehearsal?
                try db.inTransaction {
                    let lastID = try Int64.fetchOne(db, sql: "SELECT coalesce(max(id), 0) FROM txn") ?? 0
                    try WritePasses.begin(db)
                    let plan = try makePlan(StoreLedgerView(db: db))
                    var applier = PlanApplier(db: db, plan: plan, importedAt: importedAt)
                    _ = try applier.apply()
                    var touched = Set<Int64>()
                    try WritePasses.finish(db) { touched = try TransferPass.touched(db) }
                    result = try Self.outcome(db, plan: plan, touched: touched, lastID: lastID)
                    return .rollback
                }
                return result!
            }
        }
    }

    /// The transfers and merged transactions of `touched`, as the rehearsal left them.
    static func outcome(_ db: Database, plan: ImportPlan, touched: Set<Int64>, lastID: Int64) throws -> ImportRehearsal {
        let pairs = try TransferQueries.pairs(db).filter { touched.contains($0.out) || touched.contains($0.into) }
        var txs = [Int64: LedgerTransaction]()
        let wanted = touched.union(pairs.flatMap { [$0.out, $0.into] }).sorted()
        for start in stride(from: 0, to: wanted.count, by: 500) {
            let chunk = Array(wanted[start..<min(start + 500, wanted.count)])
            for t in try Queries.transactions(db, account: nil, from: nil, through: nil, includeAll: true, ids: chunk) { txs[t.id] = t }
        }
        let transfers = pairs.compactMap { p -> LedgerTransfer? in
            guard let o = txs[p.out], let i = txs[p.into] else { return nil }
            return LedgerTransfer(out: o, into: i, decidedBy: p.decidedBy, score: p.score, reasons: p.reasons)
        }.sorted { ($0.out.date, $0.out.id, $0.into.id) < ($1.out.date, $1.out.id, $1.into.id) }
        let merged = touched.sorted().compactMap { txs[$0] }.filter { t in
            t.status == "active" && t.sources.filter { $0.state == "active" }.count > 1
        }
        return ImportRehearsal(
            plan: plan, transfers: transfers, merged: merged, newTransactionIDs: Set(wanted.filter { $0 > lastID }))
    }
}
