import Foundation
import MoneyFlowCore
import MoneyFlowImporters

/// A saved batch (`moneyflow run manifest.toml`, or a `moneyflow.toml` inside an imported folder):
///
/// ```toml
/// store = "ledger.sqlite"            # optional
/// exclude = ["**/broken/**"]         # globs relative to the manifest
/// [defaults]
/// password_env = "CMB_PW"
/// [[files]]
/// path = "cmb/*.zip"                 # file, folder or glob relative to the manifest
/// account = "CMB 8705"
/// password_file = "secrets/cmb.txt" # or password_env = "VAR"; never the password itself
/// [[files]]
/// path = "bank/export.csv"
/// csv_profile = "chase"              # built-in name or a profile file
/// [accounts]
/// "CMB 8705" = "Assets:CMB:8705"     # names used by ledger exports
/// ```
public struct BatchManifest: Sendable {
    public var path: String
    public var storePath: String?
    public var rules: [FileRule]
    public var ledgerNames: [String: String]

    public struct Error: Swift.Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// Builds the import options of one table (`[defaults]` or a `[[files]]` entry) over `base`.
    static func options(_ t: TOMLTable, base: FileImportOptions, dir: String, manifest: String) throws -> FileImportOptions {
        var o = base
        func str(_ k: String) throws -> String? {
            guard let v = t[k] else { return nil }
            guard case .string(let s) = v else { throw Error(message: "\(manifest): '\(k)' must be a string") }
            return s
        }
        if t["password"] != nil { throw Error(message: "\(manifest): passwords never go into a manifest; use password_env or password_file") }
        if let a = try str("account") { o.accountName = a }
        if let f = try str("format") { o.format = f }
        if let p = try str("csv_profile") {
            let builtIn = BuiltInCSVProfiles.named(p)
            if !builtIn.isEmpty { o.csvProfiles = builtIn }
            else {
                let file = p.hasPrefix("/") ? p : (dir as NSString).appendingPathComponent(p)
                do { o.csvProfiles = [try CSVProfile.load(contentsOf: URL(fileURLWithPath: file))] }
                catch { throw Error(message: "\(manifest): csv_profile '\(p)': \(error)") }
            }
        }
        if let env = try str("password_env") {
            o.password = { _ in
                guard let v = ProcessInfo.processInfo.environment[env], !v.isEmpty else {
                    throw ImportError(.passwordRequired, file: manifest, problem: "environment variable \(env) named by the manifest is not set")
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
        if case .integer(let w)? = t["window_days"] { o.reconcile.dateWindowDays = Int(w) }
        return o
    }

    public static func load(_ path: String, defaults: FileImportOptions = FileImportOptions()) throws -> BatchManifest {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw Error(message: "cannot read manifest \(path)")
        }
        let table: TOMLTable
        do { table = try TOMLParser.parse(text) } catch { throw Error(message: "\(path): \(error)") }
        let dir = (path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent
        var base = defaults
        if case .table(let d)? = table["defaults"] { base = try options(d, base: defaults, dir: dir, manifest: path) }
        var excludes: [String] = []
        if case .array(let ex)? = table["exclude"] { for case .string(let s) in ex { excludes.append(s) } }
        var rules: [FileRule] = []
        if case .array(let files)? = table["files"] {
            for case .table(let f) in files {
                guard case .string(let p)? = f["path"] else { throw Error(message: "\(path): every [[files]] entry needs a path") }
                rules.append(FileRule(pattern: p, baseDirectory: dir, options: try options(f, base: base, dir: dir, manifest: path), exclude: excludes))
            }
        }
        var ledger: [String: String] = [:]
        if case .table(let a)? = table["accounts"] { for k in a.keys { if case .string(let v)? = a[k] { ledger[k] = v } } }
        var store: String?
        if case .string(let s)? = table["store"] { store = s.hasPrefix("/") ? s : (dir as NSString).appendingPathComponent(s) }
        return BatchManifest(path: path, storePath: store, rules: rules, ledgerNames: ledger)
    }

    /// Rules for importing folder `dir`: everything in it with `defaults`, refined by the
    /// folder's own `moneyflow.toml` when it has one.
    public static func rules(forFolder dir: String, defaults: FileImportOptions) throws -> [FileRule] {
        let manifestPath = (dir as NSString).appendingPathComponent("moneyflow.toml")
        guard FileManager.default.fileExists(atPath: manifestPath) else {
            return [FileRule(pattern: dir, baseDirectory: ".", options: defaults)]
        }
        let m = try load(manifestPath, defaults: defaults)
        let excludes = m.rules.first?.exclude ?? []
        return [FileRule(pattern: ".", baseDirectory: dir, options: defaults, exclude: excludes + ["moneyflow.toml"])] + m.rules
    }
}
