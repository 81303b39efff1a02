import Dispatch
import Foundation
import MoneyFlowCore
import MoneyFlowImporters

/// Settings that apply to the files matching one rule of a batch (manifest `[[files]]` entry
/// or the command line).
public struct FileRule: Sendable {
    /// Glob relative to `baseDirectory` (`cmb/*.zip`, `**/*.csv`), a folder, or a file.
    public var pattern: String
    public var baseDirectory: String
    public var options: FileImportOptions
    public var exclude: [String] = []
    public init(pattern: String, baseDirectory: String, options: FileImportOptions, exclude: [String] = []) {
        self.pattern = pattern; self.baseDirectory = baseDirectory; self.options = options; self.exclude = exclude
    }
}

/// One file of a batch and what happened to it.
public struct BatchFileResult: Sendable {
    public enum Outcome: Sendable {
        case imported(FileImportResult)
        case failed(ImportError)
        /// No importer recognises the file (found by walking a folder): not an error.
        case skipped(String)
    }
    public var path: String
    public var outcome: Outcome
    public var displayPath: String { BatchRunner.display(path) }
}

/// Progress callbacks (called from one thread at a time).
public struct BatchProgress: Sendable {
    public var filesTotal: Int
    public var filesParsed: Int
    public var filesApplied: Int
    public var rows: Int
    public var current: String
}

/// Imports many files: expands folders and globs, reads them in parallel (bounded by cores),
/// and applies them to the store one at a time in a deterministic (path) order, so the
/// outcome does not depend on which file finished parsing first.
public struct BatchRunner: Sendable {
    public var service: ImportService
    public var failFast = false
    public var parallelism = max(1, ProcessInfo.processInfo.activeProcessorCount)

    public init(service: ImportService) { self.service = service }

    /// Files a rule names, sorted naturally (`page2` before `page10`). `explicit` is true
    /// when the user named the file itself (then an unrecognised file is an error).
    public static func expand(_ rule: FileRule) -> [(path: String, explicit: Bool)] {
        let fm = FileManager.default
        let full = absolute(rule.pattern, base: rule.baseDirectory)
        var isDir: ObjCBool = false
        var found: [(String, Bool)] = []
        if fm.fileExists(atPath: full, isDirectory: &isDir) {
            if isDir.boolValue { found = walk(full).map { ($0, false) } } else { found = [(full, true)] }
        } else if full.contains(where: { "*?[".contains($0) }) {
            let root = globRoot(full)
            let re = globRegex(full)
            found = walk(root).filter { re.firstMatch(in: $0, range: NSRange($0.startIndex..., in: $0)) != nil }.map { ($0, true) }
        } else {
            found = [(full, true)]
        }
        let excludes = rule.exclude.map { globRegex(absolute($0, base: rule.baseDirectory)) }
        return found.filter { f in !excludes.contains { $0.firstMatch(in: f.0, range: NSRange(f.0.startIndex..., in: f.0)) != nil } }
            .sorted { $0.0.compare($1.0, options: .numeric) == .orderedAscending }
            .map { (path: $0.0, explicit: $0.1) }
    }

    /// Absolute, standardized form of `path` (relative paths are taken from `base`, itself
    /// relative to the current directory).
    static func absolute(_ path: String, base: String) -> String {
        if path.hasPrefix("/") { return (path as NSString).standardizingPath }
        var b = base.hasPrefix("/") ? base : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(base)
        b = (b as NSString).standardizingPath
        let joined = (b as NSString).appendingPathComponent(path)
        // standardizingPath would drop a trailing "/**"; keep glob characters intact.
        return joined.contains("*") ? joined.replacingOccurrences(of: "/./", with: "/") : (joined as NSString).standardizingPath
    }

    /// How a path is shown: relative to the current directory when below it.
    public static func display(_ path: String) -> String {
        let cwd = FileManager.default.currentDirectoryPath
        return path.hasPrefix(cwd + "/") ? String(path.dropFirst(cwd.count + 1)) : path
    }

    static func walk(_ dir: String) -> [String] {
        guard let e = FileManager.default.enumerator(atPath: dir) else { return [] }
        var out: [String] = []
        while let rel = e.nextObject() as? String {
            let name = (rel as NSString).lastPathComponent
            if name.hasPrefix(".") {
                if (e.fileAttributes?[.type] as? FileAttributeType) == .typeDirectory { e.skipDescendants() }; continue
            }
            if (e.fileAttributes?[.type] as? FileAttributeType) == .typeRegular {
                out.append((dir as NSString).appendingPathComponent(rel))
            }
        }
        return out
    }

    static func globRoot(_ pattern: String) -> String {
        var parts: [String] = []
        for c in pattern.split(separator: "/", omittingEmptySubsequences: false) {
            if c.contains(where: { "*?[".contains($0) }) { break }
            parts.append(String(c))
        }
        let root = parts.joined(separator: "/")
        return root.isEmpty ? (pattern.hasPrefix("/") ? "/" : ".") : root
    }

    /// `*` = any run without `/`, `**` = any run including `/`, `?` = one character.
    static func globRegex(_ pattern: String) -> NSRegularExpression {
        var re = "^"
        var chars = Array(pattern)
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if c == "*" {
                if i + 1 < chars.count && chars[i + 1] == "*" {
                    i += 2
                    // `**/` is zero or more whole folders (never part of a name: `**/c*` must
                    // not match `bofa_card`); a trailing `**` is anything below.
                    if i < chars.count && chars[i] == "/" { i += 1; re += "(?:.*/)?" } else { re += ".*" }
                    continue
                }
                re += "[^/]*"
            } else if c == "?" {
                re += "[^/]"
            } else if c == "[" {
                if let close = chars[(i + 1)...].firstIndex(of: "]") {
                    re += "[" + String(chars[(i + 1)..<close]) + "]"; i = close + 1; continue
                } else {
                    re += "\\["
                }
            } else {
                re += NSRegularExpression.escapedPattern(for: String(c))
            }
            i += 1
        }
        chars.removeAll()
        return try! NSRegularExpression(pattern: re + "$")
    }

    /// Runs the batch. `progress` is called as files are parsed and applied.
    public func run(_ rules: [FileRule], progress: (@Sendable (BatchProgress) -> Void)? = nil) -> [BatchFileResult] {
        // Expand; a later rule's settings win for a file named twice.
        var order: [String] = []
        var settings: [String: (FileImportOptions, Bool)] = [:]
        // The store itself (and its journal files) may sit in the folder being walked, e.g. a
        // manifest's `store = "ledger.sqlite"`: it is never an input.
        let store = Self.absolute(service.store.path, base: ".")
        let storeFiles = Set(["", "-wal", "-shm", "-journal"].map { store + $0 })
        for rule in rules {
            for f in Self.expand(rule) where !storeFiles.contains(f.path) {
                let key = f.path
                if settings[key] == nil { order.append(key) }
                settings[key] = (rule.options, f.explicit || (settings[key]?.1 ?? false))
            }
        }
        let files = order
        let frozen = settings
        let state = ProgressState(total: files.count, callback: progress)
        // Parse in parallel, bounded by cores, in chunks so memory stays bounded.
        var results: [BatchFileResult] = []
        let chunk = max(parallelism * 2, 1)
        var start = 0
        outer: while start < files.count {
            let slice = Array(files[start..<min(files.count, start + chunk)])
            let parsed = ParallelMap.map(slice.count, workers: slice.count) { _, i -> ParseOutcome in
                let (opts, explicit) = frozen[slice[i]]!
                do {
                    let (s, sha256) = try service.read(path: slice[i], displayName: Self.display(slice[i]), options: opts)
                    state.parsed(rows: s.records.count, file: slice[i])
                    return .success((s, sha256))
                } catch let e as ImportError {
                    state.parsed(rows: 0, file: slice[i])
                    return !explicit && e.kind == .unrecognized ? .failure(.skipped(e.problem)) : .failure(.failed(e))
                } catch {
                    state.parsed(rows: 0, file: slice[i])
                    return .failure(.failed(ImportError(.malformed, file: slice[i], problem: String(describing: error))))
                }
            }
            for (i, path) in slice.enumerated() {
                let (opts, _) = settings[path]!
                switch parsed[i] {
                case .success((let statement, let sha)):
                    do {
                        let r = try service.apply(statement, fileName: Self.display(path), sha256: sha, options: opts)
                        results.append(BatchFileResult(path: path, outcome: .imported(r)))
                    } catch let e as ImportError {
                        results.append(BatchFileResult(path: path, outcome: .failed(e)))
                    } catch {
                        results.append(
                            BatchFileResult(
                                path: path, outcome: .failed(ImportError(.rejected, file: path, problem: String(describing: error)))))
                    }
                case .failure(let outcome):
                    results.append(BatchFileResult(path: path, outcome: outcome))
                }
                state.applied(file: path)
                if failFast, case .failed = results.last!.outcome { break outer }
            }
            start += chunk
        }
        return results
    }
}

enum ParseOutcome: Sendable {
    case success((ImportedStatement, String))
    case failure(BatchFileResult.Outcome)
}

/// Results written by parallel workers.
final class ProgressState: @unchecked Sendable {
    private let lock = NSLock()
    private var p: BatchProgress
    private let callback: (@Sendable (BatchProgress) -> Void)?
    init(total: Int, callback: (@Sendable (BatchProgress) -> Void)?) {
        p = BatchProgress(filesTotal: total, filesParsed: 0, filesApplied: 0, rows: 0, current: "")
        self.callback = callback
    }
    func parsed(rows: Int, file: String) {
        lock.lock(); defer { lock.unlock() }
        p.filesParsed += 1; p.rows += rows; p.current = file
        callback?(p)
    }
    func applied(file: String) {
        lock.lock(); defer { lock.unlock() }
        p.filesApplied += 1; p.current = file
        callback?(p)
    }
}
