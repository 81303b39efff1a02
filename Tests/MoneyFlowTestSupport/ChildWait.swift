import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A child process that did not end by its deadline. It was killed (SIGKILL) and, when the
/// tests started it themselves, collected (`run`): a test fails with this instead of hanging
/// CI on a child that never ends (a server that ignores SIGTERM, a command stuck on a lock).
public struct ChildTimeout: Error, CustomStringConvertible {
    /// What the child was (`moneyflow serve ...`, `psql`).
    public var what: String
    public var timeout: Duration
    /// What the child printed before it was killed, when the tests collect its output.
    public var run: BinaryRun?

    public var description: String {
        let said = run.map { $0.stderr.split(separator: "\n").suffix(3).joined(separator: " | ") } ?? ""
        return "\(what) did not end within \(timeout.components.seconds) s and was killed (SIGKILL)"
            + (said.isEmpty ? "" : "; it said: \(said)")
    }
}

/// The one way the tests wait for a child process to end: against a deadline, so no child can
/// hang a test run. `moneyflow` children (``BinaryChild/wait(timeout:)``) and Foundation
/// `Process` children (psql, bean-check, the Plaid test server) both wait through
/// ``until(pid:what:timeout:ended:)``.
public enum ChildWait {
    /// How long one command may run: far beyond the slowest command of the suite on two busy
    /// cores, so only a child that hangs ever reaches it.
    public static let commandTimeout: Duration = .seconds(600)
    /// How long a server may take to start listening (it binds at once; only a server that
    /// hangs before binding ever reaches this).
    public static let startTimeout: Duration = .seconds(60)
    /// How long a server may take to end after SIGTERM (a graceful shutdown takes well under
    /// a second).
    public static let stopTimeout: Duration = .seconds(60)

    /// Returns once `ended()` says the child `pid` has ended (or done what the caller waits for,
    /// such as printing a line). Past `timeout` it kills the child with SIGKILL, waits (at most
    /// another `stopTimeout`) for that to land, and throws ``ChildTimeout``. The child must not
    /// have been collected yet, and `ended` must not collect it (a zombie keeps its pid, so the
    /// SIGKILL can never reach another process).
    public static func until(pid: pid_t, what: String, timeout: Duration, ended: () -> Bool) throws(ChildTimeout) {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        var pause: useconds_t = 500
        while !ended() {
            if clock.now >= deadline {
                kill(pid, SIGKILL)
                let gone = clock.now + stopTimeout
                while !ended() && clock.now < gone { usleep(10_000) }
                throw ChildTimeout(what: what, timeout: timeout)
            }
            usleep(pause)
            pause = min(pause * 2, 20_000)
        }
    }

    /// Waits for a started Foundation `Process` (see ``until(pid:what:timeout:ended:)``).
    public static func process(_ p: Process, what: String, timeout: Duration = commandTimeout) throws(ChildTimeout) {
        try until(pid: p.processIdentifier, what: what, timeout: timeout) { !p.isRunning }
        p.waitUntilExit()
    }
}
