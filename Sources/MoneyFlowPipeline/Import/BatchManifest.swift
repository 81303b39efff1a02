import Foundation
import MoneyFlowConfig
import MoneyFlowCore
import MoneyFlowImporters
import MoneyFlowStore

/// A saved batch (`moneyflow run manifest.toml`, or a `moneyflow.toml` inside an imported folder):
///
/// ```toml
/// store = "ledger.sqlite"            # optional (run only); or "postgres://USER@HOST/DB?ledger=NAME"
/// exclude = ["**/broken/**"]         # globs relative to the manifest
/// strict = true                      # every warning is an error (also per [[files]] entry)
/// [defaults]
/// password_env = "CMB_PW"
/// [[files]]
/// path = "cmb/*.zip"                 # file, folder or glob relative to the manifest
/// account = "CMB 8705"
/// new_account = true                 # create `account` even if it is one or two edits from an existing name
/// password_file = "secrets/cmb.txt" # or password_env = "VAR"; never the password itself
/// [[files]]
/// path = "bank/export.csv"
/// csv_profile = "chase"              # built-in name or a profile file
/// [accounts]
/// "CMB 8705" = "Assets:CMB:8705"     # names used by ledger exports
/// ```
///
/// A manifest describes its own folder: every file below it (minus `exclude`) is imported with
/// `[defaults]`, and `[[files]]` entries refine the settings of the files they match (or add
/// files outside the folder). So `run dir/moneyflow.toml` and `import dir` are the same batch.
/// Unknown keys and wrongly typed values are errors naming the key: a setting that is
/// silently dropped would import with settings the user did not ask for.
public struct BatchManifest: Sendable {
    public var path: String
    public var storePath: String?
    /// The folder rule first, then one rule per `[[files]]` entry (later rules win).
    public var rules: [FileRule]
    public var ledgerNames: [String: String]

    public struct Error: Swift.Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    static let topKeys = ["store", "exclude", "strict", "defaults", "files", "accounts"]
    static let optionKeys = [
        "account", "new_account", "format", "csv_profile", "password_env", "password_file", "window_days", "strict", "split_cards",
    ]

    /// Refuses keys not in `known`, naming the nearest valid one.
    static func checkKeys(_ t: JSONObject, known: [String], in place: String, manifest: String) throws {
        for k in t.keys.sorted() where !known.contains(k) {
            if k == "password" {
                throw Error(message: "\(manifest): passwords never go into a manifest; use password_env or password_file")
            }
            throw Error(
                message:
                    "\(manifest): unknown key '\(k)' in \(place)\(NearestName.hint(k, in: known)); valid keys: \(known.joined(separator: ", "))"
            )
        }
    }

    /// Builds the import options of one table (`[defaults]` or a `[[files]]` entry) over `base`.
    static func options(_ t: JSONObject, base: FileImportOptions, dir: String, manifest: String) throws -> FileImportOptions {
        var o = base
        func str(_ k: String) throws -> String? {
            guard let v = t[k] else { return nil }
            guard case .string(let s) = v else { throw Error(message: "\(manifest): '\(k)' must be a string") }
            return s
        }
        if let a = try str("account") { o.accountName = a }
        if let f = try str("format") { o.format = f }
        if let p = try str("csv_profile") {
            let builtIn = BuiltInCSVProfiles.named(p)
            if !builtIn.isEmpty {
                o.csvProfiles = builtIn
            } else {
                let file = p.hasPrefix("/") ? p : (dir as NSString).appendingPathComponent(p)
                do { o.csvProfiles = [try ProfileFiles.load(contentsOf: URL(fileURLWithPath: file))] } catch {
                    throw Error(message: "\(manifest): csv_profile '\(p)': \(error)")
                }
            }
        }
        if let env = try str("password_env") {
            o.password = { _ in
                guard let v = ProcessInfo.processInfo.environment[env], !v.isEmpty else {
                    throw ImportError(
                        .passwordRequired, file: manifest, problem: "environment variable \(env) named by the manifest is not set")
                }
                return v
            }
        }
        if let pf = try str("password_file") {
            let file = pf.hasPrefix("/") ? pf : (dir as NSString).appendingPathComponent(pf)
            o.password = { _ in
                guard let d = FileManager.default.contents(atPath: file), let text = String(data: d, encoding: .utf8) else {
                    throw ImportError(.passwordRequired, file: manifest, problem: "cannot read password file \(pf)")
                }
                return String(text.split(whereSeparator: \.isNewline).first ?? "")
            }
        }
        if let v = t["window_days"] {
            guard case .number(let n) = v, let w = Int(n), (0...60).contains(w) else {
                throw Error(message: "\(manifest): 'window_days' must be a whole number of days from 0 to 60")
            }
            o.reconcile.dateWindowDays = Int(w)
        }
        if let v = t["strict"] {
            guard case .bool(let b) = v else { throw Error(message: "\(manifest): 'strict' must be true or false") }
            o.strict = b
        }
        if let v = t["new_account"] {
            guard case .bool(let b) = v else { throw Error(message: "\(manifest): 'new_account' must be true or false") }
            o.newAccount = b
        }
        if let v = t["split_cards"] {
            guard case .bool(let b) = v else { throw Error(message: "\(manifest): 'split_cards' must be true or false") }
            o.splitCards = b
        }
        return o
    }

    public static func load(_ path: String, defaults: FileImportOptions = FileImportOptions()) throws -> BatchManifest {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw Error(message: "cannot read manifest \(path)")
        }
        let table: JSONObject
        do { table = try TOMLReader.parse(text) } catch { throw Error(message: "\(path): \(error)") }
        let dir = (path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent
        try checkKeys(table, known: topKeys, in: "the manifest", manifest: path)
        func typeError(_ k: String, _ what: String) -> Error { Error(message: "\(path): '\(k)' must be \(what)") }
        var base = defaults
        // Top-level `strict` is the default of [defaults] and every entry.
        if let v = table["strict"] {
            guard case .bool(let b) = v else { throw typeError("strict", "true or false") }
            base.strict = b || defaults.strict
        }
        if let v = table["defaults"] {
            guard case .object(let d) = v else { throw typeError("defaults", "a table ([defaults])") }
            try checkKeys(d, known: optionKeys, in: "[defaults]", manifest: path)
            base = try options(d, base: base, dir: dir, manifest: path)
        }
        var excludes: [String] = []
        if let v = table["exclude"] {
            guard case .array(let ex) = v else { throw typeError("exclude", "an array of globs, e.g. exclude = [\"**/broken/**\"]") }
            for item in ex {
                guard case .string(let s) = item else { throw typeError("exclude", "an array of strings (globs)") }
                excludes.append(s)
            }
        }
        let name = (path as NSString).lastPathComponent
        var rules = [FileRule(pattern: ".", baseDirectory: dir, options: base, exclude: excludes + [name])]
        if let v = table["files"] {
            guard case .array(let files) = v else { throw typeError("files", "an array of tables ([[files]])") }
            for (i, item) in files.enumerated() {
                guard case .object(let f) = item else { throw typeError("files", "an array of tables ([[files]])") }
                try checkKeys(f, known: ["path"] + optionKeys, in: "[[files]] entry \(i + 1)", manifest: path)
                guard case .string(let p)? = f["path"] else {
                    throw Error(message: "\(path): [[files]] entry \(i + 1) needs a path (a string)")
                }
                rules.append(
                    FileRule(
                        pattern: p, baseDirectory: dir, options: try options(f, base: base, dir: dir, manifest: path), exclude: excludes))
            }
        }
        var ledger: [String: String] = [:]
        if let v = table["accounts"] {
            guard case .object(let a) = v else { throw typeError("accounts", "a table ([accounts]) of account = ledger name") }
            for k in a.keys {
                guard case .string(let s)? = a[k] else {
                    throw Error(message: "\(path): [accounts] '\(k)' must be a ledger account name (a string)")
                }
                ledger[k] = s
            }
        }
        var store: String?
        if let v = table["store"] {
            guard case .string(let s) = v else { throw typeError("store", "a path (a string)") }
            // A PostgreSQL ledger's URL is used as written; a file path is relative to the manifest.
            let isURL = s.lowercased().hasPrefix("postgres://") || s.lowercased().hasPrefix("postgresql://")
            store = s.hasPrefix("/") || isURL ? s : (dir as NSString).appendingPathComponent(s)
        }
        return BatchManifest(path: path, storePath: store, rules: rules, ledgerNames: ledger)
    }

    /// Sets the `[accounts]` ledger names on the store's accounts (after the batch, whatever
    /// failed: the accounts the good files created get their names). Returns the names that
    /// match no account, so the caller can say so.
    public func applyLedgerNames(to store: LedgerStore) throws -> [String] {
        let accounts = try store.accounts()
        var unmatched: [String] = []
        for (name, ledger) in ledgerNames.sorted(by: { $0.key < $1.key }) {
            guard let a = accounts.first(where: { $0.name == name }) else { unmatched.append(name); continue }
            if a.ledgerName != ledger { try store.renameAccount(name, to: nil, ledgerName: ledger) }
        }
        return unmatched
    }

    /// The batch for importing folder `dir`: everything in it with `defaults`, refined by the
    /// folder's own `moneyflow.toml` when it has one (the same batch as `run` of that file).
    public static func forFolder(_ dir: String, defaults: FileImportOptions) throws -> BatchManifest {
        let manifestPath = (dir as NSString).appendingPathComponent("moneyflow.toml")
        guard FileManager.default.fileExists(atPath: manifestPath) else {
            return BatchManifest(
                path: dir, storePath: nil, rules: [FileRule(pattern: dir, baseDirectory: ".", options: defaults)], ledgerNames: [:])
        }
        return try load(manifestPath, defaults: defaults)
    }
}
