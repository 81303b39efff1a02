import Foundation

/// Where the tests find the repository's files, and fresh folders for them to write in.
/// Located through `#filePath`, so no resources are needed.
public enum TestPaths {
    /// The repository root (this file is `Tests/MoneyFlowTestSupport/TestPaths.swift`).
    public static let repoRoot: URL = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// `Samples/` (the sample statements of every format).
    public static let samples = repoRoot.appendingPathComponent("Samples")
    /// The path of `path` under `Samples/` (e.g. `csv/chase_checking.csv`).
    public static func sample(_ path: String) -> String { samples.appendingPathComponent(path).path }
    /// `Tests/BadInputs` (the corpus of inputs that must fail cleanly).
    public static let badInputs = repoRoot.appendingPathComponent("Tests/BadInputs")

    /// A fresh folder under the system temp folder, named `moneyflow-<label>-<uuid>`.
    public static func tempDir(_ label: String) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("moneyflow-\(label)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    /// The path of a store file (not yet created) in a fresh folder.
    public static func tempStore(_ label: String = "cli") throws -> String {
        try tempDir(label) + "/store.sqlite"
    }
}
