import CMinizip
import Foundation
import MoneyFlowCore
import MoneyFlowImporters
import MoneyFlowStore
import MoneyFlowTestSupport
import MoneyFlowZip
import Testing

#if canImport(Glibc)
    import Glibc
#endif

// MARK: - Running the real binary (shared by the robustness suites)

typealias MFRun = BinaryRun

/// The robustness suites' names for the shared runner (``MoneyFlowBinary``) and paths.
enum MF {
    static func spawn(
        _ args: [String], cwd: String, env: [String: String] = [:], logDir: String? = nil,
        umask: Int? = nil, wrapper: [String] = []
    ) throws -> BinaryChild {
        try MoneyFlowBinary.spawn(args, cwd: cwd, env: env, logDir: logDir, umask: umask, wrapper: wrapper)
    }

    static func run(
        _ args: [String], cwd: String, env: [String: String] = [:], logDir: String? = nil,
        umask: Int? = nil, wrapper: [String] = []
    ) throws -> MFRun {
        try MoneyFlowBinary.run(args, cwd: cwd, env: env, logDir: logDir, umask: umask, wrapper: wrapper)
    }

    static func tempDir(_ label: String) throws -> String { try TestPaths.tempDir(label) }

    static let samples = TestPaths.samples.path
    static let badInputs = TestPaths.badInputs.path

    /// SHA-256-free, order-stable digest of everything the ledger holds, plus the integrity verdict.
    static func storeState(_ path: String) throws -> (digest: String, integrity: String) {
        let store = try LedgerStore(path: path)
        return (try store.contentDigest(), try store.integrityCheck())
    }

    /// Copies a store file (and its WAL/SHM, if any) into `dir` as `store.sqlite`.
    static func copyStore(_ path: String, into dir: String) throws -> String {
        let dest = "\(dir)/store.sqlite"
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
            try FileManager.default.copyItem(atPath: path + suffix, toPath: dest + suffix)
        }
        return dest
    }
}

// MARK: - The corpus

/// One bad input: imported into a store holding a prior import, it must fail cleanly.
struct BadInputCase: Sendable, CustomTestStringConvertible, Decodable {
    /// Path under Tests/BadInputs, `sample:<path under Samples>`, or `generated:<name>`.
    var file: String
    /// Words the one-line error must contain (case-insensitive, file name excluded).
    var expect: [String]
    var password: String?
    var args: [String]?
    /// Words a precise message would contain; their absence is a known issue.
    var want: [String]?
    var known_issue: String?
    /// The product imports this file today (exit 0): a known issue.
    var accepted_today: Bool?
    var note: String?

    var testDescription: String {
        file + (args.map { " " + $0.joined(separator: " ") } ?? "") + (password.map { _ in " (password)" } ?? "")
    }
    var fileName: String { (file as NSString).lastPathComponent }

    /// Writes the input into `dir` and returns its name there.
    func materialize(in dir: String) throws -> String {
        let dest = "\(dir)/\(fileName)"
        if file.hasPrefix("generated:") {
            try GeneratedInputs.write(String(file.dropFirst("generated:".count)), to: dest)
        } else {
            let source = file.hasPrefix("sample:") ? "\(MF.samples)/\(file.dropFirst("sample:".count))" : "\(MF.badInputs)/\(file)"
            try FileManager.default.copyItem(atPath: source, toPath: dest)
        }
        return fileName
    }

    static let committed: [BadInputCase] = {
        let url = URL(fileURLWithPath: MF.badInputs).appendingPathComponent("cases.json")
        guard let data = try? Data(contentsOf: url), let cases = try? JSONDecoder().decode([BadInputCase].self, from: data) else {
            return [BadInputCase(file: "cases.json is missing or unreadable (run Tests/BadInputs/scripts/gen_bad_inputs.py)", expect: [])]
        }
        return cases
    }()

    /// Cases too big to commit, generated when the test runs.
    static let generated: [BadInputCase] = [
        BadInputCase(file: "generated:field_10mb_quoted.csv", expect: ["line 2", "field longer than"]),
        BadInputCase(file: "generated:field_10mb_quoted.csv", expect: ["line 2", "field longer than"], args: ["--format", "csv"]),
        BadInputCase(file: "generated:field_10mb_unquoted.csv", expect: ["line 2", "field longer than"]),
        BadInputCase(file: "generated:header_10mb_field.csv", expect: ["line 1", "field longer than"]),
        BadInputCase(file: "generated:amount_10mb_digits.json", expect: ["amount"]),
        BadInputCase(file: "generated:bomb_300mb_declared_and_actual.zip", expect: ["refused", "size limit"]),
        BadInputCase(file: "generated:bomb_300mb_declared_2mb.zip", expect: ["refused", "size limit"]),
        BadInputCase(
            file: "generated:bomb_200mb_honest_pdf.zip", expect: ["refused", "size limit of 32 MiB"],
            note: "200 MiB that really inflate (ratio < 1000): beyond one import's 32 MiB"),
        BadInputCase(
            file: "generated:bomb_40mb_honest_pdf.zip", expect: ["refused", "statement.pdf", "size limit of 32 MiB"],
            note: "40 MiB that really inflate from 160 KB: was read whole, now beyond one import's 32 MiB"),
        BadInputCase(
            file: "generated:pdf_nested_20000.pdf", expect: ["refused", "nested more than 100 deep"],
            note: "40 KB of nested arrays: poppler's parser recursed per level"),
        BadInputCase(
            file: "generated:pdf_stream_160mb.pdf", expect: ["refused", "decompress to more than 128 MiB"],
            note: "a FlateDecode stream of 160 KB that inflates to 160 MiB"),
        BadInputCase(
            file: "generated:pdf_objects_100001.pdf", expect: ["refused", "more than 100000 objects"],
            note: "100,001 objects in 2.4 MB"),
    ]

    static let all = committed + generated
}

/// Inputs generated at test time (too large to commit).
enum GeneratedInputs {
    static let chaseHeader = "Details,Posting Date,Description,Amount,Type,Balance,Check or Slip #\r\n"

    static func write(_ name: String, to path: String) throws {
        let tenMB = 10 * 1024 * 1024
        var data = Data()
        switch name {
        case "field_10mb_quoted.csv":
            data =
                Data((chaseHeader + "DEBIT,03/01/2026,\"").utf8) + Data(repeating: UInt8(ascii: "A"), count: tenMB)
                + Data("\",-5.00,DEBIT_CARD,4000.00,,\r\n".utf8)
        case "field_10mb_unquoted.csv":
            data =
                Data((chaseHeader + "DEBIT,03/01/2026,").utf8) + Data(repeating: UInt8(ascii: "B"), count: tenMB)
                + Data(",-5.00,DEBIT_CARD,4000.00,,\r\n".utf8)
        case "header_10mb_field.csv":
            data = Data(repeating: UInt8(ascii: "H"), count: tenMB) + Data(",Posting Date,Description,Amount\r\n".utf8)
        case "amount_10mb_digits.json":
            data =
                Data(
                    #"{"added":[{"account_id":"a1","transaction_id":"t1","date":"2026-03-01","name":"X","iso_currency_code":"USD","pending":false,"amount":"#
                        .utf8)
                + Data(repeating: UInt8(ascii: "7"), count: tenMB)
                + Data(
                    #"}],"modified":[],"removed":[],"next_cursor":"c","has_more":false,"accounts":[{"account_id":"a1","balances":{"current":1.0,"iso_currency_code":"USD"},"name":"C","type":"depository"}]}"#
                        .utf8)
        case "bomb_300mb_declared_and_actual.zip":
            let (deflated, crc) = ZipBomb.deflate(megabytes: 300, noiseEvery: 0)
            data = ZipBomb.archive(name: "statement.pdf", deflated: deflated, crc: crc, declared: 300 << 20)
        case "bomb_300mb_declared_2mb.zip":
            let (deflated, crc) = ZipBomb.deflate(megabytes: 300, noiseEvery: 0)
            data = ZipBomb.archive(name: "statement.pdf", deflated: deflated, crc: crc, declared: 2 << 20)
        case "bomb_200mb_honest_pdf.zip":
            let (deflated, crc) = ZipBomb.deflate(megabytes: 200, noiseEvery: 512, prefix: Array("%PDF-1.4\n".utf8))
            data = ZipBomb.archive(name: "statement.pdf", deflated: deflated, crc: crc, declared: 200 << 20)
        case "bomb_40mb_honest_pdf.zip":
            let (deflated, crc) = ZipBomb.deflate(megabytes: 40, noiseEvery: 512, prefix: Array("%PDF-1.4\n".utf8))
            data = ZipBomb.archive(name: "statement.pdf", deflated: deflated, crc: crc, declared: 40 << 20)
        case "pdf_nested_20000.pdf":
            data = HostilePDF.nestedArrays(depth: 20_000)
        case "pdf_objects_100001.pdf":
            data = HostilePDF.manyObjects(count: 100_001)
        case "pdf_stream_160mb.pdf":
            // A zlib stream: header, the raw deflate of 160 MiB of zeros, no trailer needed
            // (the reader stops at its budget long before the end).
            let (deflated, _) = ZipBomb.deflate(megabytes: 160, noiseEvery: 0)
            data = HostilePDF.withStream(Data([0x78, 0xDA]) + deflated)
        default:
            throw CocoaError(.fileNoSuchFile)
        }
        try data.write(to: URL(fileURLWithPath: path))
    }
}

/// Builds deflate bombs with zlib without deflating hundreds of megabytes: a 1 MiB chunk is
/// deflated once with Z_FULL_FLUSH (byte-aligned, no back-references into earlier data), so
/// the stream for N identical chunks is that segment repeated N times, then an empty final block.
enum ZipBomb {
    static let chunk = 1 << 20

    /// Raw deflate of `megabytes` MiB: `prefix`, then zeros with a pseudo-random byte every
    /// `noiseEvery` bytes (0 = none; noise keeps the ratio below the reader's 1000:1 limit).
    static func deflate(megabytes: Int, noiseEvery: Int, prefix: [UInt8] = []) -> (Data, UInt32) {
        var block = [UInt8](repeating: 0, count: chunk)
        if noiseEvery > 0 {
            var seed: UInt32 = 8
            for i in stride(from: noiseEvery - 1, to: chunk, by: noiseEvery) {
                seed = seed &* 1_103_515_245 &+ 12345
                block[i] = UInt8(truncatingIfNeeded: seed >> 16) | 1
            }
        }
        var first = block
        first.replaceSubrange(0..<prefix.count, with: prefix)
        let firstSegment = segment(first, flush: Z_FULL_FLUSH)
        let repeated = segment(block, flush: Z_FULL_FLUSH)
        var out = firstSegment
        out.reserveCapacity(firstSegment.count + repeated.count * megabytes + 16)
        for _ in 1..<megabytes { out.append(repeated) }
        out.append(segment([], flush: Z_FINISH))
        var crc = first.withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) }
        block.withUnsafeBufferPointer { b in for _ in 1..<megabytes { crc = crc32(crc, b.baseAddress, uInt(b.count)) } }
        return (out, UInt32(truncatingIfNeeded: crc))
    }

    /// `bytes` deflated by a fresh raw-deflate stream, ended with `flush`.
    static func segment(_ bytes: [UInt8], flush: Int32) -> Data {
        var stream = z_stream()
        _ = deflateInit2_(&stream, 9, Z_DEFLATED, -15, 9, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        defer { deflateEnd(&stream) }
        var input = bytes
        var output = [UInt8](repeating: 0, count: bytes.count + 1024)
        let produced = input.withUnsafeMutableBufferPointer { i in
            output.withUnsafeMutableBufferPointer { o in
                stream.next_in = i.baseAddress
                stream.avail_in = uInt(i.count)
                stream.next_out = o.baseAddress
                stream.avail_out = uInt(o.count)
                _ = CMinizip.deflate(&stream, flush)
                return o.count - Int(stream.avail_out)
            }
        }
        return Data(output[0..<produced])
    }

    /// A one-entry deflated ZIP declaring `declared` uncompressed bytes.
    static func archive(name: String, deflated: Data, crc: UInt32, declared: UInt32) -> Data {
        func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func le32(_ v: UInt32) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)] }
        let n = Array(name.utf8)
        var z = Data()
        z += le32(0x0403_4B50) + le16(20) + le16(0x0800) + le16(8) + le16(0) + le16(0x5CD0)
        z += le32(crc) + le32(UInt32(deflated.count)) + le32(declared) + le16(n.count) + le16(0) + n
        z += deflated
        let cd = UInt32(z.count)
        var central = Data()
        central += le32(0x0201_4B50) + le16(0x031E) + le16(20) + le16(0x0800) + le16(8) + le16(0) + le16(0x5CD0)
        central += le32(crc) + le32(UInt32(deflated.count)) + le32(declared) + le16(n.count) + le16(0) + le16(0)
        central += le16(0) + le16(0) + le32(0o100644 << 16) + le32(0) + n
        z += central
        z += le32(0x0605_4B50) + le16(0) + le16(0) + le16(1) + le16(1) + le32(UInt32(central.count)) + le32(cd) + le16(0)
        return z
    }
}

// MARK: - The suite

/// A store holding a prior import (CSV + Plaid + CMB ZIP), built once per test run.
enum PriorStore {
    static let built: Result<(path: String, digest: String), Error> = Result {
        let dir = try MF.tempDir("badinput-template")
        let store = "\(dir)/store.sqlite"
        let r = try MF.run(
            [
                "import", "\(MF.samples)/csv/chase_checking.csv", "\(MF.samples)/plaid/plain_added/page1.json",
                "\(MF.samples)/cmb/cmb2024_basic.aes256.zip", "--password-env", "MF_TEST_PW", "--store", store,
            ],
            cwd: dir, env: ["MF_TEST_PW": "DQH9JB"])
        guard r.status == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "prior import failed: \(r.stderr)"])
        }
        return (store, try MF.storeState(store).digest)
    }
}

@Suite("Bad inputs: one clear error, exit 1, store unchanged")
struct BadInputTests {
    static let memoryLimitKiB = 1024 * 1024 // 1 GiB

    @Test("bad input is refused cleanly", arguments: BadInputCase.all)
    func badInput(_ c: BadInputCase) throws {
        let (template, digestBefore) = try PriorStore.built.get()
        let dir = try MF.tempDir("badinput")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try MF.copyStore(template, into: dir)
        let name = try c.materialize(in: dir)
        var env: [String: String] = [:]
        var args = ["import", name, "--store", store] + (c.args ?? [])
        if let pw = c.password { env["MF_BAD_PW"] = pw; args += ["--password-env", "MF_BAD_PW"] }
        let r = try MF.spawn(args, cwd: dir, env: env, logDir: dir).wait()

        // Hard guarantees, even for known issues: no crash, bounded memory, a healthy store.
        #expect(r.signal == 0, "killed by signal \(r.signal): \(r.stderr)")
        #expect(r.maxRSSKiB < Self.memoryLimitKiB, "peak memory \(r.maxRSSKiB / 1024) MiB")
        let (digestAfter, integrity) = try MF.storeState(store)
        #expect(integrity == "ok")
        if let pw = c.password {
            #expect(!r.stdout.contains(pw) && !r.stderr.contains(pw), "password echoed")
        }

        let verdict = {
            #expect(r.status == 1, "exit \(r.status); stdout: \(r.stdout.prefix(300))")
            #expect(r.stderrLines.count == 1, "stderr: \(r.stderr.prefix(600))")
            let line = r.stderrLines.first.map(String.init) ?? ""
            #expect(line.contains(name), "error does not name the file: \(line)")
            let message = line.replacingOccurrences(of: name, with: "").lowercased()
            for word in c.expect { #expect(message.contains(word.lowercased()), "'\(word)' missing from: \(line)") }
            #expect(digestAfter == digestBefore, "store content changed")
        }
        if c.accepted_today == true {
            withKnownIssue(Comment(rawValue: c.known_issue ?? "accepted today")) { verdict() }
        } else {
            verdict()
            if let want = c.want, !want.isEmpty {
                let message = (r.stderrLines.first.map(String.init) ?? "").replacingOccurrences(of: name, with: "").lowercased()
                withKnownIssue(Comment(rawValue: c.known_issue ?? "imprecise message")) {
                    for word in want { #expect(message.contains(word.lowercased()), "'\(word)' missing from: \(message)") }
                }
            }
        }
    }

    @Test func corpusIsSmallAndComplete() throws {
        #expect(BadInputCase.committed.count >= 100)
        var total = 0
        let e = FileManager.default.enumerator(atPath: MF.badInputs)!
        while let rel = e.nextObject() as? String {
            total += (try? FileManager.default.attributesOfItem(atPath: "\(MF.badInputs)/\(rel)")[.size] as? Int) ?? 0
        }
        #expect(total < 3 * 1024 * 1024, "corpus is \(total) bytes")
        for c in BadInputCase.committed where !c.file.hasPrefix("sample:") {
            #expect(FileManager.default.fileExists(atPath: "\(MF.badInputs)/\(c.file)"), "\(c.file) missing")
        }
    }

    /// Several bad files and one good one in one run: the good one imports, each bad one gets
    /// exactly one error line, exit 1.
    @Test func mixedBatchReportsEachBadFileOnce() throws {
        let (template, _) = try PriorStore.built.get()
        let dir = try MF.tempDir("badinput-batch")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try MF.copyStore(template, into: dir)
        let bad = ["csv/bad_amount.csv", "plaid/duplicate_key_amount.json", "pdf/truncated_50pct.pdf", "zip/bomb_ratio.zip"]
        for b in bad {
            try FileManager.default.copyItem(atPath: "\(MF.badInputs)/\(b)", toPath: "\(dir)/\((b as NSString).lastPathComponent)")
        }
        try FileManager.default.copyItem(atPath: "\(MF.samples)/csv/amex.csv", toPath: "\(dir)/amex.csv")
        let names = bad.map { ($0 as NSString).lastPathComponent } + ["amex.csv"]
        let r = try MF.run(["import"] + names + ["--store", store], cwd: dir)
        #expect(r.signal == 0)
        #expect(r.status == 1)
        #expect(r.stderrLines.count == bad.count, "\(r.stderr)")
        for b in names.dropLast() { #expect(r.stderrLines.filter { $0.contains(b) }.count == 1, "\(b): \(r.stderr)") }
        let txs = try MF.run(["transactions", "--format", "json", "--store", store], cwd: dir)
        #expect(txs.stdout.contains("amex.csv"))
    }
}
