import ArgumentParser
import Foundation
import MoneyFlowCore
import MoneyFlowImporters
import MoneyFlowPipeline

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import statement files into the store (one database transaction per file).",
        discussion: """
        The importer is chosen from each file's content (CMB PDF or its password-protected ZIP,
        bank CSV, Plaid JSON) unless --format says otherwise. Re-importing a file adds nothing.

        Examples:
          moneyflow import Samples/csv/chase_checking.csv
          moneyflow import statement.zip --password-env CMB_PW
          moneyflow import export.csv --csv-profile my-bank.toml --account "Household"
          moneyflow import plaid/page1.json plaid/page2.json --dry-run --json
        """)

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "Files to import.")
    var files: [String]

    @Option(help: "Put every record into this account (created if missing).")
    var account: String?

    @Option(help: "Importer: auto, csv, cmb-pdf, plaid.")
    var format: String = "auto"

    @Option(name: .customLong("csv-profile"), help: ArgumentHelp("Built-in CSV profile name (see `moneyflow profiles`) or a profile file (.json/.toml).", valueName: "name|file"))
    var csvProfile: String?

    @Option(name: .customLong("password-env"), help: ArgumentHelp("Read the ZIP/PDF password from this environment variable.", valueName: "var"))
    var passwordEnv: String?

    @Option(name: .customLong("password-file"), help: ArgumentHelp("Read the ZIP/PDF password from the first line of this file.", valueName: "file"))
    var passwordFile: String?

    @Option(name: .customLong("window"), help: "Largest posting-date gap in days when matching records of different sources.")
    var windowDays: Int?

    @Flag(name: .customLong("dry-run"), help: "Print exactly what a real run would do; write nothing.")
    var dryRun = false

    @Flag(help: "Print the result as JSON.")
    var json = false

    mutating func validate() throws {
        if passwordEnv != nil && passwordFile != nil { throw ValidationError("use either --password-env or --password-file") }
        if let w = windowDays, w < 0 || w > 60 { throw ValidationError("--window must be between 0 and 60 days") }
    }

    func run() throws {
        let store = try storeOptions.open()
        let service = ImportService(store: store)
        var options = FileImportOptions(format: format, accountName: account, dryRun: dryRun)
        if let w = windowDays { options.reconcile.dateWindowDays = w }
        if let p = csvProfile { options.csvProfiles = try resolveProfile(p) }
        options.password = try PasswordSource.provider(env: passwordEnv, file: passwordFile)
        var results: [JSONOutput] = []
        var failures = 0
        for file in files {
            do {
                let r = try service.importFile(path: file, options: options)
                if json { results.append(Contracts.importResult(r, includePlan: dryRun)) } else { printHuman(r) }
            } catch let e as ImportError {
                failures += 1
                if json { results.append(.object([("file", .string(file)), ("error", .string(e.description))])) }
                printErr("moneyflow: error: \(e.description.replacingOccurrences(of: "\n", with: " "))")
            }
        }
        if json { printOut(JSONOutput.array(results).render(pretty: true)) }
        if failures > 0 { throw ExitCode(1) }
    }

    func resolveProfile(_ p: String) throws -> [CSVProfile] {
        let builtIn = BuiltInCSVProfiles.named(p)
        if !builtIn.isEmpty { return builtIn }
        guard FileManager.default.fileExists(atPath: p) else {
            throw CLIError("unknown CSV profile '\(p)' (built-in: \(BuiltInCSVProfiles.names.joined(separator: ", ")); or give a .json/.toml file)")
        }
        do { return [try CSVProfile.load(contentsOf: URL(fileURLWithPath: p))] }
        catch let e as ProfileError { throw CLIError(e.description) }
        catch let e as TOMLError { throw CLIError("\(p): \(e.description)") }
        catch { throw CLIError("\(p): cannot read CSV profile") }
    }

    func printHuman(_ r: FileImportResult) {
        let c = r.plan.counts
        let accounts = r.plan.accounts.map(\.name).joined(separator: ", ")
        var parts = ["\(c.new) new", "\(c.alreadyPresent) already present", "\(c.linked) linked"]
        if c.updated > 0 { parts.append("\(c.updated) updated") }
        if c.needsReview > 0 { parts.append("\(c.needsReview) need review") }
        if c.removed > 0 { parts.append("\(c.removed) removed") }
        parts.append("\(c.warnings) warning\(c.warnings == 1 ? "" : "s")")
        let prefix = r.dryRun ? "[dry run] " : ""
        let batch = r.batchID.map { " (batch \($0))" } ?? ""
        printOut("\(prefix)\(r.fileName): \(r.importerID) -> \(accounts): \(parts.joined(separator: ", "))\(batch)")
        for w in r.plan.statement.warnings { printOut("  warning: \(w.description)") }
        if r.dryRun {
            var t = TextTable(["#", "date", "amount", "description", "decision"], align: [.right, .left, .right, .left, .left])
            for e in r.plan.entries {
                let rec = r.plan.statement.records[e.index]
                var d = e.decision.label
                switch e.decision {
                case .link(let tid, let s, _): d += " -> transaction \(tid) (score \(String(format: "%.2f", s)))"
                case .supersede(_, let tid, _): d += " -> transaction \(tid)"
                case .alreadyPresent(let rid), .update(let rid): d += " (record \(rid))"
                case .needsReview(let cs): d += ": " + cs.compactMap { $0.transactionID.map { "transaction \($0)" } ?? $0.incomingIndex.map { "row \($0 + 1)" } }.joined(separator: " or ")
                default: break
                }
                t.add([String(e.index + 1), rec.date.iso, rec.amount.decimalString + " " + rec.amount.currency,
                       TextTable.truncate(rec.description + (rec.counterparty.map { " / " + $0 } ?? ""), to: 48), d])
            }
            if !r.plan.entries.isEmpty { printOut(t.render()) }
            for rem in r.plan.removals where rem.recordID != nil {
                printOut("  \(rem.supersededInThisUpdate ? "supersede" : "remove") provider record \(rem.externalID) (record \(rem.recordID!))")
            }
        }
    }
}
