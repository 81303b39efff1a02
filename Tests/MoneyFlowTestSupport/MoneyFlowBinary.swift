import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What one `moneyflow` process did.
public struct BinaryRun: Sendable {
    /// Exit code (meaningful when `signal == 0`; -1 when a signal ended the process).
    public var status: Int32
    /// Terminating signal, 0 when the process exited.
    public var signal: Int32
    /// Peak resident set size (wait4 rusage), KiB.
    public var maxRSSKiB: Int
    public var stdout: String
    public var stderr: String
    public var stderrLines: [Substring] { stderr.split(separator: "\n", omittingEmptySubsequences: true) }

    public init(status: Int32, signal: Int32, maxRSSKiB: Int, stdout: String, stderr: String) {
        self.status = status; self.signal = signal; self.maxRSSKiB = maxRSSKiB; self.stdout = stdout; self.stderr = stderr
    }
}

/// A started `moneyflow` process. Output goes to files (no pipe can fill up and block it).
public final class BinaryChild: @unchecked Sendable {
    public let pid: pid_t
    let outPath: String
    let errPath: String
    let inPath: String?
    /// The arguments it was started with (its command names it when it has to be killed).
    let args: [String]
    init(pid: pid_t, outPath: String, errPath: String, inPath: String?, args: [String]) {
        self.pid = pid; self.outPath = outPath; self.errPath = errPath; self.inPath = inPath; self.args = args
    }

    /// What the process has written to stderr so far (it may still be running).
    public func stderrSoFar() -> String { (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "" }

    /// What the process has written to stdout so far (it may still be running).
    public func stdoutSoFar() -> String { (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "" }

    /// True once the process has ended (it stays waitable: ``wait(timeout:)`` still collects it).
    public var hasExited: Bool {
        var info = siginfo_t()
        guard waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 else { return false }
        // With WNOHANG and nothing to report, waitid succeeds and leaves the pid 0.
        #if os(Linux)
            return info._sifields._sigchld.si_pid == pid
        #else
            return info.si_pid == pid
        #endif
    }

    /// The address a started `moneyflow serve` says it listens on (`http://HOST:PORT` from its
    /// first line), waited for like every wait (``ChildWait/until(pid:what:timeout:ended:)``:
    /// past `timeout` the server is killed and ``ChildTimeout`` thrown); nil when it ended first
    /// (``wait(timeout:)`` then collects it with the reason on its stderr).
    public func listeningURL(timeout: Duration = ChildWait.startTimeout) throws(ChildTimeout) -> String? {
        var url: String?
        try ChildWait.until(pid: pid, what: "moneyflow \(args.prefix(2).joined(separator: " ")) (start)", timeout: timeout) {
            if let line = stdoutSoFar().split(separator: "\n").first(where: { $0.contains("listening on http://") }),
                let r = line.range(of: "http://")
            {
                url = String(line[r.lowerBound...].prefix { !$0.isWhitespace })
            }
            return url != nil || hasExited
        }
        return url
    }

    /// Waits for the process, at most `timeout` (past it the process is killed and
    /// ``ChildTimeout`` thrown, see ``ChildWait``), then collects it (wait4, so we get its own
    /// peak memory) with its output and removes the output files.
    public func wait(timeout: Duration = ChildWait.commandTimeout) throws(ChildTimeout) -> BinaryRun {
        do throws(ChildTimeout) {
            try ChildWait.until(pid: pid, what: "moneyflow \(args.prefix(2).joined(separator: " "))", timeout: timeout) { hasExited }
        } catch {
            var timedOut = error
            timedOut.run = collect()
            throw timedOut
        }
        return collect()
    }

    private func collect() -> BinaryRun {
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let signal = status & 0x7F
        let out = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
        let err = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        for path in [outPath, errPath] + (inPath.map { [$0] } ?? []) { unlink(path) }
        return BinaryRun(
            status: signal == 0 ? (status >> 8) & 0xFF : -1, signal: signal, maxRSSKiB: Int(usage.ru_maxrss),
            stdout: out, stderr: err)
    }
}

/// The one way the tests run the real `moneyflow` binary built next to the test bundle.
public enum MoneyFlowBinary {
    /// The built `moneyflow` executable.
    public static var path: URL {
        var dir = Bundle.main.bundleURL
        for _ in 0..<3 {
            let candidate = dir.appendingPathComponent("moneyflow")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return TestPaths.repoRoot.appendingPathComponent(".build/debug/moneyflow")
    }

    /// Starts `moneyflow args...` in `cwd` (default: the repository root), stdin from `stdin`
    /// (default /dev/null), stdout/stderr to files in `logDir` (default: the temp folder).
    /// `env` is added to this process's environment without `MONEYFLOW_STORE` (so a developer's
    /// own store is never touched); `umask` (e.g. 0) runs it under that file-creation mask;
    /// `wrapper` prefixes the command (e.g. strace, setpriv).
    public static func spawn(
        _ args: [String], cwd: String = TestPaths.repoRoot.path, env: [String: String] = [:],
        stdin: String? = nil, logDir: String? = nil, umask: Int? = nil,
        wrapper: [String] = []
    ) throws -> BinaryChild {
        let logs = logDir ?? FileManager.default.temporaryDirectory.path
        let tag = UUID().uuidString.prefix(8)
        let outPath = "\(logs)/.mf-\(tag).out", errPath = "\(logs)/.mf-\(tag).err"
        var inPath: String?
        if let stdin {
            inPath = "\(logs)/.mf-\(tag).in"
            try Data(stdin.utf8).write(to: URL(fileURLWithPath: inPath!))
        }
        var fa = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&fa)
        defer { posix_spawn_file_actions_destroy(&fa) }
        posix_spawn_file_actions_addopen(&fa, 0, inPath ?? "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&fa, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&fa, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var environment = ProcessInfo.processInfo.environment
        environment["MONEYFLOW_STORE"] = nil
        for (k, v) in env { environment[k] = v }
        // `env -C DIR` sets the working folder, then execs moneyflow in the same process
        // (posix_spawn_file_actions_addchdir_np is not visible from Swift's Glibc module).
        var command = ["/usr/bin/env", "-C", cwd] + wrapper + [path.path] + args
        if let umask { command = ["/bin/sh", "-c", "umask \(String(umask, radix: 8)) && exec \"$@\"", "sh"] + command }
        let argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { argv.forEach { free($0) }; envp.forEach { free($0) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, command[0], &fa, nil, argv, envp)
        guard rc == 0 else { throw POSIXError(POSIXErrorCode(rawValue: rc) ?? .EIO) }
        return BinaryChild(pid: pid, outPath: outPath, errPath: errPath, inPath: inPath, args: args)
    }

    /// Runs `moneyflow args...` to the end, bounded like every wait (see
    /// ``spawn(_:cwd:env:stdin:logDir:umask:wrapper:)`` and ``BinaryChild/wait(timeout:)``).
    public static func run(
        _ args: [String], cwd: String = TestPaths.repoRoot.path, env: [String: String] = [:],
        stdin: String? = nil, logDir: String? = nil, umask: Int? = nil,
        wrapper: [String] = []
    ) throws -> BinaryRun {
        try spawn(args, cwd: cwd, env: env, stdin: stdin, logDir: logDir, umask: umask, wrapper: wrapper).wait()
    }
}
