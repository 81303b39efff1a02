import Foundation
import GRDB
import MoneyFlowCore

extension LedgerStore {
    /// Merges account `from` into account `into` (see ``AccountMerge``): `makePlan` plans the
    /// records of `from`, delivered as an import into `into`, with the import engine. A dry run
    /// only plans; otherwise the merge is written as one batch that `undo` takes back.
    public func mergeAccount(
        _ from: String, into: String, dryRun: Bool, at date: Date = Date(),
        makePlan: (ImportedStatement, any LedgerView) throws -> ImportPlan
    ) throws -> MergeResult {
        func run(_ db: Database, write: Bool) throws -> MergeResult {
            let merge = try AccountMerge(db: db, into: into, from: from)
            let (statement, reopened) = try merge.incoming()
            let plan = try makePlan(statement, StoreLedgerView(db: db))
            guard plan.entries.count == reopened.count, plan.relinks.isEmpty, plan.removals.isEmpty else {
                throw StoreError("the merge plan does not cover the records of '\(from)' one for one")
            }
            var decisions = try merge.decide(plan, reopened: reopened)
            if write { decisions.result.batchID = try merge.apply(decisions, at: date) }
            return decisions.result
        }
        if dryRun { return try read { db in try run(db, write: false) } }
        return try write { db in try run(db, write: true) }
    }
}
