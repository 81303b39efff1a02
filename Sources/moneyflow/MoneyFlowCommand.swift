import ArgumentParser
import Foundation
import MoneyFlowCore
import MoneyFlowPipeline
import MoneyFlowPostgres
import MoneyFlowStore

@main
struct MoneyFlowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "moneyflow",
        abstract: "Turn bank statements and feeds into one de-duplicated ledger.",
        discussion: """
            Reads (the importer is chosen by content): \(DefaultImporters.registry.supportedFormats).

            Examples:
              moneyflow import statement.zip --password-env CMB_PW
              moneyflow import chase.csv --csv-profile chase --dry-run
              moneyflow transactions --format json
              moneyflow reconcile --format json

            Exit codes: 0 success, 1 bad input or a failed operation, 2 usage error.
            """,
        version: "0.1.0",
        subcommands: [
            ImportCommand.self, RunCommand.self, AccountsCommand.self, TransactionsCommand.self, BatchesCommand.self,
            UndoCommand.self, ProfilesCommand.self, ReconcileCommand.self, ReviewCommand.self, TransfersCommand.self,
            LinkCommand.self, UnlinkCommand.self, EditCommand.self, ExportCommand.self, PlaidCommand.self, ServeCommand.self,
            UsersCommand.self, MigrateCommand.self, CategorizeCommand.self, RecategorizeCommand.self, RulesCommand.self,
        ])

    /// Runs the command line, mapping errors to one line on stderr and exit codes 1 / 2.
    static func main() async {
        do {
            try suggestSubcommand(Array(CommandLine.arguments.dropFirst()))
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let error as ImportError {
            fail(error.description)
        } catch let error as StoreError {
            fail(error.description)
        } catch let error as CLIError {
            fail(error.message)
        } catch {
            let code = exitCode(for: error)
            if code == .success { exit(withError: error) }
            if code == .validationFailure {
                FileHandle.standardError.write(Data((SafeText.escapedLines(fullMessage(for: error)) + "\n").utf8))
                Foundation.exit(2)
            }
            if error is ExitCode { exit(withError: error) }
            fail(String(describing: error))
        }
    }

    /// `moneyflow improt x`: the argument parser would take `improt` as an unexpected
    /// argument; name the nearest subcommand instead (exit 2, like other usage errors).
    static func suggestSubcommand(_ args: [String]) throws {
        guard let first = args.first, !first.hasPrefix("-") else { return }
        let names = configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"]
        guard !names.contains(first) else { return }
        let hint = NearestName.nearest(first, in: names).map { "did you mean '\($0)'? " } ?? ""
        FileHandle.standardError.write(
            Data("moneyflow: error: unknown command '\(SafeText.escaped(first))'; \(hint)(see `moneyflow --help` for the commands)\n".utf8))
        Foundation.exit(2)
    }

    static func fail(_ message: String) -> Never {
        // One line, with whatever a file or statement put into the message visibly escaped.
        let oneLine = SafeText.escaped(message.replacingOccurrences(of: "\n", with: " "))
        FileHandle.standardError.write(Data("moneyflow: error: \(oneLine)\n".utf8))
        Foundation.exit(1)
    }
}

/// A user-facing failure (exit code 1).
struct CLIError: Error {
    var message: String
    init(_ m: String) { message = m }
}

/// `--store` shared by every command.
struct StoreOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "SQLite store file, or a PostgreSQL ledger postgres://USER@HOST:PORT/DB?ledger=NAME (env MONEYFLOW_STORE; default ./moneyflow.sqlite).",
            valueName: "path|url"))
    var store: String?

    var path: String {
        store ?? ProcessInfo.processInfo.environment["MONEYFLOW_STORE"] ?? "moneyflow.sqlite"
    }

    /// Opens the store for a command that writes (creating it if missing). A writer waiting
    /// for another process's lock says so on stderr.
    func open() throws -> LedgerStore { try CreatedStores.open(path, waitNotice: Self.waitNotice) }

    /// Opens the store for a command that changes what is already there (undo, link, unlink,
    /// edit, accounts rename/link): a missing store is an error, never an empty one created.
    func openExisting() throws -> LedgerStore {
        if StoreOpener.isRemote(path) {
            // A ledger that does not exist yet is refused before anything is created.
            _ = try StoreOpener.open(path, access: .readOnly)
        } else {
            guard FileManager.default.fileExists(atPath: path) else { throw StoreError.missingStore(path) }
        }
        return try open()
    }

    /// Opens the store for a command that only reads: a missing store is an error naming the
    /// path (never an empty store created), and a read-only file or folder is still readable.
    /// `allowMissing` (import --dry-run) plans against an empty store in a temporary folder.
    func openForReading(allowMissing: Bool = false) throws -> LedgerStore {
        try Self.openForReading(path: path, allowMissing: allowMissing)
    }

    /// ``openForReading(allowMissing:)`` for a store path that came from elsewhere (a manifest).
    static func openForReading(path: String, allowMissing: Bool) throws -> LedgerStore {
        if allowMissing && !StoreOpener.isRemote(path) && !FileManager.default.fileExists(atPath: path) {
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("moneyflow-dry-run-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            Self.scratchFolder = dir.path
            atexit { if let d = StoreOptions.scratchFolder { try? FileManager.default.removeItem(atPath: d) } }
            return try LedgerStore(path: dir.appendingPathComponent("empty.sqlite").path)
        }
        if allowMissing && StoreOpener.isRemote(path) {
            // A dry run against a ledger that does not exist yet plans against an empty one.
            do { return try StoreOpener.open(path, access: .readOnly) } catch let e as StoreError where e.message.hasPrefix("no store at") {
                return try openForReading(
                    path: FileManager.default.temporaryDirectory.appendingPathComponent("moneyflow-missing-\(UUID().uuidString).sqlite")
                        .path, allowMissing: true)
            }
        }
        return try StoreOpener.open(path, access: .readOnly)
    }

    /// The empty store's folder of a dry run without a store, removed when the process ends.
    nonisolated(unsafe) static var scratchFolder: String?

    static let waitNotice: @Sendable (String) -> Void = { message in
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}

enum ListFormat: String, ExpressibleByArgument, CaseIterable {
    case table, json
}

func printOut(_ s: String, terminator: String = "\n") {
    FileHandle.standardOutput.write(Data((s + terminator).utf8))
}

func printErr(_ s: String) {
    FileHandle.standardError.write(Data((s + "\n").utf8))
}

/// The one rule for `--account NAME` and account arguments (``LedgerStore/requireAccount(_:)``,
/// shared with the server): a name the store does not know is an error listing the known names.
func requireAccount(_ name: String?, in store: LedgerStore) throws {
    try store.requireAccount(name)
}

func parseDate(_ s: String?, _ flag: String) throws -> LocalDate? {
    guard let s else { return nil }
    guard let d = LocalDate(iso: s, .lenient) else { throw ValidationError("\(flag) must be a date YYYY-MM-DD") }
    return d
}
