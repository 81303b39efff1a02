import Foundation
import MoneyFlowCore
import MoneyFlowPostgres
import MoneyFlowStore

/// The statement `store-write --rows N` imports: the first N of these records (the ones after
/// them are the same account's next days, which `store-reopen` imports as a second file).
func storeWriteStatement(rows: Int, seed: UInt64) -> ImportedStatement {
    // A few more transactions than rows, so the statement side has at least `rows` rows.
    Dataset(n: rows + rows / 20 + 100, seed: seed).statementStatement()
}

/// `store-reopen --rows N --store LOC`: what a later command pays on a ledger that already
/// holds N records (left by `store-write --rows N --store LOC`), in a fresh process.
///
/// - open: `StoreOpener.open` — for PostgreSQL from the ledger cache file the last command
///   left (only what changed since is fetched), or with MONEYFLOW_LEDGER_CACHE=off the whole
///   working copy loaded from the server (the first command on a machine); for SQLite it opens a file.
/// - a read with the copy current (one version check on PostgreSQL).
/// - a second import of the account's next `--second` rows (default 1,000), planned and written
///   while the copy is current: only the changed rows travel.
///
/// The second batch is undone afterwards (untimed, but reported) so the next run finds the same
/// ledger again.
func runStoreReopen(_ a: Args) throws {
    let rows = a.int("rows", 1_000_000), seed = UInt64(a.int("seed", 7)), second = a.int("second", 1_000)
    guard let path = a.values["store"] else { throw BenchError("--store PATH required (the store store-write --rows N left)") }
    var line = ResultLine()
    // A PostgreSQL ledger opens from the command's cache file (left by the store-write run
    // before), or, with MONEYFLOW_LEDGER_CACHE=off, loads the whole ledger into memory: the
    // first command on a machine.
    let inMemory = StoreOpener.isRemote(path) && ProcessInfo.processInfo.environment["MONEYFLOW_LEDGER_CACHE"] == "off"
    line.set("case", "store-reopen"); line.set("rows", rows); line.set("seed", Int(seed))
    line.set("store_kind", storeKind(path) + (inMemory ? "-memory" : ""))
    line.set("peak_before_open_mib", peakMiB())
    let (store, openWall, openCPU) = try measure { try StoreOpener.open(path) }
    line.set("open_s", openWall); line.set("open_cpu_s", openCPU); line.set("open_peak_mib", peakMiB())

    let (batches, readWall, _) = try measure { try store.batches() }
    line.set("read_s", readWall)
    let active = batches.filter { $0.undoneAt == nil }
    guard active.count == 1, active[0].counts.new == rows else {
        throw BenchError("\(path) does not hold exactly the \(rows) rows of store-write --rows \(rows) (active batches: \(active.map { "\($0.fileName): \($0.counts.new) new" }))")
    }

    let all = storeWriteStatement(rows: rows, seed: seed)
    var next = all
    next.records = Array(all.records[rows..<min(rows + second, all.records.count)])
    guard !next.records.isEmpty else { throw BenchError("no rows after the first \(rows) to import a second time") }
    let r = try planAndApply(next, store: store, fileName: "statement-2.csv", sha: "bench-store-second-\(rows)-\(seed)", accountOverride: nil)
    let counts = r.plan.counts
    line.set("second_rows", next.records.count); line.set("second_new", counts.new); line.set("second_linked", counts.linked)
    line.set("second_review", counts.needsReview)
    line.set("second_plan_s", r.planWall); line.set("second_apply_s", r.totalWall - r.planWall); line.set("second_total_s", r.totalWall)
    line.set("second_cpu_s", r.totalCPU)
    let (undone, undoWall, _) = try measure { try store.undo(batchID: r.batchID) }
    guard undone.recordsRemoved == next.records.count else { throw BenchError("undo of the second batch removed \(undone.recordsRemoved) records, expected \(next.records.count)") }
    line.set("undo_s", undoWall)
    line.set("peak_mib", peakMiB())
    line.emit()
}
