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

/// One file of a batch: a file on disk, or bytes already in memory (an upload to the server,
/// which is never written to disk), with the settings it is imported with.
public struct BatchItem: Sendable {
    public enum Source: Sendable {
        case path(String)
        /// The bytes and the name they are known by (the uploaded file's name).
        case bytes(Data, name: String)
    }
    public var source: Source
    public var options: FileImportOptions
    /// The user named this file (an unrecognised one is then an error, not skipped).
    public var explicit: Bool

    public init(_ source: Source, options: FileImportOptions, explicit: Bool = true) {
        self.source = source; self.options = options; self.explicit = explicit
    }

    /// The path, or the bytes' name: what the batch's result names the file by.
    public var path: String {
        switch source {
        case .path(let p): return p
        case .bytes(_, let name): return name
        }
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
    /// The error as it was thrown when it was not an ``ImportError`` (a store refusal), which
    /// `outcome` holds as a file's failure: a shell that answers per kind of error (the
    /// server's statuses) answers with this one.
    public var cause: (any Error)? = nil
    public var displayPath: String { BatchRunner.display(path) }

    /// The imported file's result, or what failed thrown (``cause`` when there is one): for a
    /// shell that imports one file and answers with it or with its error.
    public func imported() throws -> FileImportResult {
        switch outcome {
        case .imported(let r): return r
        case .failed(let e): throw cause ?? e
        case .skipped(let why): throw ImportError(.unrecognized, file: displayPath, problem: why)
        }
    }
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

    /// Runs the batch of the files `rules` name. `progress` is called as files are parsed and applied.
    public func run(_ rules: [FileRule], progress: (@Sendable (BatchProgress) -> Void)? = nil) -> [BatchFileResult] {
        // Expand; a later rule's settings win for a file named twice.
        var order: [String] = []
        var settings: [String: BatchItem] = [:]
        // The store itself (and its journal files) may sit in the folder being walked, e.g. a
        // manifest's `store = "ledger.sqlite"`: it is never an input.
        let store = Self.absolute(service.store.path, base: ".")
        let storeFiles = Set(["", "-wal", "-shm", "-journal"].map { store + $0 })
        for rule in rules {
            for f in Self.expand(rule) where !storeFiles.contains(f.path) {
                let key = f.path
                if settings[key] == nil { order.append(key) }
                settings[key] = BatchItem(.path(key), options: rule.options, explicit: f.explicit || (settings[key]?.explicit ?? false))
            }
        }
        return run(items: order.map { settings[$0]! }, progress: progress)
    }

    /// Runs a batch of files given one by one, in this order: the one batch code of the CLI's
    /// `import` and the server's upload (`POST /v1/imports`, one item of bytes).
    public func run(items files: [BatchItem], progress: (@Sendable (BatchProgress) -> Void)? = nil) -> [BatchFileResult] {
        let state = ProgressState(total: files.count, callback: progress)
        // Parse in parallel, bounded by cores, in chunks so memory stays bounded.
        var results: [BatchFileResult] = []
        let chunk = max(parallelism * 2, 1)
        var start = 0
        outer: while start < files.count {
            let slice = Array(files[start..<min(files.count, start + chunk)])
            let parsed = ParallelMap.map(slice.count, workers: slice.count) { _, i -> ParseOutcome in
                let item = slice[i]
                do {
                    let (s, sha256) = try read(item)
                    state.parsed(rows: s.records.count, file: item.path)
                    return .success((s, sha256))
                } catch let e as ImportError {
                    state.parsed(rows: 0, file: item.path)
                    return !item.explicit && e.kind == .unrecognized ? .failure(.skipped(e.problem), nil) : .failure(.failed(e), nil)
                } catch {
                    state.parsed(rows: 0, file: item.path)
                    return .failure(.failed(ImportError(.malformed, file: item.path, problem: String(describing: error))), error)
                }
            }
            for (i, item) in slice.enumerated() {
                let path = item.path
                switch parsed[i] {
                case .success((let statement, let sha)):
                    do {
                        let r = try service.apply(statement, fileName: Self.display(path), sha256: sha, options: item.options)
                        results.append(BatchFileResult(path: path, outcome: .imported(r)))
                    } catch let e as ImportError {
                        results.append(BatchFileResult(path: path, outcome: .failed(e)))
                    } catch {
                        results.append(
                            BatchFileResult(
                                path: path, outcome: .failed(ImportError(.rejected, file: path, problem: String(describing: error))),
                                cause: error))
                    }
                case .failure(let outcome, let cause):
                    results.append(BatchFileResult(path: path, outcome: outcome, cause: cause))
                }
                state.applied(file: path)
                if failFast, case .failed = results.last!.outcome { break outer }
            }
            start += chunk
        }
        return results
    }

    /// One item's statement and the SHA-256 of its bytes.
    func read(_ item: BatchItem) throws -> (statement: ImportedStatement, sha256: String) {
        switch item.source {
        case .path(let path): return try service.read(path: path, displayName: Self.display(path), options: item.options)
        case .bytes(let data, let name): return try service.read(data: data, fileName: name, options: item.options)
        }
    }
}

enum ParseOutcome: Sendable {
    case success((ImportedStatement, String))
    /// The outcome, and the error as thrown when it was not an ``ImportError``.
    case failure(BatchFileResult.Outcome, (any Error)?)
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
