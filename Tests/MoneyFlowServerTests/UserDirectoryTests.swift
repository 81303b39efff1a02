import Foundation
import MoneyFlowHTTPTestSupport
import MoneyFlowTestSupport
import Testing

@testable import MoneyFlowServer

@Suite("server users: tokens shown once, stored as hashes")
struct UserDirectoryTests {
    let dir: String
    init() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("users-\(UUID().uuidString)").path
    }

    @Test("add, authenticate, rotate, remove; names checked; the token itself is nowhere on disk")
    func lifecycle() throws {
        let users = try UserDirectory(dataDirectory: dir)
        let (alice, token) = try users.add(name: "alice")
        #expect(token.hasPrefix("mf_") && token.count == 46)
        #expect(try users.authenticate(token: token) == alice)
        #expect(try users.authenticate(token: token + "x") == nil)
        #expect(try users.authenticate(token: "mf_" + String(repeating: "A", count: 43)) == nil)
        #expect(throws: UserDirectoryError.self) { try users.add(name: "alice") }
        for bad in ["", "a b", "../x", "名字", String(repeating: "x", count: 65)] {
            #expect(throws: UserDirectoryError.self) { try users.add(name: bad) }
        }
        let (bob, bobToken) = try users.add(name: "bob")
        #expect(bob.id != alice.id && !users.ledgerPath(for: bob).contains("bob"))
        let rotated = try users.rotateToken(name: "alice")
        #expect(try users.authenticate(token: token) == nil, "the old token stops at once")
        #expect(try users.authenticate(token: rotated)?.id == alice.id)
        try users.setItemOwner(itemID: "item-1", user: bob)
        #expect(try users.owner(ofItem: "item-1")?.id == bob.id)
        #expect(try users.owner(ofItem: "item-2") == nil)
        // Only hashes are stored.
        for name in try FileManager.default.contentsOfDirectory(atPath: dir) where name.hasPrefix("users.sqlite") {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: dir + "/" + name))
            for t in [token, rotated, bobToken] { #expect(bytes.range(of: Data(t.utf8)) == nil, "\(name) holds a token") }
        }
        let mode = (try FileManager.default.attributesOfItem(atPath: dir)[.posixPermissions] as? NSNumber)?.intValue
        #expect(mode == 0o700)
        #expect(try users.prepareLedgerFolder(for: bob))
        try users.remove(name: "bob")
        #expect(try users.authenticate(token: bobToken) == nil)
        #expect(try users.owner(ofItem: "item-1") == nil)
        let removed = try FileManager.default.contentsOfDirectory(atPath: dir + "/removed")
        #expect(removed.count == 1 && removed[0].hasPrefix(bob.id), "the ledger folder is kept aside")
        #expect(throws: UserDirectoryError.self) { try users.remove(name: "bob") }
        #expect(try users.list().map(\.name) == ["alice"])
        // Each user's ids come from their own block; a number is never handed out twice.
        let (carol, _) = try users.add(name: "carol")
        #expect(alice.number == 1 && bob.number == 2 && carol.number == 3)
        #expect(carol.idBase == 3 << 36)
    }

    @Test("20 users added at once through two directories on one folder: every name once, every number once, every token works")
    func concurrentAdds() async throws {
        let a = try UserDirectory(dataDirectory: dir), b = try UserDirectory(dataDirectory: dir)
        let tokens = try await withThrowingTaskGroup(of: (String, String).self) { group in
            for k in 0..<20 {
                group.addTask {
                    let (user, token) = try (k % 2 == 0 ? a : b).add(name: "user\(k)")
                    return (user.name, token)
                }
            }
            var out: [(String, String)] = []
            for try await x in group { out.append(x) }
            return out
        }
        let users = try a.list()
        #expect(users.count == 20 && Set(users.map(\.number)).count == 20)
        for (name, token) in tokens { #expect(try await b.authenticate(token: token)?.name == name) }
    }

    @Test("the CLI: users add prints the token as its last line; list never shows it; rotate-token replaces it")
    func cli() async throws {
        let add = try await waitOffPool(try MoneyFlowBinary.spawn(["users", "add", "dana", "--data", dir]))
        #expect(add.status == 0, "\(add.stderr)")
        let token = try #require(add.stdout.split(separator: "\n").last.map(String.init))
        let users = try UserDirectory(dataDirectory: dir)
        #expect(try await users.authenticate(token: token)?.name == "dana")
        let list = try await waitOffPool(try MoneyFlowBinary.spawn(["users", "list", "--data", dir, "--format", "json"]))
        #expect(list.status == 0 && list.stdout.contains("\"dana\"") && !list.stdout.contains(token))
        let again = try await waitOffPool(try MoneyFlowBinary.spawn(["users", "add", "dana", "--data", dir]))
        #expect(again.status == 1 && again.stderr.contains("exists already"))
        let rotate = try await waitOffPool(try MoneyFlowBinary.spawn(["users", "rotate-token", "dana", "--data", dir]))
        let newToken = try #require(rotate.stdout.split(separator: "\n").last.map(String.init))
        #expect(newToken != token)
        let byNew = try await users.authenticate(token: newToken), byOld = try await users.authenticate(token: token)
        #expect(byNew != nil && byOld == nil)
        let noData = try await waitOffPool(try MoneyFlowBinary.spawn(["users", "list"]))
        #expect(noData.status == 1 && noData.stderr.contains("--data"))
    }
}
