import Foundation
import MoneyFlowCore
import MoneyFlowPipeline

/// `csv-read --csv FILE`: the bank CSV read a user's import starts with (``ImportService`` read:
/// parse, profile, dates, amounts, fingerprints), without a store write. Reports rows, seconds,
/// rows/s and peak memory; run.sh puts Python's `csv` module reading the same file beside it.
func runCSVRead(_ a: Args) throws {
    guard let csv = a.values["csv"] else { throw BenchError("--csv FILE required") }
    var line = ResultLine()
    line.set("case", "csv-read")
    let path = a.string("store", "/tmp/moneyflow-bench-csvread.sqlite")
    let store = try freshStore(path)
    defer { removeStore(path) }
    let service = ImportService(store: store)
    let ((stmt, _), wall, cpu) = try measure { try service.read(path: csv, options: FileImportOptions(format: "csv")) }
    line.set("rows", stmt.records.count); line.set("read_s", wall); line.set("read_cpu_s", cpu)
    line.set("rows_per_s", Double(stmt.records.count) / wall)
    line.set("peak_mib", peakMiB())
    line.emit()
}
