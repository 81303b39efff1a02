import Foundation
import Testing

@testable import MoneyFlowZip

@Suite("ZIP listing and decryption")
struct ZipArchiveTests {
    @Test("ZipCrypto archive lists names, methods and sizes")
    func zipCryptoListing() throws {
        let archive = try Fixture.archive("zipcrypto.zip")
        #expect(archive.entries.map(\.name) == ["a.pdf", "b.txt", "c.bin"])
        #expect(archive.entries.map(\.method) == [8, 8, 0])
        #expect(archive.entries.allSatisfy { $0.encryption == .zipCrypto && $0.isEncrypted && !$0.isDirectory })
        for entry in archive.entries {
            #expect(entry.uncompressedSize == UInt64(try Fixture.original(entry.name).count))
            #expect(entry.compressedSize > 0)
        }
    }

    @Test(
        "ZipCrypto entries (deflated and stored) decrypt to the original bytes",
        arguments: ["zipcrypto.zip", "zipcrypto_descriptor.zip"])
    func zipCryptoDecrypts(file: String) throws {
        let archive = try Fixture.archive(file)
        #expect(archive.entries.count >= 2)
        for entry in archive.entries {
            let bytes = try archive.data(for: entry, password: Fixture.password)
            #expect(bytes == (try Fixture.original(entry.name)), "\(file) \(entry.name)")
        }
    }

    @Test("Info-ZIP streaming output uses data descriptors (check byte from the DOS time)")
    func zipCryptoDescriptorFlags() throws {
        let archive = try Fixture.archive("zipcrypto_descriptor.zip")
        #expect(archive.entries.allSatisfy { $0.hasDataDescriptor && $0.encryption == .zipCrypto })
    }

    @Test(
        "WinZip AES entries list their key size, vendor version and real method",
        arguments: [("aes128.zip", 128, 2), ("aes192.zip", 192, 2), ("aes256.zip", 256, 2), ("aes128_ae1.zip", 128, 1)])
    func aesListing(file: String, keyBits: Int, vendorVersion: Int) throws {
        let archive = try Fixture.archive(file)
        #expect(archive.entries.map(\.name) == ["a.pdf", "b.txt"])
        for entry in archive.entries {
            #expect(entry.encryption == .winZipAES(keyBits: keyBits, vendorVersion: vendorVersion))
            #expect(entry.method == 99)
            #expect(entry.compressionMethod == 8)
            // AE-2 stores CRC 0; AE-1 keeps the real CRC.
            #expect((entry.crc32 == 0) == (vendorVersion == 2))
        }
    }

    @Test(
        "WinZip AES entries decrypt to the original bytes",
        arguments: ["aes128.zip", "aes192.zip", "aes256.zip", "aes128_ae1.zip", "aes256_stored.zip"])
    func aesDecrypts(file: String) throws {
        let archive = try Fixture.archive(file)
        #expect(!archive.entries.isEmpty)
        for entry in archive.entries {
            let bytes = try archive.data(for: entry, password: Fixture.password)
            #expect(bytes == (try Fixture.original(entry.name)), "\(file) \(entry.name)")
        }
    }

    @Test("stored AES entry reports method 0 inside the 0x9901 field")
    func aesStoredMethod() throws {
        let archive = try Fixture.archive("aes256_stored.zip")
        #expect(archive.entries.map(\.compressionMethod) == [0])
        #expect(archive.entries.map(\.name) == ["c.bin"])
    }

    static let encryptedFiles = [
        "zipcrypto.zip", "zipcrypto_descriptor.zip", "aes128.zip", "aes192.zip",
        "aes256.zip", "aes128_ae1.zip", "aes256_stored.zip",
    ]

    @Test("a wrong password is reported as wrongPassword", arguments: encryptedFiles)
    func wrongPassword(file: String) throws {
        let archive = try Fixture.archive(file)
        for entry in archive.entries {
            let error = zipError { () throws(ZipError) in try archive.data(for: entry, password: "Secret123") }
            #expect(error == .wrongPassword(entry: entry.name), "\(file) \(entry.name)")
            #expect(error?.description.contains("Secret123") == false)
        }
    }

    @Test("no password for an encrypted entry is passwordRequired", arguments: encryptedFiles)
    func passwordRequired(file: String) throws {
        let archive = try Fixture.archive(file)
        for entry in archive.entries {
            let error = zipError { () throws(ZipError) in try archive.data(for: entry, password: nil) }
            #expect(error == .passwordRequired(entry: entry.name))
        }
    }

    @Test("a flipped ciphertext bit fails the AES HMAC; the untouched entry still decrypts")
    func tamperedAES() throws {
        let archive = try Fixture.archive("aes256_tampered.zip")
        let pdf = try #require(archive.entry(named: "a.pdf"))
        let text = try #require(archive.entry(named: "b.txt"))
        #expect(try archive.data(for: pdf, password: Fixture.password) == Fixture.original("a.pdf"))
        let error = zipError { () throws(ZipError) in try archive.data(for: text, password: Fixture.password) }
        #expect(error == .authenticationFailed(entry: "b.txt"))
        // The password check comes first: a wrong password is still reported as such.
        let wrong = zipError { () throws(ZipError) in try archive.data(for: text, password: "nope") }
        #expect(wrong == .wrongPassword(entry: "b.txt"))
    }

    @Test(
        "plain, data-descriptor and ZIP64 archives read without a password",
        arguments: ["descriptor.zip", "zip64.zip"])
    func plainArchives(file: String) throws {
        let archive = try Fixture.archive(file)
        #expect(Set(archive.entries.map(\.name)) == ["a.pdf", "b.txt"])
        for entry in archive.entries {
            #expect(entry.encryption == .none)
            #expect(try archive.data(for: entry, password: nil) == Fixture.original(entry.name))
            // A password given for an unencrypted entry is ignored.
            #expect(try archive.data(for: entry, password: "ignored") == Fixture.original(entry.name))
        }
    }

    @Test("Python's non-seekable writer sets flag bit 3 on every entry")
    func descriptorFlags() throws {
        let archive = try Fixture.archive("descriptor.zip")
        #expect(archive.entries.count == 2)
        #expect(archive.entries.allSatisfy { $0.hasDataDescriptor })
    }

    @Test("GBK names without flag bit 11 decode as GB18030")
    func gbkNames() throws {
        let archive = try Fixture.archive("gbk_names.zip")
        #expect(archive.entries.map(\.name) == ["招商银行交易流水.pdf", "readme.txt"])
        let entry = archive.entries[0]
        #expect(entry.flags & 0x0800 == 0)
        #expect(entry.rawName != Array(entry.name.utf8))
        #expect(entry.rawName.count == 2 * 8 + 4) // 8 GBK double-byte characters + ".pdf"
        #expect(try archive.data(for: entry, password: nil) == Fixture.original("a.pdf"))
    }

    @Test("UTF-8 Chinese names (flag bit 11) decode as UTF-8")
    func utf8Name() throws {
        let archive = try Fixture.archive("utf8_name.zip")
        let name = "招商银行交易流水(申请时间2026年06月16日17时44分37秒).pdf"
        #expect(archive.entries.map(\.name) == [name])
        #expect(archive.entries[0].flags & 0x0800 != 0)
        #expect(try archive.data(for: archive.entries[0], password: nil) == Fixture.original("a.pdf"))
    }

    @Test("unsafe paths are flagged but can still be read into memory")
    func unsafePaths() throws {
        let archive = try Fixture.archive("unsafe_paths.zip")
        let unsafe = Dictionary(uniqueKeysWithValues: archive.entries.map { ($0.name, $0.isUnsafePath) })
        #expect(
            unsafe == [
                "../../evil.txt": true, "/etc/absolute.txt": true, "docs/": false,
                "docs/ok.txt": false, "dir\\back.txt": true,
            ])
        let directory = try #require(archive.entry(named: "docs/"))
        #expect(directory.isDirectory)
        #expect(archive.entries.filter(\.isDirectory).count == 1)
        let evil = try #require(archive.entry(named: "../../evil.txt"))
        #expect(try archive.data(for: evil, password: nil) == Data("evil\n".utf8))
    }

    @Test("an entry of another archive is refused")
    func foreignEntry() throws {
        let first = try Fixture.archive("descriptor.zip")
        let second = try Fixture.archive("utf8_name.zip")
        let error = zipError { () throws(ZipError) in try second.data(for: first.entries[1], password: nil) }
        #expect(error == .corrupt("entry does not belong to this archive"))
    }

    @Test("init(contentsOf:) and init(data:) see the same archive; a missing file is an error")
    func contentsOfURL() throws {
        let fromURL = try Fixture.archive("aes256.zip")
        let fromData = try ZipArchive(data: Fixture.data("aes256.zip"))
        #expect(fromURL.entries == fromData.entries)
        let error = zipError { () throws(ZipError) in
            try ZipArchive(contentsOf: Fixture.url("does-not-exist.zip"))
        }
        #expect(error == .corrupt("file not found"))
    }
}
