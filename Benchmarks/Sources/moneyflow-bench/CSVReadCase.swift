import Foundation
import MoneyFlowCore
import MoneyFlowPipeline

/// `csv-read --csv FILE [--dump OUT]`: the bank CSV read a user's import starts with (``ImportService``
/// read: parse, profile, dates, amounts), without a store write. Reports rows, seconds, rows/s and
/// peak memory; run.sh puts Python's `csv` module reading the same file beside it.
///
/// `--dump OUT` (not timed) writes everything the read gave, one JSON line per record with its
/// fingerprint, then the accounts, warnings and coverage, or the read's error: a faster reader is
/// checked against the old one by comparing the dumps byte for byte.
func runCSVRead(_ a: Args) throws {
    guard let csv = a.values["csv"] else { throw BenchError("--csv FILE required") }
    var line = ResultLine()
    line.set("case", "csv-read")
    let path = a.string("store", "/tmp/moneyflow-bench-csvread.sqlite")
    let store = try freshStore(path)
    defer { removeStore(path) }
    let service = ImportService(store: store)
    if let out = a.values["dump"] {
        try dumpRead(service: service, csv: csv, format: a.values["format"], to: out)
        return
    }
    let ((stmt, _), wall, cpu) = try measure { try service.read(path: csv, options: FileImportOptions(format: "csv")) }
    line.set("rows", stmt.records.count); line.set("read_s", wall); line.set("read_cpu_s", cpu)
    line.set("rows_per_s", Double(stmt.records.count) / wall)
    line.set("peak_mib", peakMiB())
    line.emit()
}

private func dumpRead(service: ImportService, csv: String, format: String?, to out: String) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    var text = ""
    do {
        let (stmt, sha) = try service.read(path: csv, options: FileImportOptions(format: format ?? "csv"))
        let keys = Fingerprint.keys(for: stmt.records)
        text += "sha256 \(sha) importer \(stmt.importerID) records \(stmt.records.count)\n"
        for (r, k) in zip(stmt.records, keys) {
            text += k + "\t" + String(decoding: try encoder.encode(r), as: UTF8.self) + "\n"
        }
        for f in stmt.accounts { text += "account " + String(decoding: try encoder.encode(f), as: UTF8.self) + "\n" }
        for w in stmt.warnings { text += "warning " + String(decoding: try encoder.encode(w), as: UTF8.self) + "\n" }
        text += "coverage \(stmt.coverage.map { "\($0.lowerBound.iso)...\($0.upperBound.iso)" } ?? "-")\n"
    } catch {
        text += "error \(error)\n"
    }
    try Data(text.utf8).write(to: URL(fileURLWithPath: out))
}
