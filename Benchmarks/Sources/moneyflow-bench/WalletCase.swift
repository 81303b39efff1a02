import Foundation
import MoneyFlowCore
import MoneyFlowPipeline
import MoneyFlowStore

/// `wallets --dir DIR`: a year of CMB debit statements, then a year of both wallets' bills
/// (scripts/gen_wallet_samples.py --year DIR), imported into one fresh store as `moneyflow import`
/// does (``ImportService`` read, then plan + apply), in one process: the statements first, so
/// each wallet file is planned against a year of bank rows. Reports the wallet bills' rows, read
/// and plan+apply seconds and rows/s, the statements' import time, and the process's peak memory.
func runWallets(_ a: Args) throws {
    guard let dir = a.values["dir"] else { throw BenchError("--dir DIR required") }
    let path = a.string("store", "/tmp/moneyflow-bench-wallets.sqlite")
    let names = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
    let statements = names.filter { $0.hasSuffix(".pdf") }
    let bills = names.filter { $0.hasSuffix(".csv") || $0.hasSuffix(".xlsx") }
    guard !statements.isEmpty, !bills.isEmpty else { throw BenchError("\(dir) holds no statements or no bills (gen_wallet_samples.py --year)") }
    var line = ResultLine()
    line.set("case", "wallets")
    let store = try freshStore(path)
    let service = ImportService(store: store)
    func importFile(_ name: String) throws -> (rows: Int, read: Double, apply: Double, linked: Int) {
        let file = "\(dir)/\(name)"
        let ((stmt, sha), readWall, _) = try measure { try service.read(path: file, options: FileImportOptions()) }
        let (result, applyWall, _) = try measure { try service.apply(stmt, fileName: file, sha256: sha, options: FileImportOptions()) }
        return (stmt.records.count, readWall, applyWall, result.plan.counts.linked)
    }
    var bank = (rows: 0, seconds: 0.0)
    for s in statements {
        let r = try importFile(s)
        bank.rows += r.rows; bank.seconds += r.read + r.apply
    }
    var wallet = (rows: 0, read: 0.0, apply: 0.0, linked: 0)
    for b in bills {
        let r = try importFile(b)
        wallet.rows += r.rows; wallet.read += r.read; wallet.apply += r.apply; wallet.linked += r.linked
    }
    line.set("rows", wallet.rows); line.set("files", bills.count)
    line.set("read_s", wallet.read); line.set("apply_s", wallet.apply); line.set("total_s", wallet.read + wallet.apply)
    line.set("read_rows_per_s", Double(wallet.rows) / wallet.read)
    line.set("rows_per_s", Double(wallet.rows) / (wallet.read + wallet.apply))
    line.set("linked", wallet.linked)
    line.set("bank_rows", bank.rows); line.set("bank_files", statements.count); line.set("bank_s", bank.seconds)
    line.set("peak_mib", peakMiB())
    line.emit()
    removeStore(path)
}
