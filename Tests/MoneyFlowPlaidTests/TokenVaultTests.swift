import Foundation
import Testing

@testable import MoneyFlowPlaid

@Suite("Token vault: AES-GCM under a key file outside the store")
struct TokenVaultTests {
    let dir: String

    init() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("vault-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    @Test("the first use creates a 0600 key file in a 0700 folder; the token round-trips and is not in the sealed bytes")
    func createsKeyAndRoundTrips() throws {
        let keyFile = dir + "/config/moneyflow/plaid.key"
        let vault = try TokenVault.open(keyFile: keyFile, mayCreate: true)
        let attributes = try FileManager.default.attributesOfItem(atPath: keyFile)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let folder = try FileManager.default.attributesOfItem(atPath: dir + "/config/moneyflow")
        #expect((folder[.posixPermissions] as? NSNumber)?.intValue == 0o700)
        let token = "access-sandbox-8ab976e6-64bc-4b38-98f7-731e7a349970"
        let sealed = try vault.seal(token, itemID: "item-1")
        #expect(sealed.range(of: Data(token.utf8)) == nil)
        #expect(sealed.range(of: Data("8ab976e6".utf8)) == nil)
        #expect(try vault.open(sealed, itemID: "item-1") == token)
        // Sealing twice gives different bytes (a fresh nonce each time).
        #expect(try vault.seal(token, itemID: "item-1") != sealed)
        // The same key file opens it again in a later run.
        let again = try TokenVault.open(keyFile: keyFile, mayCreate: false, storeKeyID: vault.keyID)
        #expect(try again.open(sealed, itemID: "item-1") == token)
    }

    @Test("a token sealed for one item does not open as another item's")
    func itemIDIsAuthenticated() throws {
        let vault = try TokenVault.open(keyFile: dir + "/k", mayCreate: true)
        let sealed = try vault.seal("access-sandbox-x", itemID: "item-1")
        #expect(throws: VaultError.self) { try vault.open(sealed, itemID: "item-2") }
    }

    @Test("a missing key file is an error naming the key the store needs; it is not silently recreated")
    func missingKeyIsAnError() throws {
        let error = #expect(throws: VaultError.self) {
            try TokenVault.open(keyFile: dir + "/gone.key", mayCreate: false, storeKeyID: "0123456789abcdef")
        }
        #expect(error?.description.contains("0123456789abcdef") == true)
        #expect(error?.description.contains("gone.key") == true)
        #expect(!FileManager.default.fileExists(atPath: dir + "/gone.key"))
    }

    @Test("a different key is refused by id before any token is tried, and a wrong key cannot open a token")
    func wrongKeyIsAnError() throws {
        let a = try TokenVault.open(keyFile: dir + "/a.key", mayCreate: true)
        let b = try TokenVault.open(keyFile: dir + "/b.key", mayCreate: true)
        #expect(a.keyID != b.keyID)
        let error = #expect(throws: VaultError.self) { try TokenVault.open(keyFile: dir + "/b.key", mayCreate: false, storeKeyID: a.keyID) }
        #expect(error?.description.contains(a.keyID) == true)
        let sealed = try a.seal("access-sandbox-y", itemID: "item-1")
        #expect(throws: VaultError.self) { try b.open(sealed, itemID: "item-1") }
    }

    @Test("a key file others can read is refused; a file that is not a key is refused")
    func unsafeOrBrokenKeyFile() throws {
        let path = dir + "/loose.key"
        _ = try TokenVault.open(keyFile: path, mayCreate: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        let loose = #expect(throws: VaultError.self) { try TokenVault.open(keyFile: path, mayCreate: false) }
        #expect(loose?.description.contains("chmod 600") == true)
        let junk = dir + "/junk.key"
        _ = FileManager.default.createFile(atPath: junk, contents: Data("not a key\n".utf8), attributes: [.posixPermissions: 0o600])
        #expect(throws: VaultError.self) { try TokenVault.open(keyFile: junk, mayCreate: false) }
    }

    @Test("the key file path: MONEYFLOW_KEY_FILE, else XDG_CONFIG_HOME, else ~/.config")
    func keyFilePath() {
        #expect(TokenVault.keyFilePath(["MONEYFLOW_KEY_FILE": "/k/key", "HOME": "/h"]) == "/k/key")
        #expect(TokenVault.keyFilePath(["XDG_CONFIG_HOME": "/x", "HOME": "/h"]) == "/x/moneyflow/plaid.key")
        #expect(TokenVault.keyFilePath(["HOME": "/h"]) == "/h/.config/moneyflow/plaid.key")
    }
}
