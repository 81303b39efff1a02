import Foundation

/// The switches the tests read from their environment, each read in one place.
public enum TestEnvironment {
    /// True in CI: `CI` set to anything but empty, `0` or `false` (CI services set `CI=true`,
    /// `.ci/run` too; some set `1`). What is optional on a developer's machine (an outside
    /// checker, the PostgreSQL half of the store suite) is mandatory there: a test that would
    /// skip fails instead.
    public static func isCI(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        let v = environment["CI"] ?? ""
        return !v.isEmpty && v != "0" && v.lowercased() != "false"
    }
}
