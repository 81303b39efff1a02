import Foundation
import MoneyFlowTestSupport
import Testing

/// An export holds the whole ledger: the file `--output` writes is the owner's only (0600, as the
/// store), whatever the umask, both when it is created and when `--force` replaces a file.
@Suite("Export file mode")
struct ExportFileModeTests {
    static func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    @Test func exportedFilesAreTheOwnersOnly() throws {
        let dir = try TestPaths.tempDir("export-mode")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = "\(dir)/s.sqlite"
        let imported = try MoneyFlowBinary.run(["import", "Samples/csv/chase_checking.csv", "--store", store])
        try #require(imported.status == 0, "\(imported.stderr)")
        let out = "\(dir)/ledger.beancount"
        let first = try MoneyFlowBinary.run(["export", "--format", "beancount", "--output", out, "--store", store], umask: 0o022)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try Self.mode(out) == 0o600)

        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: out)
        let forced = try MoneyFlowBinary.run(
            ["export", "--format", "ledger", "--output", out, "--force", "--store", store], umask: 0o022)
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try Self.mode(out) == 0o600)
        #expect(try String(contentsOfFile: out, encoding: .utf8).contains("Assets:"))
        // Nothing else is left in the folder (no temporary file of the replacement).
        let left = try FileManager.default.contentsOfDirectory(atPath: dir).filter { !$0.hasPrefix("s.sqlite") }
        #expect(left == ["ledger.beancount"])
    }
}
