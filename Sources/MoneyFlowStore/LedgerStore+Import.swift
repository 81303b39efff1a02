import Foundation
import GRDB
import MoneyFlowCore

/// Importing: planning against the store and applying the plan in one write.
extension LedgerStore {
    /// Plans with `makePlan` against the current store and, unless `dryRun`, applies the plan
    /// in the same write transaction (so what is planned is exactly what is written).
    public func importStatement(
        dryRun: Bool, importedAt: Date = Date(),
        makePlan: (any LedgerView) throws -> ImportPlan
    ) throws -> AppliedImport? {
        if dryRun {
            _ = try read { db in try makePlan(StoreLedgerView(db: db)) }
            return nil
        }
        return try write { db -> AppliedImport in
            let plan = try makePlan(StoreLedgerView(db: db))
            var applier = PlanApplier(db: db, plan: plan, importedAt: importedAt)
            let id = try applier.apply()
            return AppliedImport(batchID: id, plan: plan)
        }
    }

    /// Plans against the store without writing.
    public func plan(_ makePlan: (any LedgerView) throws -> ImportPlan) throws -> ImportPlan {
        try read { db in try makePlan(StoreLedgerView(db: db)) }
    }
}
