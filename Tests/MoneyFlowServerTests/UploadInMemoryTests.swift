import Foundation
import MoneyFlowTestSupport
import Testing

@testable import MoneyFlowServer

/// An upload (`POST /v1/imports`) is imported from the request's bytes: nothing of it is ever
/// written to disk, neither in the temporary folder nor next to the user's ledger.
@Suite("Uploads are imported from memory")
struct UploadInMemoryTests {
    /// Every path below `folder`, relative to it.
    static func tree(_ folder: String) -> Set<String> {
        Set((FileManager.default.enumerator(atPath: folder)?.allObjects as? [String]) ?? [])
    }

    @Test("a CSV and a password-protected CMB ZIP leave no file in TMPDIR and none beside the ledger")
    func uploadsNeverTouchTheDisk() async throws {
        let tmp = FileManager.default.temporaryDirectory.appendingPathComponent("upload-tmp-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: tmp) }
        let h = try await ServeHarness.start(env: ["TMPDIR": tmp])
        let token = try await h.addUser("alice")
        // The ledger exists before the uploads, so what they add to the data folder shows.
        #expect(try await h.get("/v1/accounts", token: token).status == 200)
        let before = Self.tree(h.data)

        let samples = TestPaths.repoRoot.appendingPathComponent("Samples")
        let csv = try Data(contentsOf: samples.appendingPathComponent("csv/chase_checking.csv"))
        let r1 = try await h.send("POST", "/v1/imports?filename=chase.csv", token: token, body: csv)
        #expect(r1.status == 200, "\(r1.text)")
        let zip = try Data(contentsOf: samples.appendingPathComponent("cmb/cmb2024_basic.aes256.zip"))
        let expected = try JSONSerialization.jsonObject(
            with: Data(contentsOf: samples.appendingPathComponent("cmb/cmb2024_basic.expected.json")))
        let password = try #require((expected as? [String: Any])?["password"] as? String)
        let r2 = try await h.send(
            "POST", "/v1/imports?filename=statement.zip", token: token, body: zip, headers: ["X-MoneyFlow-Password": password])
        #expect(r2.status == 200, "\(r2.text)")
        #expect(((r2.json as? [String: Any])?["new"] as? Int ?? 0) > 0, "\(r2.text)")

        let tmpLeft = Self.tree(tmp)
        #expect(tmpLeft.isEmpty, "the server wrote to TMPDIR: \(tmpLeft.sorted())")
        // Only the ledger's own files (its journal) may be new.
        let added = Self.tree(h.data).subtracting(before).filter { !($0 as NSString).lastPathComponent.hasPrefix("ledger.sqlite") }
        #expect(added.isEmpty, "an upload left files in the data folder: \(added.sorted())")
        await h.stop()
    }

    @Test("an upload's reply is the element `moneyflow import FILE --json` prints for the same file (one batch code)")
    func uploadAnswersAsTheCommand() async throws {
        let dir = try TestPaths.tempDir("upload-vs-cli")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let folder = TestPaths.samples.appendingPathComponent("cmb").path
        let expected = try JSONSerialization.jsonObject(
            with: Data(contentsOf: URL(fileURLWithPath: folder + "/cmb2024_basic.expected.json")))
        let password = try #require((expected as? [String: Any])?["password"] as? String)
        let cli = try MoneyFlowBinary.run(
            ["import", "cmb2024_basic.aes256.zip", "--password-env", "CMB_PW", "--json", "--store", dir + "/cli.sqlite"], cwd: folder,
            env: ["CMB_PW": password])
        try #require(cli.status == 0, "\(cli.stderr)")
        let printed = try #require(try JSONSerialization.jsonObject(with: Data(cli.stdout.utf8)) as? [Any])

        let h = try await ServeHarness.start()
        let token = try await h.addUser("alice")
        let r = try await h.send(
            "POST", "/v1/imports?filename=cmb2024_basic.aes256.zip", token: token,
            body: try Data(contentsOf: URL(fileURLWithPath: folder + "/cmb2024_basic.aes256.zip")),
            headers: ["X-MoneyFlow-Password": password])
        #expect(r.status == 200, "\(r.text)")
        // The same object but for the batch id (a server's ledger numbers its batches in blocks of its own).
        var command = try #require(printed.first as? [String: Any]), answer = try #require(r.json as? [String: Any])
        #expect(command.removeValue(forKey: "batch") is Int && answer.removeValue(forKey: "batch") is Int)
        #expect(
            printed.count == 1 && NSDictionary(dictionary: command) == NSDictionary(dictionary: answer),
            "CLI: \(cli.stdout)\nHTTP: \(r.text)")
        await h.stop()
    }

    @Test("an uploads/ folder an older server left (killed during an import) is removed when serve starts")
    func leftoverUploadsRemovedAtStart() async throws {
        let data = try TestPaths.tempDir("serve-leftover-uploads")
        let users = try UserDirectory(dataDirectory: data)
        let (alice, _) = try users.add(name: "alice")
        #expect(try users.prepareLedgerFolder(for: alice))
        let uploads = users.ledgerFolder(for: alice) + "/uploads"
        try FileManager.default.createDirectory(atPath: uploads, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: uploads + "/0F1E.csv", contents: Data("Date,Amount\n".utf8)))
        let h = try await ServeHarness.start(data: data)
        #expect(!FileManager.default.fileExists(atPath: uploads), "the raw statement is still on disk")
        #expect(FileManager.default.fileExists(atPath: users.ledgerFolder(for: alice)))
        let run = await h.stop()
        #expect(run.stderr.contains("left by an older server"), "\(run.stderr)")
    }
}
