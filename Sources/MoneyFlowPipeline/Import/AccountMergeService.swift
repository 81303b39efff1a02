import Foundation
import MoneyFlowCore
import MoneyFlowReconcile
import MoneyFlowStore

extension ImportService {
    /// `moneyflow accounts merge INTO FROM`: the records of account `from` move to `into` and
    /// reconcile there with the same engine an import uses, as if `from`'s files had been
    /// imported with `--account INTO` in the first place (overlapping rows become links, the
    /// rest stay as transactions of `into`). `from` is gone afterwards; its import keys point
    /// at `into`. Undoable (`undo` of the returned batch); a dry run writes nothing.
    ///
    /// The engine plans only the merged records: earlier decisions of `into` are not reopened
    /// (`reopenEarlierDecisions` off), so nothing of `into` moves but what joins it.
    public func mergeAccount(_ from: String, into: String, dryRun: Bool, reconcile: ReconcileOptions = ReconcileOptions())
        throws -> MergeResult
    {
        var options = reconcile
        options.reopenEarlierDecisions = false
        options.accountOverride = nil
        let reconciler = Reconciler(options: options)
        return try store.mergeAccount(from, into: into, dryRun: dryRun) { statement, view in
            try reconciler.plan(statement, fileName: "merge", fileSHA256: "merge", view: view)
        }
    }
}
