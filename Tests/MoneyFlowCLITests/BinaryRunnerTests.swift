import Foundation
import MoneyFlowTestSupport
import Testing

/// The shared runner's less common inputs, each on an outcome of the real binary.
@Suite struct BinaryRunnerTests {
    /// A password on a stdin that is not a terminal is never read: the encrypted ZIP is refused
    /// with the one-line hint (exit 1); the same password through `--password-env` opens it.
    @Test func aPasswordOnStdinThatIsNotATerminalIsNotRead() throws {
        let zip = "Samples/cmb/cmb2024_basic.aes256.zip"
        let piped = try MoneyFlowBinary.run(["import", zip, "--store", try TestPaths.tempStore()], stdin: "DQH9JB\n")
        #expect(piped.status == 1)
        #expect(piped.stderr.contains("password required"), "\(piped.stderr)")
        let fromEnv = try MoneyFlowBinary.run(
            ["import", zip, "--password-env", "MF_PW", "--store", try TestPaths.tempStore()],
            env: ["MF_PW": "DQH9JB"])
        #expect(fromEnv.status == 0, "\(fromEnv.stderr)")
    }

    /// A started process is watched until it ends, then collected once with its output.
    @Test func aSpawnedProcessIsSeenToEndAndThenCollected() throws {
        let child = try MoneyFlowBinary.spawn(["--help"])
        let deadline = Date().addingTimeInterval(60)
        while !child.hasExited && Date() < deadline { usleep(10_000) }
        #expect(child.hasExited)
        let r = try child.wait()
        #expect(r.status == 0 && r.signal == 0)
        #expect(r.stdout.contains("moneyflow"), "\(r.stdout)")
    }
}
