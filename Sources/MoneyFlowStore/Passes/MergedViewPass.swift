import GRDB

/// The merged view of a transaction, as a pass of a write (see ``WritePasses``): the outcome
/// is ``TransactionRefresher/Merged`` (which source's date, amount, merchant and category the
/// transaction shows: ``TransactionRefresher/merge(_:)``), computed from the transaction's
/// active records and then written.
enum MergedViewPass {
    /// Computes and writes the merged view of `transactionID` (a transaction left without any
    /// active record is voided).
    static func refresh(_ db: Database, transactionID: Int64) throws {
        try TransactionRefresher.refresh(db, transactionID: transactionID)
    }
}
