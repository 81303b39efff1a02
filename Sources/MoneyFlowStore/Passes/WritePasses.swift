import GRDB

/// The passes every write runs after its own changes and before it commits, in this order.
/// Each computes an outcome value from the rows the write left, then writes only that value,
/// so a rehearsal (``LedgerStore/rehearseImport(importedAt:makePlan:)``) can show what they
/// decided before the write is rolled back. No write path calls them itself: ``begin(_:)``
/// starts noting what the write changes (temporary triggers), and ``finish(_:beforeTransfers:)``
/// settles exactly that, so a new way of changing records cannot forget them.
///
/// 1. ``MergedViewPass``: the fields a transaction shows (date, amount, merchant, category…),
///    chosen from the records that support it, for every transaction whose records changed.
/// 2. ``TransferPass``: the transfers and review pairs of every transaction the write touched
///    (noted by ``TransferTables/track(_:)``), including those the merged view just changed.
/// 3. ``CategoryPass``: the computed category of every transaction the write touched (or of
///    all, when the user's decisions or the category settings changed).
/// 4. ``SummaryPass``: the home page's sums (``SummaryTables``) of every month, batch and
///    category the write's changes reach, the categories just settled included.
enum WritePasses {
    /// Before the write's own changes: starts noting what it changes.
    static func begin(_ db: Database) throws {
        try MergedViewPass.track(db)
        try TransferTables.track(db)
        try CategoryPass.track(db)
        try SummaryPass.track(db)
    }

    /// After the write's own changes, before it commits. `beforeTransfers` runs between the
    /// passes (a rehearsal reads there which transactions the write touched).
    static func finish(_ db: Database, beforeTransfers: (() throws -> Void)? = nil) throws {
        try MergedViewPass.settle(db)
        try beforeTransfers?()
        try TransferPass.settle(db)
        try CategoryPass.settle(db)
        try SummaryPass.settle(db)
    }
}
