import ArgumentParser
import Foundation
import MoneyFlowPipeline
import MoneyFlowPostgres
import MoneyFlowStore

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run", abstract: "Run a saved batch described by a manifest (TOML).",
        discussion: """
            The manifest lists files, folders or globs, with per-entry account, CSV profile and
            password source (password_env or password_file; never a password itself), and an
            optional [accounts] table of ledger names. See README "Batch runs".
            Example: moneyflow run Samples/moneyflow.toml --store demo.sqlite
            """)
    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "Manifest file.") var manifest: String
    @Flag(name: .customLong("dry-run"), help: "Print what would happen; write nothing.") var dryRun = false
    @Flag(help: "Print the summary as JSON.") var json = false
    @Flag(help: "Treat every warning as an error for every file (as `strict = true` in the manifest).") var strict = false
    @Flag(name: .customLong("fail-fast"), help: "Stop at the first failing file.") var failFast = false
    @Flag(help: "Print only errors.") var quiet = false
    @Flag(help: "Also print each file's decisions.") var verbose = false
    @OptionGroup var wideOption: WideOption
    @OptionGroup var categoryFiles: CategoryFileOptions

    func run() throws {
        var m: BatchManifest
        do { m = try BatchManifest.load(manifest, defaults: FileImportOptions(dryRun: dryRun)) } catch let e as BatchManifest.Error {
            throw CLIError(e.message)
        }
        // --strict wins over a manifest's `strict = false`.
        if strict { for i in m.rules.indices { m.rules[i].options.strict = true } }
        let storePath = storeOptions.store ?? ProcessInfo.processInfo.environment["MONEYFLOW_STORE"] ?? m.storePath ?? "moneyflow.sqlite"
        // A dry run reads the store (or plans against an empty one) and never creates or changes it.
        let store = try categoryFiles.adopt(dryRun: dryRun, quiet: quiet) {
            try dryRun
                ? StoreOptions.openForReading(path: storePath, allowMissing: true)
                : CreatedStores.open(storePath, waitNotice: StoreOptions.waitNotice)
        }
        try BatchReporter(json: json, quiet: quiet, verbose: verbose, dryRun: dryRun, cut: wideOption.cells)
            .run(m.rules, service: ImportService(store: store), failFast: failFast, single: false, manifests: [m])
    }
}
