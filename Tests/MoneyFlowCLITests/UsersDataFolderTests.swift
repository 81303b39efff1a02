import Foundation
import MoneyFlowTestSupport
import Testing

/// `users list/remove/rotate-token` on a folder that holds no users say so and create nothing:
/// only `users add` makes a server's data folder.
@Suite("users: the data folder")
struct UsersDataFolderTests {
    @Test(arguments: [["list"], ["remove", "alice"], ["rotate-token", "alice"]])
    func readingANonServerFolderCreatesNothing(_ command: [String]) throws {
        let dir = try TestPaths.tempDir("users-data")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let data = "\(dir)/typo"
        let r = try MoneyFlowBinary.run(["users"] + command + ["--data", data])
        #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
        #expect(r.stderr.contains("holds no users"), "\(r.stderr)")
        #expect(r.stderr.contains("moneyflow users add"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: data), "\(command) created \(data)")
    }

    @Test func addCreatesTheFolderAndListReadsIt() throws {
        let dir = try TestPaths.tempDir("users-data")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let data = "\(dir)/server"
        let added = try MoneyFlowBinary.run(["users", "add", "alice", "--data", data])
        #expect(added.status == 0, "\(added.stderr)")
        let listed = try MoneyFlowBinary.run(["users", "list", "--format", "json", "--data", data])
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.contains("\"alice\""))
    }
}
