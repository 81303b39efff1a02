import ArgumentParser
import Foundation
import MoneyFlowCore
import MoneyFlowPipeline

#if canImport(Glibc)
    import Glibc
#endif

/// Runs a batch and reports it: a progress bar on a terminal, one summary table (or JSON),
/// errors on stderr. Exit code 1 when any file failed.
struct BatchReporter {
    var json: Bool
    var quiet: Bool
    var verbose: Bool
    var dryRun: Bool
    /// How long text shows in the summary and plan tables (`--wide`: whole).
    var cut = CellText()

    /// Runs `rules`; then, unless a dry run and whatever failed, applies the manifest's
    /// `[accounts]` ledger names to the accounts in the store.
    func run(_ rules: [FileRule], service: ImportService, failFast: Bool, single: Bool, manifests: [BatchManifest] = []) throws {
        var runner = BatchRunner(service: service)
        runner.failFast = failFast
        let bar = ProgressBar(enabled: !quiet && !json && isatty(STDERR_FILENO) == 1)
        var callback: (@Sendable (BatchProgress) -> Void)?
        if bar.enabled { callback = { p in bar.update(p) } }
        let results = runner.run(rules, progress: callback)
        bar.finish()
        if !dryRun {
            for m in manifests {
                for name in try m.applyLedgerNames(to: service.store) {
                    printErr(
                        SafeText.escaped(
                            "moneyflow: note: \(m.path): [accounts] names '\(name)', which is not an account (see `moneyflow accounts`)"))
                }
            }
        }
        var failures: [ImportError] = []
        for r in results { if case .failed(let e) = r.outcome { failures.append(e) } }
        for e in failures { printErr("moneyflow: error: " + SafeText.escaped(e.description.replacingOccurrences(of: "\n", with: " "))) }
        if results.isEmpty { throw CLIError("no files found in \(rules.map(\.pattern).joined(separator: ", "))") }
        if json {
            printOut(JSONOutput.array(results.map { Contracts.batchFile($0, includePlan: dryRun || verbose) }).render(pretty: true))
        } else if !quiet {
            if single, let only = results.first, results.count == 1 {
                if case .imported(let r) = only.outcome { printSingle(r) }
            } else {
                printTable(results)
                if verbose || dryRun { for r in results { if case .imported(let x) = r.outcome { printPlan(x) } } }
            }
        }
        if !failures.isEmpty { throw ExitCode(1) }
    }

    func printSingle(_ r: FileImportResult) {
        let accounts = r.plan.accounts.map(\.name).joined(separator: ", ")
        let prefix = r.dryRun ? "[dry run] " : ""
        let batch = r.batchID.map { " (batch \($0))" } ?? ""
        printOut(SafeText.escaped("\(prefix)\(r.fileName): \(r.importerID) -> \(accounts): \(Self.countsText(r.plan.counts))\(batch)"))
        for line in Self.newAccountLines(r) { printOut(SafeText.escaped(line)) }
        for w in r.plan.statement.warnings { printOut("  warning: " + SafeText.escaped(w.description)) }
        if r.dryRun || verbose { printPlan(r) }
    }

    /// "3 new, 0 already present, 1 linked, 2 warnings" (zero counts of rarer kinds left out).
    static func countsText(_ c: ImportCounts) -> String {
        var parts = ["\(c.new) new", "\(c.alreadyPresent) already present", "\(c.linked) linked"]
        if c.updated > 0 { parts.append("\(c.updated) updated") }
        if c.needsReview > 0 { parts.append("\(c.needsReview) need review") }
        if c.removed > 0 { parts.append("\(c.removed) removed") }
        if c.relinked > 0 { parts.append("\(c.relinked) earlier record\(c.relinked == 1 ? "" : "s") relinked") }
        parts.append("\(c.warnings) warning\(c.warnings == 1 ? "" : "s")")
        return parts.joined(separator: ", ")
    }

    func printTable(_ results: [BatchFileResult]) {
        var t = TextTable(
            ["file", "importer", "account", "new", "present", "linked", "review", "warnings", "error"],
            align: [.left, .left, .left, .right, .right, .right, .right, .right, .left])
        var totals = ImportCounts()
        var errors = 0, skipped = 0
        for r in results {
            switch r.outcome {
            case .imported(let x):
                let c = x.plan.counts
                totals.new += c.new; totals.alreadyPresent += c.alreadyPresent; totals.linked += c.linked
                totals.needsReview += c.needsReview; totals.warnings += c.warnings
                t.add([
                    r.displayPath, x.importerID, cut(x.plan.accounts.map(\.name).joined(separator: ", "), 30),
                    String(c.new), String(c.alreadyPresent), String(c.linked), String(c.needsReview), String(c.warnings), "",
                ])
            case .failed(let e):
                errors += 1
                t.add([
                    r.displayPath, "", "", "", "", "", "", "",
                    cut(e.problem.isEmpty ? e.description : e.description.replacingOccurrences(of: r.displayPath + ": ", with: ""), 60),
                ])
            case .skipped:
                skipped += 1
                if verbose { t.add([r.displayPath, "(skipped: not a statement)", "", "", "", "", "", "", ""]) }
            }
        }
        t.add([
            "total: \(results.count - errors - skipped) imported, \(errors) failed, \(skipped) skipped", "", "",
            String(totals.new), String(totals.alreadyPresent), String(totals.linked), String(totals.needsReview), String(totals.warnings),
            "",
        ])
        printOut((dryRun ? "[dry run]\n" : "") + t.render())
        for r in results {
            if case .imported(let x) = r.outcome { for line in Self.newAccountLines(x) { printOut(SafeText.escaped(line)) } }
        }
    }

    /// One line per account the import created (or, dry run, would create): a typo in
    /// `--account` must not pass unseen as a second account.
    static func newAccountLines(_ r: FileImportResult) -> [String] {
        var seen = Set<String>()
        return r.plan.accounts.filter { $0.accountID == nil && seen.insert($0.name).inserted }.map {
            "  \(r.dryRun ? "would create" : "created") account '\($0.name)' (\((r.fileName as NSString).lastPathComponent))"
        }
    }

    /// A decision in a few words, naming the transaction or row it points at.
    static func describe(_ decision: RecordDecision) -> String {
        var d = decision.label
        switch decision {
        case .link(let tid, let s, _, _): d += " -> transaction \(tid) (score \(String(format: "%.2f", s)))"
        case .supersede(_, let tid, _): d += " -> transaction \(tid)"
        case .alreadyPresent(let rid), .update(let rid): d += " (record \(rid))"
        case .linkToIncoming(let i, _, _), .supersedeIncoming(let i, _): d += " -> row \(i + 1) of this file"
        case .needsReview(let cs):
            // A transaction another record wants as much is listed once.
            var seen = Set<String>()
            let names = cs.compactMap { $0.transactionID.map { "transaction \($0)" } ?? $0.incomingIndex.map { "row \($0 + 1)" } }
            d += ": " + names.filter { seen.insert($0).inserted }.joined(separator: " or ")
        case .new: break
        }
        return d
    }

    func printPlan(_ r: FileImportResult) {
        printOut("\n" + SafeText.escaped(r.fileName) + ":")
        for w in r.plan.statement.warnings { printOut("  warning: " + SafeText.escaped(w.description)) }
        var t = TextTable(["#", "date", "amount", "description", "decision"], align: [.right, .left, .right, .left, .left])
        for e in r.plan.entries {
            let rec = r.plan.statement.records[e.index]
            let d = Self.describe(e.decision)
            t.add([
                String(e.index + 1), rec.date.iso, rec.amount.decimalString + " " + rec.amount.currency,
                cut(rec.description + (rec.counterparty.map { " / " + $0 } ?? ""), 48), d,
            ])
        }
        if !r.plan.entries.isEmpty { printOut(t.render()) }
        if !r.plan.relinks.isEmpty {
            printOut("  earlier records re-planned with this file's rows:")
            var t = TextTable(
                ["record", "date", "amount", "description", "was", "now"], align: [.right, .left, .right, .left, .left, .left])
            for x in r.plan.relinks {
                let rec = x.record
                t.add([
                    String(x.recordID), rec.date.iso, rec.amount.decimalString + " " + rec.amount.currency,
                    cut(rec.description + (rec.counterparty.map { " / " + $0 } ?? ""), 40),
                    "\(x.from.rawValue) in transaction \(x.fromTransactionID)", Self.describe(x.decision),
                ])
            }
            printOut(t.render())
        }
        for rem in r.plan.removals where rem.recordID != nil {
            printOut(
                SafeText.escaped(
                    "  \(rem.supersededInThisUpdate ? "supersede" : "remove") provider record \(rem.externalID) (record \(rem.recordID!))"))
        }
        if let rehearsal = r.rehearsal { for line in RehearsalText.lines(rehearsal) { printOut(SafeText.escaped(line)) } }
    }
}

/// A one-line progress bar redrawn in place on stderr (terminals only).
final class ProgressBar: @unchecked Sendable {
    let enabled: Bool
    private var lastDraw = Date.distantPast
    private var drawn = false
    init(enabled: Bool) { self.enabled = enabled }

    func update(_ p: BatchProgress) {
        guard enabled else { return }
        let now = Date()
        guard now.timeIntervalSince(lastDraw) > 0.05 || p.filesApplied == p.filesTotal else { return }
        lastDraw = now
        let width = 28
        let done = p.filesTotal == 0 ? width : (p.filesParsed + p.filesApplied) * width / (2 * p.filesTotal)
        let bar = String(repeating: "#", count: done) + String(repeating: "-", count: width - done)
        let name = TextTable.truncate((p.current as NSString).lastPathComponent, to: 30)
        let line = "\r[\(bar)] \(p.filesApplied)/\(p.filesTotal) files, \(p.rows) rows  \(name)\u{1B}[K"
        FileHandle.standardError.write(Data(line.utf8))
        drawn = true
    }

    func finish() {
        if enabled && drawn { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}
