import Foundation
import GRDB
import MoneyFlowStore
import Testing

/// Every byte of every file in `dir` (store, WAL, SHM ...), for searching secrets.
private func bytesOfFiles(in dir: String) -> [(String, Data)] {
    ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).compactMap { name in
        FileManager.default.contents(atPath: "\(dir)/\(name)").map { (name, $0) }
    }
}

private func fileMode(_ path: String) -> Int? {
    (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue
}

/// Relative path -> SHA-free fingerprint (size + bytes) of every file under `dir`.
private func tree(_ dir: String) -> [String: Data] {
    var out: [String: Data] = [:]
    guard let e = FileManager.default.enumerator(atPath: dir) else { return out }
    while let rel = e.nextObject() as? String {
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: "\(dir)/\(rel)", isDirectory: &isDir), !isDir.boolValue {
            out[rel] = FileManager.default.contents(atPath: "\(dir)/\(rel)") ?? Data()
        } else {
            out[rel + "/"] = Data()
        }
    }
    return out
}

@Suite("Security: file modes, secrets, where moneyflow writes")
struct SecurityTests {
    @Test(arguments: [nil, 0o000, 0o022] as [Int?])
    func storeIsCreatedOwnerOnly(umask: Int?) throws {
        let dir = try MF.tempDir("security-mode")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = "\(dir)/new.sqlite"
        // Hold a reader open so the WAL and SHM files survive the import and can be checked too.
        let r = try MF.run(["import", "\(MF.samples)/csv/amex.csv", "--store", store], cwd: dir, logDir: dir, umask: umask)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            fileMode(store) == 0o600,
            "store mode \(String(fileMode(store) ?? -1, radix: 8)) under umask \(umask.map { String($0, radix: 8) } ?? "inherited")")
        let reader = try DatabaseQueue(path: store)
        try reader.read { db in _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM record") }
        let again = try MF.run(["import", "\(MF.samples)/csv/bofa_card.csv", "--store", store], cwd: dir, logDir: dir, umask: umask)
        #expect(again.status == 0, "\(again.stderr)")
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: store + suffix) {
            #expect(
                fileMode(store + suffix) == 0o600,
                "\(suffix.isEmpty ? "store" : suffix) mode \(String(fileMode(store + suffix) ?? -1, radix: 8))")
        }
        // Nothing else next to the store.
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: dir).filter { !$0.hasPrefix(".mf-") })
        #expect(names.isSubset(of: ["new.sqlite", "new.sqlite-wal", "new.sqlite-shm"]), "\(names)")
    }

    @Test func passwordsAreNeverPrintedOrStored() throws {
        let dir = try MF.tempDir("security-password")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let storeDir = "\(dir)/store"
        try FileManager.default.createDirectory(atPath: storeDir, withIntermediateDirectories: true)
        let store = "\(storeDir)/ledger.sqlite"
        let good = "DQH9JB" // Samples/cmb/passwords/cmb2024_basic.txt
        let wrong = "Wr0ng-Pa55-7Q3Z"
        for f in ["cmb2024_basic.aes256.zip", "cmb2024_basic.zipcrypto.zip", "cmb2024_q1.aes256.zip"] {
            try FileManager.default.copyItem(atPath: "\(MF.samples)/cmb/\(f)", toPath: "\(dir)/\(f)")
        }
        try "\(good)\n".write(toFile: "\(dir)/pw.txt", atomically: false, encoding: .utf8)

        // First import creates the store; then keep a reader open so the WAL keeps what later runs write.
        var outputs: [MFRun] = []
        outputs.append(
            try MF.run(
                ["import", "cmb2024_basic.aes256.zip", "--password-env", "MF_PW", "--verbose", "--store", store],
                cwd: dir, env: ["MF_PW": good], logDir: dir))
        #expect(outputs[0].status == 0, "\(outputs[0].stderr)")
        let reader = try DatabaseQueue(path: store)
        try reader.read { db in _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM batch") }
        outputs.append(
            try MF.run(
                ["import", "cmb2024_basic.zipcrypto.zip", "--password-file", "pw.txt", "--json", "--dry-run", "--store", store],
                cwd: dir, logDir: dir))
        outputs.append(
            try MF.run(
                ["import", "cmb2024_q1.aes256.zip", "--password-env", "MF_PW", "--json", "--store", store],
                cwd: dir, env: ["MF_PW": wrong], logDir: dir))
        #expect(outputs[2].status == 1)
        outputs.append(
            try MF.run(
                [
                    "import", "cmb2024_q1.aes256.zip", "cmb2024_basic.zipcrypto.zip", "--password-env", "MF_PW", "--verbose", "--store",
                    store,
                ],
                cwd: dir, env: ["MF_PW": wrong], logDir: dir))
        outputs.append(try MF.run(["batches", "--format", "json", "--store", store], cwd: dir, logDir: dir))
        outputs.append(try MF.run(["transactions", "--all", "--format", "json", "--store", store], cwd: dir, logDir: dir))
        outputs.append(try MF.run(["export", "--format", "json", "--store", store], cwd: dir, logDir: dir))
        for (i, r) in outputs.enumerated() {
            for pw in [good, wrong] {
                #expect(!r.stdout.contains(pw) && !r.stderr.contains(pw), "run \(i) printed a password")
            }
        }
        #expect(FileManager.default.fileExists(atPath: store + "-wal"), "expected the WAL to be kept while a reader is open")
        for (name, bytes) in bytesOfFiles(in: storeDir) {
            for pw in [good, wrong] {
                #expect(bytes.range(of: Data(pw.utf8)) == nil, "\(name) holds a password")
                #expect(
                    bytes.range(of: Data(pw.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })) == nil,
                    "\(name) holds a password (UTF-16)")
            }
        }
        _ = reader
    }

    /// Values of every `*token*` / `*secret*` key anywhere in a JSON document.
    static func secretValues(_ json: Any) -> Set<String> {
        var out = Set<String>()
        if let o = json as? [String: Any] {
            for (k, v) in o {
                let key = k.lowercased()
                if key.contains("token") || key.contains("secret"), let s = v as? String, s.count >= 8 { out.insert(s) }
                out.formUnion(secretValues(v))
            }
        } else if let a = json as? [Any] {
            for v in a { out.formUnion(secretValues(v)) }
        }
        return out
    }

    @Test func plaidTokensAreNeverStoredOrPrinted() throws {
        let dir = try MF.tempDir("security-plaid")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let storeDir = "\(dir)/store"
        try FileManager.default.createDirectory(atPath: storeDir, withIntermediateDirectories: true)
        let store = "\(storeDir)/ledger.sqlite"
        let samples = "\(MF.samples)/plaid/saved_with_request"
        var secrets = Set<String>()
        for f in try FileManager.default.contentsOfDirectory(atPath: samples) where f.hasSuffix(".json") {
            let data = try Data(contentsOf: URL(fileURLWithPath: "\(samples)/\(f)"))
            secrets.formUnion(Self.secretValues(try JSONSerialization.jsonObject(with: data)))
            try data.write(to: URL(fileURLWithPath: "\(dir)/\(f)"))
        }
        #expect(secrets.contains("access-sandbox-3f16bed7-089f-4653-e5ef-21bfd2824d7f"))
        #expect(secrets.contains("2bb80d537b1da3e38bd30361aa8556"))

        // Secrets inside a transaction object too: its raw JSON is kept for audit and must be redacted.
        let planted = [
            "access-production-planted-0001", "processor-production-planted-0002", "planted-client-secret-0003",
            "link-production-planted-0004", "planted-request-secret-0005",
        ]
        let page = """
            {"request": {"access_token": "access-production-planted-0001", "secret": "planted-request-secret-0005", "client_id": "cid"},
             "response": {"accounts": [{"account_id": "secacct1", "balances": {"current": 10.0, "iso_currency_code": "USD"},
                                        "name": "Sec Checking", "type": "depository", "subtype": "checking", "mask": "4242"}],
              "added": [{"account_id": "secacct1", "transaction_id": "sectxn1", "amount": 4.5, "date": "2026-03-02",
                         "name": "COFFEE", "iso_currency_code": "USD", "pending": false,
                         "access_token": "access-production-planted-0001",
                         "payment_meta": {"processor_token": "processor-production-planted-0002", "client_secret": "planted-client-secret-0003"},
                         "link_token": "link-production-planted-0004"}],
              "modified": [], "removed": [], "next_cursor": "sec-cursor-1", "has_more": false}}
            """
        try page.write(toFile: "\(dir)/planted.json", atomically: false, encoding: .utf8)
        let errorBody = """
            {"request": {"access_token": "access-production-planted-0001", "secret": "planted-request-secret-0005"},
             "response": {"error_type": "INVALID_INPUT", "error_code": "INVALID_ACCESS_TOKEN",
                          "error_message": "the access token access-production-planted-0001 is invalid", "display_message": null}}
            """
        try errorBody.write(toFile: "\(dir)/error.json", atomically: false, encoding: .utf8)
        secrets.formUnion(planted)

        var runs: [MFRun] = []
        runs.append(try MF.run(["import", "page1.json", "--verbose", "--store", store], cwd: dir, logDir: dir))
        #expect(runs[0].status == 0, "\(runs[0].stderr)")
        let reader = try DatabaseQueue(path: store)
        try reader.read { db in _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM batch") }
        runs.append(try MF.run(["import", "page2.json", "page3.json", "--json", "--verbose", "--store", store], cwd: dir, logDir: dir))
        runs.append(try MF.run(["import", "planted.json", "--verbose", "--store", store], cwd: dir, logDir: dir))
        runs.append(try MF.run(["import", "skipped_cursor.json", "--store", store], cwd: dir, logDir: dir))
        runs.append(try MF.run(["import", "error.json", "--json", "--store", store], cwd: dir, logDir: dir))
        runs.append(try MF.run(["import", "all_pages.json", "--dry-run", "--verbose", "--store", store], cwd: dir, logDir: dir))
        runs.append(try MF.run(["transactions", "--all", "--format", "json", "--store", store], cwd: dir, logDir: dir))
        runs.append(try MF.run(["review", "--format", "json", "--store", store], cwd: dir, logDir: dir))
        runs.append(try MF.run(["export", "--format", "json", "--store", store], cwd: dir, logDir: dir))
        #expect(runs[2].status == 0, "\(runs[2].stderr)")
        #expect(runs[4].status == 1 && runs[4].stderr.contains("INVALID_ACCESS_TOKEN"), "\(runs[4].stderr)")
        for (i, r) in runs.enumerated() {
            for s in secrets { #expect(!r.stdout.contains(s) && !r.stderr.contains(s), "run \(i) printed secret \(s.prefix(12))...") }
        }
        for (name, bytes) in bytesOfFiles(in: storeDir) {
            for s in secrets { #expect(bytes.range(of: Data(s.utf8)) == nil, "\(name) holds secret \(s.prefix(12))...") }
        }
        // The audit copy of the planted transaction is there, with its secrets redacted.
        let raw = try reader.read { db in try String.fetchOne(db, sql: "SELECT raw FROM record WHERE external_id = 'sectxn1'") }
        let audit = try #require(raw, "the planted transaction's raw JSON is not kept")
        #expect(audit.contains("REDACTED") && audit.contains("COFFEE"), "\(audit)")
        for s in secrets { #expect(!audit.contains(s)) }
    }

    /// moneyflow writes the store (and its WAL/SHM) and the export file it was given: nothing in
    /// the working folder, HOME, TMPDIR or next to the inputs.
    @Test func writesOnlyTheStoreAndTheExportPath() throws {
        let root = try MF.tempDir("security-writes")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (cwd, home, tmp, inputs, storeDir, out, logs) = (
            "\(root)/cwd", "\(root)/home", "\(root)/tmp", "\(root)/in", "\(root)/store", "\(root)/out", "\(root)/logs"
        )
        for d in [cwd, home, tmp, inputs, storeDir, out, logs] {
            try FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
        }
        for f in [
            "csv/chase_checking.csv", "csv/amex.csv", "cmb/cmb2024_basic.aes256.zip", "plaid/plain_added/page1.json",
            "plaid/plain_added/page2.json",
        ] {
            try FileManager.default.copyItem(
                atPath: "\(MF.samples)/\(f)",
                toPath: "\(inputs)/\((f as NSString).lastPathComponent.replacingOccurrences(of: "page", with: "plaid_page"))")
        }
        try FileManager.default.createDirectory(atPath: "\(inputs)/sub", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: "\(MF.samples)/csv/bofa_card.csv", toPath: "\(inputs)/sub/bofa_card.csv")
        let inputsBefore = tree(inputs)
        let store = "\(storeDir)/ledger.sqlite"
        let env = [
            "HOME": home, "TMPDIR": tmp, "XDG_CONFIG_HOME": "\(home)/.config", "XDG_CACHE_HOME": "\(home)/.cache",
            "XDG_DATA_HOME": "\(home)/.local/share", "MF_PW": "DQH9JB",
        ]
        let strace = FileManager.default.isExecutableFile(atPath: "/usr/bin/strace")
        var traces: [String] = []
        let commands: [[String]] = [
            [
                "import", "\(inputs)/chase_checking.csv", "\(inputs)/amex.csv", "\(inputs)/cmb2024_basic.aes256.zip", "--password-env",
                "MF_PW",
            ],
            ["import", "\(inputs)/plaid_page1.json", "\(inputs)/plaid_page2.json", "--json"],
            ["import", inputs, "--dry-run", "--password-env", "MF_PW"],
            ["import", "\(inputs)/sub"],
            ["accounts", "--format", "json"], ["accounts", "rename", "Chase Checking", "Chase Main", "--ledger-name", "Assets:Chase"],
            ["transactions", "--format", "csv"], ["batches"], ["reconcile", "--format", "json"], ["review"], ["profiles"],
            ["export", "--format", "beancount", "--output", "\(out)/ledger.beancount"],
            ["export", "--format", "csv"], ["undo", "2"],
        ]
        for (i, c) in commands.enumerated() {
            let trace = "\(logs)/trace-\(i).txt"
            traces.append(trace)
            let wrapper =
                strace
                ? [
                    "/usr/bin/strace", "-f", "-qq", "-o", trace, "-e",
                    "trace=open,openat,creat,mkdir,mkdirat,rename,renameat,renameat2,link,linkat,symlink,symlinkat,truncate,unlink,unlinkat",
                ] : []
            let r = try MF.run(c + (c[0] == "profiles" ? [] : ["--store", store]), cwd: cwd, env: env, logDir: logs, wrapper: wrapper)
            #expect(r.status == 0 && r.signal == 0, "\(c.joined(separator: " ")): \(r.stderr)")
        }
        #expect(tree(cwd).isEmpty, "working folder: \(tree(cwd).keys.sorted())")
        #expect(tree(home).isEmpty, "HOME: \(tree(home).keys.sorted())")
        #expect(tree(tmp).isEmpty, "TMPDIR: \(tree(tmp).keys.sorted())")
        #expect(tree(inputs) == inputsBefore, "the inputs folder changed")
        #expect(
            Set(tree(storeDir).keys).isSubset(of: ["ledger.sqlite", "ledger.sqlite-wal", "ledger.sqlite-shm"]),
            "\(tree(storeDir).keys.sorted())")
        #expect(Array(tree(out).keys) == ["ledger.beancount"], "\(tree(out).keys.sorted())")

        // With strace: every path opened for writing, created, renamed or removed is the store's or the export's.
        guard strace else { return CIEnvironment.missingTool("strace", consequence: "the written paths are not traced") }
        let allowed: (String) -> Bool = { path in
            let name = (path as NSString).lastPathComponent
            if path.hasPrefix(storeDir + "/") {
                // The store, its WAL/SHM/rollback journal, and FileManager.createFile's temporary file
                // (created next to the store and renamed onto it when the store is first created).
                return ["ledger.sqlite", "ledger.sqlite-wal", "ledger.sqlite-shm", "ledger.sqlite-journal"].contains(name)
                    || name.hasPrefix(".dat.nosync")
            }
            return path == "\(out)/ledger.beancount"
        }
        let writeCall = try NSRegularExpression(
            pattern:
                #"(openat|open|creat|mkdir|mkdirat|rename|renameat2?|link|linkat|symlink|symlinkat|truncate|unlink|unlinkat)\((?:AT_FDCWD, )?"([^"]*)"(?:, (?:AT_FDCWD, )?"([^"]*)")?(.*)\) = (-?\d+)"#
        )
        var offending: Set<String> = []
        for t in traces {
            let text = (try? String(contentsOfFile: t, encoding: .utf8)) ?? ""
            for line in text.split(separator: "\n") {
                let l = String(line)
                guard let m = writeCall.firstMatch(in: l, range: NSRange(l.startIndex..., in: l)) else { continue }
                func group(_ i: Int) -> String? { Range(m.range(at: i), in: l).map { String(l[$0]) } }
                guard let call = group(1), let path = group(2), let result = group(5), !result.hasPrefix("-") else { continue }
                let rest = group(4) ?? ""
                let isWrite =
                    (call.hasPrefix("open") || call == "creat")
                    ? (rest.contains("O_WRONLY") || rest.contains("O_RDWR") || rest.contains("O_CREAT") || call == "creat") : true
                guard isWrite else { continue }
                if path.hasPrefix("/dev/") || path.hasPrefix("/proc/") { continue }
                let absolute = path.hasPrefix("/") ? path : "\(cwd)/\(path)"
                for p in [absolute] + (group(3).map { [$0.hasPrefix("/") ? $0 : "\(cwd)/\($0)"] } ?? []) where !allowed(p) {
                    offending.insert("\(call) \(p)")
                }
            }
        }
        #expect(offending.isEmpty, "writes outside the store and the export path: \(offending.sorted())")
    }
}
