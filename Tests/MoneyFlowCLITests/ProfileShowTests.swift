import Foundation
import Testing

/// `moneyflow profiles --show NAME` prints a profile file a user can save and use.
@Suite struct ProfileShowTests {
    @Test(arguments: [
        ("chase/card", "Samples/csv/chase_card.csv"), ("wells-fargo", "Samples/csv/wells_fargo_checking.csv"),
        ("capital-one/360", "Samples/csv/capital_one_360.csv"), ("cmb", "Samples/cmb/cmb_pc_gbk.csv"),
    ])
    func shownProfileImportsLikeTheBuiltIn(name: String, sample: String) throws {
        let shown = try CLI.run(["profiles", "--show", name], store: nil)
        #expect(shown.status == 0, "\(shown.stderr)")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mf-show-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("mine.toml")
        try Data(shown.stdout.utf8).write(to: file)

        var outputs: [String] = []
        for profile in [name, file.path] {
            let store = dir.appendingPathComponent("\(outputs.count).sqlite").path
            let imp = try CLI.run(["import", sample, "--csv-profile", profile, "--quiet"], store: store)
            #expect(imp.status == 0, "\(profile): \(imp.stderr)")
            let tx = try CLI.run(["transactions", "--format", "json", "--all"], store: store)
            #expect(tx.status == 0)
            outputs.append(tx.stdout)
        }
        #expect(outputs[0].count > 100, "the sample imported nothing")
        #expect(outputs[0] == outputs[1])
    }

    @Test func aNameWithSeveralVariantsAsksForOne() throws {
        let r = try CLI.run(["profiles", "--show", "chase"], store: nil)
        #expect(r.status != 0 && r.stderr.contains("chase/checking") && r.stderr.contains("chase/card"), "\(r.stderr)")
    }
}

/// Manifests are read through TOMLKit: a syntax error names the manifest and its line.
@Suite struct ManifestTOMLErrorTests {
    @Test func syntaxErrorNamesManifestAndLine() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mf-manifest-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let manifest = dir.appendingPathComponent("batch.toml")
        try Data("store = \"x.sqlite\"\n\n[defaults]\nstrict = tru\n".utf8).write(to: manifest)
        let r = try CLI.run(["run", manifest.path, "--dry-run"], store: nil)
        #expect(r.status == 1)
        #expect(r.stderr.contains("\(manifest.path): TOML line 4:"), "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
    }
}
