import Foundation
import Testing

@testable import MoneyFlowZip

@Suite("ZIP safety: bombs, truncation, corruption")
struct ZipSafetyTests {
    @Test("declared size above maxEntrySize is refused before inflating, with bounded memory")
    func bombDeclaredSize() throws {
        let limits = ZipLimits(maxEntrySize: 64 << 20)
        let archive = try Fixture.archive("bomb.zip", limits: limits)
        let entry = try #require(archive.entries.first)
        #expect(entry.uncompressedSize == 200 << 20)
        #expect(entry.compressedSize < 300_000)
        let before = peakResidentBytes()
        let error = zipError { () throws(ZipError) in try archive.data(for: entry, password: nil) }
        #expect(error == .entryTooLarge(entry: "zeros.bin", limit: 64 << 20))
        if let before, let after = peakResidentBytes() {
            #expect(after - before < 32 << 20)
        }
    }

    @Test("default limits refuse the bomb by compression ratio")
    func bombRatio() throws {
        let archive = try Fixture.archive("bomb.zip")
        let entry = try #require(archive.entries.first)
        let error = zipError { () throws(ZipError) in try archive.data(for: entry, password: nil) }
        #expect(error == .entryTooLarge(entry: "zeros.bin", limit: entry.compressedSize * 1000))
    }

    @Test("inflating stops once actual output exceeds the declared size")
    func lyingBomb() throws {
        // Ratio check relaxed so the only protection left is the running output bound.
        let archive = try Fixture.archive("bomb_lying_size.zip", limits: ZipLimits(maxCompressionRatio: .max))
        let entry = try #require(archive.entries.first)
        #expect(entry.uncompressedSize == 4096)
        let before = peakResidentBytes()
        let error = zipError { () throws(ZipError) in try archive.data(for: entry, password: nil) }
        #expect(error == .entryTooLarge(entry: "small.txt", limit: 4096))
        if let before, let after = peakResidentBytes() {
            #expect(after - before < 8 << 20) // the real payload is 16 MiB
        }
    }

    @Test("maxTotalUncompressed bounds the sum over one archive")
    func totalLimit() throws {
        let archive = try Fixture.archive("zipcrypto.zip", limits: ZipLimits(maxTotalUncompressed: 10_000))
        #expect(try archive.data(for: archive.entries[0], password: Fixture.password).count == 1732)
        let error = zipError { () throws(ZipError) in try archive.data(for: archive.entries[1], password: Fixture.password) }
        #expect(error == .entryTooLarge(entry: "b.txt", limit: 10_000))
    }

    @Test("the committed truncated archive is reported as truncated")
    func truncatedFixture() throws {
        let bytes = try Fixture.data("truncated.zip")
        let error = zipError { () throws(ZipError) in try ZipArchive(data: bytes) }
        #expect(error == .truncated)
    }

    @Test(
        "every prefix of an archive is a ZipError, never a crash",
        arguments: ["zipcrypto.zip", "aes256.zip"])
    func everyPrefix(file: String) throws {
        let bytes = try Fixture.data(file)
        var failures = 0
        for length in stride(from: 0, to: bytes.count, by: 7) {
            if zipError({ () throws(ZipError) in try ZipArchive(data: bytes.prefix(length)) }) != nil { failures += 1 }
        }
        #expect(failures == (bytes.count + 6) / 7)
    }

    @Test("non-zip input is notAZip")
    func notAZip() throws {
        #expect(zipError { () throws(ZipError) in try ZipArchive(data: Data()) } == .notAZip)
        let pdf = try Fixture.original("a.pdf")
        #expect(zipError { () throws(ZipError) in try ZipArchive(data: pdf) } == .notAZip)
        #expect(zipError { () throws(ZipError) in try ZipArchive(data: Data(repeating: 0x50, count: 5000)) } == .notAZip)
    }

    @Test("an archive with only an end-of-central-directory record has no entries")
    func emptyArchive() throws {
        var end = [UInt8](repeating: 0, count: 22)
        end[0...3] = [0x50, 0x4b, 0x05, 0x06]
        let archive = try ZipArchive(data: Data(end))
        #expect(archive.entries.isEmpty)
    }

    @Test("a damaged CRC is crcMismatch for plain entries")
    func crcMismatch() throws {
        var bytes = [UInt8](try Fixture.data("utf8_name.zip"))
        // Patch the CRC in the local header (offset 14) and the central directory record (offset 16).
        bytes[14] ^= 0xFF
        let central = try #require(Self.find([0x50, 0x4b, 0x01, 0x02], in: bytes))
        bytes[central + 16] ^= 0xFF
        let archive = try ZipArchive(data: Data(bytes))
        let error = zipError { () throws(ZipError) in try archive.data(for: archive.entries[0], password: nil) }
        #expect(error == .crcMismatch(entry: archive.entries[0].name))
    }

    @Test(
        "flipped bytes anywhere never crash or return wrong data",
        arguments: ["zipcrypto.zip", "aes256.zip", "descriptor.zip", "aes128_ae1.zip"])
    func bitFlips(file: String) throws {
        let pristine = [UInt8](try Fixture.data(file))
        let originals = try ZipArchive(data: Data(pristine)).entries.map { try Fixture.original($0.name) }
        var errors = 0
        var intact = 0
        // About 150 evenly spread positions per file keeps the debug run short (AES runs PBKDF2 each time).
        for position in stride(from: 0, to: pristine.count, by: max(1, pristine.count / 150)) {
            var bytes = pristine
            bytes[position] ^= 0xA5
            do throws(ZipError) {
                let archive = try ZipArchive(data: Data(bytes))
                for entry in archive.entries {
                    let data = try archive.data(for: entry, password: Fixture.password)
                    // Success is only acceptable with the exact original bytes.
                    #expect(entry.index < originals.count && data == originals[entry.index], "flip at \(position)")
                    intact += 1
                }
            } catch {
                #expect(!error.description.contains(Fixture.password))
                errors += 1
            }
        }
        #expect(errors > 0)
        #expect(errors + intact > 0)
    }

    @Test("error descriptions are short lower-case phrases without passwords or paths")
    func descriptions() {
        let all: [ZipError] = [
            .notAZip, .truncated, .corrupt("corrupt central directory"), .passwordRequired(entry: "a.pdf"),
            .wrongPassword(entry: "a.pdf"), .authenticationFailed(entry: "a.pdf"), .crcMismatch(entry: "a.pdf"),
            .unsupportedCompression(entry: "a.pdf", method: 14), .unsupportedEncryption(entry: "a.pdf", "pkware strong encryption"),
            .entryTooLarge(entry: "a.pdf", limit: 4096),
        ]
        for error in all {
            #expect(!error.description.isEmpty)
            #expect(error.description == error.description.lowercased())
            #expect(!error.description.contains("\n"))
        }
        #expect(ZipError.wrongPassword(entry: "x").description.hasPrefix("wrong password"))
        #expect(ZipError.unsupportedCompression(entry: "x", method: 14).description == "unsupported compression method 14")
    }

    @Test("isUnsafePath rules")
    func unsafePathRules() {
        func entry(_ name: String) -> ZipEntry {
            ZipEntry(
                index: 0, name: name, rawName: Array(name.utf8), compressedSize: 0, uncompressedSize: 0, crc32: 0,
                method: 0, compressionMethod: 0, encryption: .none, isDirectory: false, flags: 0, dosDateTime: 0,
                centralDirectoryPosition: 0, localHeaderOffset: 0, needsDirectRead: false, extraField: [])
        }
        #expect(entry("../../evil.txt").isUnsafePath)
        #expect(entry("a/../../b").isUnsafePath)
        #expect(entry("/etc/passwd").isUnsafePath)
        #expect(entry("C:/Windows/x").isUnsafePath)
        #expect(entry("a\\b").isUnsafePath)
        #expect(!entry("a/b..c/d.txt").isUnsafePath)
        #expect(!entry("招商银行/流水.pdf").isUnsafePath)
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        return (0...(haystack.count - needle.count)).first { haystack[$0..<$0 + needle.count].elementsEqual(needle) }
    }
}
