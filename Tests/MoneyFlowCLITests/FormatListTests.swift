import Foundation
import MoneyFlowPipeline
import MoneyFlowTestSupport
import Testing

/// Every place that lists the formats MoneyFlow reads lists every registered importer: the
/// help texts and errors are built from ``DefaultImporters/registry``; the README synopsis and
/// the OpenAPI document are prose kept in step, checked here.
@Suite struct FormatListTests {
    static let registry = DefaultImporters.registry

    /// Help text with its wrapping undone (ArgumentParser breaks lines and indents them).
    static func unwrapped(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    @Test func topLevelHelpNamesEveryImporter() throws {
        let help = Self.unwrapped(try CLI.run(["--help"], store: nil).stdout)
        for importer in Self.registry.importers {
            #expect(help.contains(importer.displayName), "moneyflow --help does not name \(importer.id): \(help)")
        }
    }

    @Test func importHelpNamesEveryImporterAndID() throws {
        let help = Self.unwrapped(try CLI.run(["import", "--help"], store: nil).stdout)
        for importer in Self.registry.importers {
            #expect(help.contains(importer.displayName), "import --help does not name \(importer.id): \(help)")
        }
        #expect(help.contains("auto, " + Self.registry.ids.joined(separator: ", ")), "\(help)")
    }

    @Test func unknownFormatErrorListsEveryID() throws {
        let store = try CLI.tempStore()
        let r = try CLI.run(
            ["import", CLI.repoRoot.path + "/Samples/csv/chase_checking.csv", "--format", "nope"], store: store)
        #expect(r.status == 1)
        #expect(r.stderr.contains("(known: " + Self.registry.ids.joined(separator: ", ") + ")"), "\(r.stderr)")
    }

    @Test func readmeSynopsisListsEveryID() throws {
        let readme = try String(contentsOf: CLI.repoRoot.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("[--format auto|" + Self.registry.ids.joined(separator: "|") + "]"))
    }

    @Test func openAPIImportDescriptionListsEveryID() throws {
        let url = CLI.repoRoot.appendingPathComponent("Sources/MoneyFlowServer/OpenAPI/openapi.json")
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        let paths = try #require(doc["paths"] as? [String: Any])
        let post = try #require((paths["/v1/imports"] as? [String: Any])?["post"] as? [String: Any])
        let parameters = try #require(post["parameters"] as? [[String: Any]])
        let filename = try #require(parameters.first { $0["name"] as? String == "filename" })
        let description = try #require(filename["description"] as? String)
        for id in Self.registry.ids { #expect(description.contains("`\(id)`"), "POST /v1/imports does not list \(id)") }
    }
}
