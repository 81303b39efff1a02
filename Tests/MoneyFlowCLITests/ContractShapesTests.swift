import Foundation
import MoneyFlowCore
import MoneyFlowTestSupport
import Testing

@testable import MoneyFlowPipeline

/// The reply shapes both shells print come from ``Contracts``: a failed or skipped file of
/// `import --json`, and `{transfers, review}` of `transfers --format json` and `GET /v1/transfers`.
@Suite struct ContractShapesTests {
    @Test func failedAndSkippedFilesKeepTheirKeys() {
        let failed = BatchFileResult(path: "/nowhere/a.csv", outcome: .failed(ImportError(.malformed, file: "a.csv", problem: "bad row")))
        let skipped = BatchFileResult(path: "/nowhere/notes.txt", outcome: .skipped("not a recognised statement"))
        #expect(
            Contracts.batchFile(failed, includePlan: true).render()
                == #"{"file":"/nowhere/a.csv","status":"failed","error":"a.csv: bad row"}"#)
        #expect(
            Contracts.batchFile(skipped, includePlan: false).render()
                == #"{"file":"/nowhere/notes.txt","status":"skipped","reason":"not a recognised statement"}"#)
    }

    @Test func transfersReplyIsTwoLists() {
        #expect(Contracts.transfers(linked: [], review: []).render() == #"{"transfers":[],"review":[]}"#)
    }

    /// The CLI prints the one shape: `transfers --format json` of the transfer samples is
    /// `Contracts.transfers` of the store's transfers.
    @Test func transfersCommandPrintsTheContract() throws {
        let store = try CLI.tempStore()
        let imported = try CLI.run(["import", CLI.repoRoot.path + "/Samples/transfers/us_quarter"], store: store)
        #expect(imported.status == 0, "\(imported.stderr)")
        let printed = try CLI.run(["transfers", "--format", "json"], store: store)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(printed.stdout.utf8)) as? [String: Any])
        #expect(Array(object.keys).sorted() == ["review", "transfers"])
        #expect(((object["transfers"] as? [Any]) ?? []).count > 0)
    }
}
