import GRDB

/// The passes every write runs after its own changes and before it commits, in this order.
/// Each computes an outcome value from the rows the write left, then writes only that value,
/// so a rehearsal (``LedgerStore/rehearseImport(importedAt:makePlan:)``) can show what they
/// decided before the write is rolled back.
///
/// 1. ``MergedViewPass``: the fields a transaction shows (date, amount, merchant, category…),
///    chosen from the records that support it. It runs where a write changes a transaction's
///    records (the plan's applier, undo, relinking), because later steps of the same write read
///    the merged fields; the pass is the one place that computes and stores them.
/// 2. ``TransferPass``: the transfers and review pairs of every transaction the write touched
///    (noted by ``TransferTables/track(_:)`` from the write's start).
enum WritePasses {
    /// Before the write's own changes: starts noting the transactions it touches.
    static func begin(_ db: Database) throws {
        try TransferTables.track(db)
    }

    /// After the write's own changes, before it commits.
    static func finish(_ db: Database) throws {
        try TransferPass.settle(db)
    }
}
