import Foundation
import MoneyFlowCore
import MoneyFlowTestSupport

/// Monotonic wall clock in seconds.
@inline(__always) func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// CPU time (user + system) of this process, all threads, in seconds.
func cpuSeconds() -> Double {
    var ru = rusage()
    getrusage(0, &ru)   // RUSAGE_SELF
    return Double(ru.ru_utime.tv_sec) + Double(ru.ru_utime.tv_usec) / 1e6 + Double(ru.ru_stime.tv_sec) + Double(ru.ru_stime.tv_usec) / 1e6
}

/// A field of /proc/self/status in KiB (VmHWM = peak resident set, VmRSS = current).
func procStatusKiB(_ field: String) -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return -1 }
    for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
        let digits = line.dropFirst(field.count + 1).filter(\.isNumber)
        return Int(digits) ?? -1
    }
    return -1
}

func peakMiB() -> Double { Double(procStatusKiB("VmHWM")) / 1024 }

/// Starts a new peak (VmHWM) from what the process holds now: memory freed so far is handed back
/// to the system first (`malloc_trim`), then the kernel's high-water mark is reset
/// (`/proc/self/clear_refs`, "5"). A later ``peakMiB()`` is then the peak of what ran since, as
/// a fresh process holding the same data would see it.
func restartPeak() {
    typealias Trim = @convention(c) (Int) -> Int32   // glibc's malloc_trim, not in Swift's Glibc module
    if let f = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") { _ = unsafeBitCast(f, to: Trim.self)(0) }
    if let f = fopen("/proc/self/clear_refs", "w") { fputs("5", f); fclose(f) }
}

/// Measures a closure: wall seconds, CPU seconds.
func measure<T>(_ body: () throws -> T) rethrows -> (T, wall: Double, cpu: Double) {
    let c0 = cpuSeconds(), t0 = now()
    let r = try body()
    return (r, now() - t0, cpuSeconds() - c0)
}

/// One result line: a flat JSON object printed on stdout (run.sh collects them).
struct ResultLine {
    var fields: [(String, String)] = []
    mutating func set(_ k: String, _ v: String) { fields.append((k, JSONString.quoted(v, lineSeparators: .escaped))) }
    mutating func set(_ k: String, _ v: Int) { fields.append((k, String(v))) }
    mutating func set(_ k: String, _ v: Double) { fields.append((k, v.isFinite ? String(format: "%.6g", v) : "null")) }
    mutating func set(_ k: String, _ v: Bool) { fields.append((k, v ? "true" : "false")) }
    func emit() {
        print("{" + fields.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}")
    }
}


struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}

/// Command-line options: `--key value` pairs and bare flags.
struct Args {
    var values: [String: String] = [:]
    var flags: Set<String> = []
    init(_ argv: ArraySlice<String>) {
        var i = argv.startIndex
        while i < argv.endIndex {
            let a = argv[i]
            if a.hasPrefix("--") {
                let k = String(a.dropFirst(2))
                if i + 1 < argv.endIndex, !argv[i + 1].hasPrefix("--") { values[k] = argv[i + 1]; i += 2 } else { flags.insert(k); i += 1 }
            } else { i += 1 }
        }
    }
    func int(_ k: String, _ d: Int) -> Int { values[k].flatMap { Int($0.replacingOccurrences(of: "_", with: "")) } ?? d }
    func string(_ k: String, _ d: String) -> String { values[k] ?? d }
    func has(_ k: String) -> Bool { flags.contains(k) || values[k] != nil }
}
