import Foundation
import MoneyFlowTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The test support every suite relies on: waits that end, and one reading of the CI flag.
@Suite struct TestSupportTests {
    /// A child that ignores SIGTERM (a server that never shuts down) fails the wait at its
    /// deadline, killed and collected, instead of hanging the run. The child is a shell that
    /// ignores SIGTERM and then becomes a 30 s sleep (an ignored signal stays ignored across exec).
    @Test func aChildThatIgnoresSIGTERMFailsTheWaitAtItsDeadline() throws {
        let child = try MoneyFlowBinary.spawn(["serve"], wrapper: ["/bin/sh", "-c", "trap '' TERM; echo ready; exec sleep 30", "sh"])
        // SIGTERM only once the trap is set (bounded like every wait here).
        try ChildWait.until(pid: child.pid, what: "the shell's trap", timeout: .seconds(60)) {
            child.stdoutSoFar().contains("ready") || child.hasExited
        }
        kill(child.pid, SIGTERM)
        let error = #expect(throws: ChildTimeout.self) { try child.wait(timeout: .seconds(2)) }
        #expect(error?.run?.signal == SIGKILL, "killed at the deadline, then collected")
        #expect(error?.run?.stdout == "ready\n")
        #expect(error?.description == "moneyflow serve did not end within 2 s and was killed (SIGKILL)")
    }

    /// A Foundation `Process` child is bounded by the same helper.
    @Test func aProcessChildIsBoundedToo() throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", "exec sleep 30"]
        try p.run()
        let error = #expect(throws: ChildTimeout.self) { try ChildWait.process(p, what: "sleep", timeout: .seconds(1)) }
        #expect(error?.description == "sleep did not end within 1 s and was killed (SIGKILL)")
        #expect(!p.isRunning)
        #expect(p.terminationReason == .uncaughtSignal && p.terminationStatus == SIGKILL)
    }

    /// One reading of `CI` for every test: `true`, `1` or `yes` are CI (the PostgreSQL half once
    /// accepted only `true`, so `CI=1` silently skipped it); unset, empty, `0` and `false` are not.
    @Test func theCIFlagIsReadOneWay() {
        for on in ["true", "TRUE", "1", "yes"] { #expect(TestEnvironment.isCI(["CI": on]), "CI=\(on)") }
        for off in ["", "0", "false", "False"] { #expect(!TestEnvironment.isCI(["CI": off]), "CI=\(off)") }
        #expect(!TestEnvironment.isCI([:]))
    }
}
