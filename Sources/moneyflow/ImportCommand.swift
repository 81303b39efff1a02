import ArgumentParser
import Foundation
import MoneyFlowConfig
import MoneyFlowCore
import MoneyFlowImporters
import MoneyFlowPipeline

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import statement files into the store (one database transaction per file).",
        discussion: """
            The importer is chosen from each file's content (\(DefaultImporters.registry.supportedFormats))
            unless --format says otherwise. Re-importing a file adds nothing.

            Examples:
              moneyflow import Samples/csv/chase_checking.csv
              moneyflow import statement.zip --password-env CMB_PW
              moneyflow import export.csv --csv-profile my-bank.toml --account "Household"
              moneyflow import plaid/page1.json plaid/page2.json --dry-run --json
              moneyflow import statement.pdf --rules rules.toml   # categorise with your rules (stored, as recategorize)
            """)

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "Files to import.")
    var files: [String]

    @Option(help: "Put every record into this account (created if missing; a near miss of an existing name is refused).")
    var account: String?

    @Flag(
        name: .customLong("new-account"),
        help: "Create --account even when its name is one or two edits from an existing account's (otherwise refused as a typo).")
    var newAccount = false

    @Option(help: "Importer: auto, \(DefaultImporters.registry.ids.joined(separator: ", ")).")
    var format: String = "auto"

    @Option(
        name: .customLong("csv-profile"),
        help: ArgumentHelp("Built-in CSV profile name (see `moneyflow profiles`) or a profile file (.json/.toml).", valueName: "name|file"))
    var csvProfile: String?

    @Option(
        name: .customLong("password-env"), help: ArgumentHelp("Read the ZIP/PDF password from this environment variable.", valueName: "var")
    )
    var passwordEnv: String?

    @Option(
        name: .customLong("password-file"),
        help: ArgumentHelp("Read the ZIP/PDF password from the first line of this file.", valueName: "file"))
    var passwordFile: String?

    @Option(name: .customLong("window"), help: "Largest posting-date gap in days when matching records of different sources.")
    var windowDays: Int?

    @Flag(name: .customLong("dry-run"), help: "Print exactly what a real run would do; write nothing.")
    var dryRun = false

    @Flag(help: "Print the result as JSON.")
    var json = false

    @Flag(help: "Treat every warning (e.g. a balance that does not chain) as an error: that file fails and writes nothing.")
    var strict = false

    mutating func validate() throws {
        if passwordEnv != nil && passwordFile != nil { throw ValidationError("use either --password-env or --password-file") }
        if newAccount && account == nil { throw ValidationError("--new-account goes with --account NAME") }
        if let w = windowDays, w < 0 || w > 60 { throw ValidationError("--window must be between 0 and 60 days") }
    }

    @Flag(
        name: .customLong("split-cards"),
        help: "CMB credit-card bills: put a supplementary card's rows into that card's own account (default: the bill's account).")
    var splitCards = false

    @Flag(name: .customLong("fail-fast"), help: "Stop at the first file that fails (default: report it and go on).")
    var failFast = false

    @Flag(help: "Print only errors.")
    var quiet = false

    @Flag(help: "Also print each file's warnings and decisions.")
    var verbose = false

    @OptionGroup var wideOption: WideOption
    @OptionGroup var categoryFiles: CategoryFileOptions

    func run() throws {
        let store = try categoryFiles.adopt(dryRun: dryRun, quiet: quiet) {
            try dryRun ? storeOptions.openForReading(allowMissing: true) : storeOptions.open()
        }
        var options = FileImportOptions(format: format, accountName: account, dryRun: dryRun)
        options.strict = strict
        options.splitCards = splitCards
        options.newAccount = newAccount
        if let w = windowDays { options.reconcile.dateWindowDays = w }
        if let p = csvProfile { options.csvProfiles = try resolveProfile(p) }
        options.password = try PasswordSource.provider(env: passwordEnv, file: passwordFile)
        var rules: [FileRule] = []
        var manifests: [BatchManifest] = []
        for arg in files {
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: arg, isDirectory: &isDir), isDir.boolValue {
                do {
                    let m = try BatchManifest.forFolder(arg, defaults: options)
                    rules += m.rules
                    manifests.append(m)
                } catch let e as BatchManifest.Error { throw CLIError(e.message) }
            } else {
                rules.append(FileRule(pattern: arg, baseDirectory: ".", options: options))
            }
        }
        // --strict wins over a folder manifest's `strict = false`.
        if strict { for i in rules.indices { rules[i].options.strict = true } }
        try BatchReporter(json: json, quiet: quiet, verbose: verbose, dryRun: dryRun, cut: wideOption.cells)
            .run(
                rules, service: ImportService(store: store), failFast: failFast, single: files.count == 1 && rules.count == 1,
                manifests: manifests)
    }

    func resolveProfile(_ p: String) throws -> [CSVProfile] {
        let builtIn = BuiltInCSVProfiles.named(p)
        if !builtIn.isEmpty { return builtIn }
        guard FileManager.default.fileExists(atPath: p) else {
            throw CLIError(
                "unknown CSV profile '\(p)' (built-in: \(BuiltInCSVProfiles.names.joined(separator: ", ")); or give a .json/.toml file)")
        }
        do { return [try ProfileFiles.load(contentsOf: URL(fileURLWithPath: p))] } catch let e as ProfileError {
            throw CLIError(e.description)
        } catch { throw CLIError("\(p): cannot read CSV profile") }
    }
}
