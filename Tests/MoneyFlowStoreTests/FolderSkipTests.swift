import Foundation
import MoneyFlowCore
import MoneyFlowPipeline
import MoneyFlowStoreTestSupport
import Testing

@testable import MoneyFlowStore

/// A folder import skips what no importer recognises, but reports a statement-like file it
/// cannot read; the choice is made on the error's kind, never on its wording.
@Suite struct FolderSkipTests {
    @Test(arguments: StoreKind.testable) func unrecognisedFilesAreSkippedAndUnreadableStatementsReported(_ kind: StoreKind) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mf-skip-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.copyItem(
            at: cmbDir.appendingPathComponent("broken/not_cmb.pdf"), to: dir.appendingPathComponent("not_cmb.pdf"))
        try FileManager.default.copyItem(
            at: cmbDir.appendingPathComponent("broken/scanned.pdf"), to: dir.appendingPathComponent("scanned.pdf"))
        try Data("shopping list\n".utf8).write(to: dir.appendingPathComponent("notes.txt"))
        try Data(#"{"name": "x"}"#.utf8).write(to: dir.appendingPathComponent("other.json"))
        let (store, _) = try freshStore(kind)
        let results = BatchRunner(service: ImportService(store: store))
            .run([FileRule(pattern: dir.path, baseDirectory: "/", options: FileImportOptions())])
        var outcomes: [String: String] = [:]
        for r in results {
            switch r.outcome {
            case .imported: outcomes[(r.path as NSString).lastPathComponent] = "imported"
            case .skipped: outcomes[(r.path as NSString).lastPathComponent] = "skipped"
            case .failed(let e): outcomes[(r.path as NSString).lastPathComponent] = "failed \(e.kind): \(e.problem.prefix(19))"
            }
        }
        #expect(
            outcomes == [
                "not_cmb.pdf": "failed notAStatement: not a CMB statement",
                "scanned.pdf": "failed notAStatement: not a CMB statement",
                "notes.txt": "skipped", "other.json": "skipped",
            ])
    }
}
