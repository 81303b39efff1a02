import Crypto
import Foundation
import MoneyFlowCore
import MoneyFlowImporters
import MoneyFlowReconcile
import MoneyFlowStore
import MoneyFlowZip

/// Options for importing one file.
public struct FileImportOptions: Sendable {
    /// Importer id (`csv`, `cmb-pdf`, `plaid`), or nil to detect from content.
    public var format: String?
    /// Put the records into this account (created if missing, unless the name is a likely typo
    /// of an existing account: see ``newAccount``).
    public var accountName: String?
    /// `accountName` may be created even when it is one or two edits from an existing account's
    /// name (`--new-account`, manifest `new_account = true`); otherwise such a name is refused
    /// with the existing one suggested, as every other command refuses an unknown name.
    public var newAccount: Bool = false
    public var csvProfiles: [CSVProfile]?
    public var password: PasswordProvider?
    public var dryRun: Bool = false
    /// Every warning (importer or plan) is an error: the file fails and writes nothing
    /// (`--strict`, manifest `strict = true`).
    public var strict: Bool = false
    /// Rows of a supplementary card in a CMB credit-card bill go to that card's own account
    /// (`--split-cards`); by default they stay in the bill's account.
    public var splitCards: Bool = false
    public var reconcile = ReconcileOptions()
    public init(
        format: String? = nil, accountName: String? = nil, csvProfiles: [CSVProfile]? = nil,
        password: PasswordProvider? = nil, dryRun: Bool = false
    ) {
        self.format = format; self.accountName = accountName; self.csvProfiles = csvProfiles
        self.password = password; self.dryRun = dryRun
    }
}

/// What importing one file did (or, for a dry run, would do).
public struct FileImportResult: Sendable {
    public var fileName: String
    public var importerID: String
    public var plan: ImportPlan
    /// Nil for a dry run.
    public var batchID: Int64?
    /// A dry run's rehearsed write: the transfers and merged fields the import would produce.
    public var rehearsal: ImportRehearsal? = nil
    public var dryRun: Bool { batchID == nil }
}

/// Drives file -> importer -> reconciler -> store for one file at a time.
public struct ImportService: Sendable {
    public let store: LedgerStore
    public var registry: ImporterRegistry
    /// Largest input file read into memory.
    public var maxFileSize = 512 * 1024 * 1024

    public init(store: LedgerStore, registry: ImporterRegistry = DefaultImporters.registry) {
        self.store = store; self.registry = registry
    }

    /// SHA-256 of a file's bytes, hex.
    public static func sha256(_ data: Data) -> String {
        SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }

    /// Reads a file into an ``ImportedStatement`` with the right importer (no store access),
    /// with the SHA-256 of the bytes it read: the file is read once and its bytes are not kept.
    public func read(path: String, displayName: String? = nil, options: FileImportOptions) throws -> (
        statement: ImportedStatement, sha256: String
    ) {
        let name = displayName ?? path
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
            throw ImportError(.unrecognized, file: name, problem: "no such file")
        }
        if isDir.boolValue { throw ImportError(.unrecognized, file: name, problem: "is a folder") }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        if size > maxFileSize {
            throw ImportError(.limitExceeded, file: name, problem: "file larger than \(maxFileSize / 1024 / 1024) MiB")
        }
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw ImportError(.unrecognized, file: name, problem: "cannot read file")
        }
        return try read(data: data, fileName: name, options: options)
    }

    /// Reads a file's bytes already in memory (an upload to the server: it is never written
    /// to disk) into an ``ImportedStatement``, as ``read(path:displayName:options:)`` reads a
    /// file; `fileName` names it in messages and in the batch.
    public func read(data: Data, fileName name: String, options: FileImportOptions) throws -> (
        statement: ImportedStatement, sha256: String
    ) {
        if data.count > maxFileSize {
            throw ImportError(.limitExceeded, file: name, problem: "file larger than \(maxFileSize / 1024 / 1024) MiB")
        }
        if data.isEmpty { throw ImportError(.malformed, file: name, problem: "empty file") }
        let input = ImportInput(fileName: name, data: data)
        let importOptions = ImportOptions(csvProfiles: options.csvProfiles, password: options.password, splitCards: options.splitCards)
        let importer: any Importer
        if let format = options.format, format != "auto" {
            guard let i = registry.importer(id: format) ?? (format == "cmb-csv" ? registry.importer(id: "csv") : nil) else {
                throw ImportError(
                    .unrecognized, file: name,
                    problem: "unknown format '\(format)' (known: \(registry.ids.joined(separator: ", ")))")
            }
            importer = i
        } else if options.csvProfiles != nil, let csv = registry.importer(id: "csv") {
            importer = csv
        } else {
            guard let i = registry.detect(input, options: importOptions) else {
                let kind = FileKind.describe(data, zipEntryNames: (try? ZipArchive(data: data))?.entries.map(\.name))
                throw ImportError(
                    .unrecognized, file: name,
                    problem: "not a recognised statement\(kind.map { ": it is \($0)" } ?? ""); MoneyFlow reads: \(registry.supportedFormats)")
            }
            do { return (try i.read(input, options: importOptions), Self.sha256(data)) } catch var e as ImportError where e.kind == .notAStatement {
                // Detected by its container (a PDF, a ZIP, HTML) but not a statement: say what is read.
                e.problem += "; MoneyFlow reads: \(registry.supportedFormats)"
                throw e
            }
        }
        let statement = try importer.read(input, options: importOptions)
        return (statement, Self.sha256(data))
    }

    /// Imports one file: reads it, plans against the store, and (unless a dry run) applies the
    /// plan atomically. Throws ``ImportError`` for bad input; the store is then unchanged.
    public func importFile(path: String, displayName: String? = nil, options: FileImportOptions) throws -> FileImportResult {
        let (statement, sha256) = try read(path: path, displayName: displayName, options: options)
        return try apply(statement, fileName: displayName ?? path, sha256: sha256, options: options)
    }

    /// Plans and applies an already-read statement.
    public func apply(_ input: ImportedStatement, fileName: String, sha256: String, options: FileImportOptions) throws -> FileImportResult {
        var statement = input
        // An update saved without its item id is scoped by its accounts; map it to the item
        // those accounts belong to, so cursors chain across pages saved either way.
        if let sync = statement.sync, sync.isAccountsScope {
            let keys = Set(
                statement.accounts.map(\.key) + statement.records.map(\.accountKey) + statement.removals.compactMap(\.accountKey))
            if let scope = try store.syncScope(forAccountKeys: keys.sorted()) { statement.sync?.scope = scope }
        }
        var reconcile = options.reconcile
        let existing = try store.accounts()
        if let a = options.accountName {
            try checkAccountName(a, existing: existing.map(\.name), newAccount: options.newAccount, fileName: fileName)
            reconcile.accountOverride = a
        }
        let reconciler = Reconciler(options: reconcile)
        let baseName = (fileName as NSString).lastPathComponent
        if try !store.fileAlreadyImported(sha256: sha256) { try validateSync(statement, fileName: fileName) }
        // Strict: refuse before anything is written (the write transaction rolls back).
        func planned(_ view: any LedgerView) throws -> ImportPlan {
            let reading = try ReadingChoice.choose(statement, view: view, accountGiven: options.accountName != nil)
            var plan = try reconciler.plan(reading, fileName: baseName, fileSHA256: sha256, view: view)
            plan.statement.warnings += try AccountOverlap.warnings(
                plan, existing: existing, view: view, windowDays: reconcile.dateWindowDays)
            if options.strict { try Self.refuseWarnings(plan.statement.warnings, fileName: fileName) }
            return plan
        }
        if options.dryRun {
            let rehearsal = try store.rehearseImport(makePlan: planned)
            let plan = try withCurrentAccountNames(rehearsal.plan)
            return FileImportResult(fileName: fileName, importerID: statement.importerID, plan: plan, batchID: nil, rehearsal: rehearsal)
        }
        let applied = try store.importStatement(dryRun: false, makePlan: planned)!
        return FileImportResult(
            fileName: fileName, importerID: statement.importerID, plan: try withCurrentAccountNames(applied.plan), batchID: applied.batchID)
    }

    /// `--account NAME` for an account the store does not have: a new account, unless the name
    /// is a likely typo of an existing one (``NearestName``: at most two edits, case ignored),
    /// which is refused naming the existing account, so `Chase Checkng` never silently becomes a
    /// second account. `newAccount` says the user means a new one.
    func checkAccountName(_ name: String, existing names: [String], newAccount: Bool, fileName: String) throws {
        guard !newAccount else { return }
        guard !names.contains(name), let near = NearestName.nearest(name, in: names) else { return }
        throw ImportError(
            .rejected, file: fileName,
            problem:
                "no account named '\(name)' (did you mean '\(near)'?); to create a new account of that name anyway, give --new-account (manifest: new_account = true)"
        )
    }

    /// The plan with each existing account named as the store names it now, so a summary
    /// names the account the records went to even after `accounts rename` (an account the
    /// plan creates has the plan's name).
    func withCurrentAccountNames(_ plan: ImportPlan) throws -> ImportPlan {
        var p = plan
        let names = try store.accountNames(forIDs: plan.accounts.compactMap(\.accountID))
        for i in p.accounts.indices { if let id = p.accounts[i].accountID, let n = names[id] { p.accounts[i].name = n } }
        return p
    }

    /// `--strict`: the first warning as a one-line error (with how many more there are).
    static func refuseWarnings(_ warnings: [ImportWarning], fileName: String) throws {
        guard let first = warnings.first else { return }
        let more = warnings.count > 1 ? " (and \(warnings.count - 1) more warning\(warnings.count == 2 ? "" : "s"))" : ""
        throw ImportError(
            .rejected, file: fileName, locator: first.locator,
            problem: "\(first.message)\(more); refused because of --strict (strict = true): nothing written")
    }

    /// A sync update that starts from a cursor must start where the store left off: at the
    /// last complete update's cursor, or where the pages of an unfinished update stopped.
    func validateSync(_ s: ImportedStatement, fileName: String) throws {
        guard let sync = s.sync, let start = sync.startCursor else { return }
        let saved = try store.syncCursor(scope: sync.scope)
        let progress = try store.syncProgress(scope: sync.scope)
        if start == (progress ?? saved ?? "") { return }
        if progress == nil && saved == nil {
            throw ImportError(
                .rejected, file: fileName,
                problem:
                    "this sync page starts at a cursor, but the store has no earlier update for \(sync.scope); import the earlier pages first"
            )
        }
        throw ImportError(
            .rejected, file: fileName,
            problem:
                "this sync page does not continue from the store's cursor for \(sync.scope) (a page was skipped); import the missing pages first, or restart the update from the saved cursor"
        )
    }
}
