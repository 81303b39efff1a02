import Foundation
import MoneyFlowCore
import MoneyFlowPipeline
import MoneyFlowTestSupport
import Testing

/// `moneyflow export`: structure always; `bean-check` / `hledger check` when they are on PATH.
@Suite struct ExportTests {
    static let samples = [
        "Samples/csv/chase_checking.csv", "Samples/cmb/cmb2024_multicurrency.pdf",
        "Samples/plaid/plain_added/page1.json", "Samples/plaid/plain_added/page2.json",
    ]

    static func importedStore(_ files: [String] = samples) throws -> String {
        let store = try CLI.tempStore()
        let r = try CLI.run(["import"] + files, store: store)
        #expect(r.status == 0, "\(r.stderr)")
        return store
    }

    static func transactions(_ store: String) throws -> [[String: Any]] {
        let r = try CLI.run(["transactions", "--format", "json"], store: store)
        return try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [[String: Any]]
    }

    static func export(_ store: String, _ format: String, _ extra: [String] = []) throws -> String {
        let r = try CLI.run(["export", "--format", format] + extra, store: store)
        #expect(r.status == 0, "\(r.stderr)")
        return r.stdout
    }

    static func lines(_ text: String) -> [String] { text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }

    static func isDated(_ line: String) -> Bool {
        let c = Array(line.utf8.prefix(11))
        return c.count == 11 && c[4] == UInt8(ascii: "-") && c[7] == UInt8(ascii: "-") && c[10] == UInt8(ascii: " ")
            && c.enumerated().allSatisfy { [4, 7, 10].contains($0.offset) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0.element) }
    }

    // MARK: External checkers

    static func which(_ tool: String) -> String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let path = "\(dir)/\(tool)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    /// Runs `tool args... file` on `text` written to a temp file; nil when the tool is absent.
    static func check(_ tool: String, _ args: [String], text: String, ext: String) throws -> (status: Int32, output: String)? {
        guard let exe = which(tool) else {
            CIEnvironment.missingTool(tool, consequence: "only the export's structure is checked")
            return nil
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("moneyflow-export-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let file = dir.appendingPathComponent("export.\(ext)")
        try Data(text.utf8).write(to: file)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: exe)
        p.arguments = args.map { $0 == "FILE" ? file.path : $0 }
        // Output to a file, not a pipe: only the bounded wait can block.
        let outPath = dir.appendingPathComponent("output.txt").path
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        defer { try? out.close() }
        p.standardOutput = out; p.standardError = out
        p.standardInput = FileHandle.nullDevice
        try p.run()
        try ChildWait.process(p, what: tool)
        return (p.terminationStatus, try String(contentsOfFile: outPath, encoding: .utf8))
    }

    static func expectBeanCheckPasses(_ text: String) throws {
        if let r = try check("bean-check", ["FILE"], text: text, ext: "beancount") {
            #expect(r.status == 0, "bean-check failed:\n\(r.output)")
        }
    }

    static func expectHledgerPasses(_ text: String) throws {
        if let r = try check("hledger", ["-f", "FILE", "check", "-s", "ordereddates"], text: text, ext: "journal") {
            #expect(r.status == 0, "hledger check failed:\n\(r.output)")
        }
    }

    // MARK: Tests

    @Test func beancountExportOfRealSamples() throws {
        let store = try Self.importedStore()
        let txs = try Self.transactions(store)
        #expect(txs.count > 100)
        let text = try Self.export(store, "beancount")
        let lines = Self.lines(text)

        // One transaction per ledger transaction, each carrying its id.
        let headers = lines.filter { Self.isDated($0) && ($0.dropFirst(11).hasPrefix("* ") || $0.dropFirst(11).hasPrefix("! ")) }
        let openings = headers.filter { $0.hasSuffix("\"Opening balance\"") }
        #expect(headers.count - openings.count == txs.count)
        let ids = lines.compactMap { l -> Int? in
            guard l.hasPrefix("  moneyflow-id: \"") else { return nil }
            return Int(l.dropFirst(17).dropLast())
        }
        #expect(ids.sorted() == txs.map { $0["id"] as! Int }.sorted())
        #expect(lines.filter { $0.hasPrefix("  sources: \"") }.count == txs.count)
        #expect(text.contains("  sources: \"cmb-pdf:"))
        #expect(text.contains("  external-id: \"")) // Plaid transaction ids

        // Opens at each account's first transaction, with its currencies.
        #expect(lines.contains("2026-03-01 open Assets:CMB:3321 CNY,HKD,USD"))
        #expect(lines.contains("2026-01-02 open Assets:Chase:Checking USD"))
        #expect(lines.contains("2024-03-01 open Assets:Plaid:0000 USD"))
        #expect(lines.contains("2024-03-01 open Liabilities:Plaid:3333 USD"))
        #expect(lines.contains { $0.hasSuffix(" open Expenses:Uncategorized") })
        #expect(lines.contains { $0.hasSuffix(" open Income:Uncategorized") })

        // Balance assertions from statement balances, dated the day after, per currency.
        let balances = lines.filter { Self.isDated($0) && $0.dropFirst(11).hasPrefix("balance ") }
        #expect(balances.contains("2026-03-02 balance Assets:CMB:3321  151738.26 CNY"))
        #expect(balances.contains("2026-03-02 balance Assets:CMB:3321  18950.00 HKD"))
        #expect(balances.contains { $0.hasSuffix(" USD") && $0.contains("Assets:CMB:3321") })
        #expect(balances.contains { $0.contains("Assets:Chase:Checking") })
        #expect(!balances.contains { $0.contains("Plaid") }) // Plaid prints no running balance
        // At most one assertion per account, currency and date.
        let keys = balances.map { l -> String in
            let p = l.split(separator: " "); return "\(p[0]) \(p[2]) \(p.last!)"
        }
        #expect(Set(keys).count == keys.count)
        try Self.expectBeanCheckPasses(text)
    }

    /// Chase rows are newest first: a day's last row is the one printed first for that day.
    @Test func newestFirstCSVAssertsTheDaysLastBalance() throws {
        let store = try Self.importedStore(["Samples/csv/chase_checking.csv"])
        let bean = try Self.export(store, "beancount")
        let lines = Self.lines(bean)
        #expect(lines.contains("2026-01-03 balance Assets:Chase:Checking  3250.16 USD")) // not 5100.16
        #expect(lines.contains("2026-02-14 balance Assets:Chase:Checking  5771.84 USD")) // payroll after Spotify
        #expect(lines.contains("2026-02-18 balance Assets:Chase:Checking  5154.27 USD")) // the fee, top of 02/17
        #expect(lines.contains("2026-02-21 balance Assets:Chase:Checking  4150.31 USD"))
        #expect(!lines.contains { $0.hasPrefix("2026-02-28 balance") }) // 02/27 row has no balance
        // An opening balance makes the first assertion hold.
        #expect(lines.contains("  Assets:Chase:Checking  5187.64 USD"))

        let journal = try Self.export(store, "ledger")
        let jl = Self.lines(journal)
        #expect(jl.contains("account Assets:Chase:Checking"))
        #expect(jl.contains("commodity 1000.00 USD"))
        #expect(jl.contains { $0.contains("-987.45 USD = 4150.31 USD") })
        #expect(jl.contains { $0.contains("-5.00 USD = 5154.27 USD") })
        #expect(!jl.contains { $0.contains("-16.51 USD =") })
        #expect(jl.filter { $0.contains(" USD = ") }.count == lines.filter { $0.contains(" balance ") }.count)
        try Self.expectBeanCheckPasses(bean)
        try Self.expectHledgerPasses(journal)
    }

    @Test func ledgerExportOfRealSamples() throws {
        let store = try Self.importedStore()
        let txs = try Self.transactions(store)
        let text = try Self.export(store, "ledger")
        let lines = Self.lines(text)
        let headers = lines.filter { Self.isDated($0) && !$0.hasSuffix(" Opening balance") }
        #expect(headers.count == txs.count)
        #expect(lines.filter { $0.hasPrefix("    ; moneyflow-id: ") }.count == txs.count)
        for a in [
            "Assets:CMB:3321", "Assets:Chase:Checking", "Assets:Plaid:0000", "Liabilities:Plaid:3333", "Expenses:Uncategorized",
            "Income:Uncategorized",
        ] {
            #expect(lines.contains("account \(a)"))
        }
        for c in ["CNY", "HKD", "USD"] { #expect(lines.contains("commodity 1000.00 \(c)")) }
        #expect(lines.contains { $0.contains("-642.18 CNY = 151738.26 CNY") })
        #expect(lines.contains { $0.contains("700.00 HKD = 18950.00 HKD") })
        // Dates never go backwards.
        let dates = lines.filter(Self.isDated).map { String($0.prefix(10)) }
        #expect(dates == dates.sorted())
        // Same assertions as the beancount export.
        let bean = try Self.export(store, "beancount")
        #expect(lines.filter { $0.contains(" = ") }.count == Self.lines(bean).filter { $0.contains(" balance ") }.count)
        try Self.expectHledgerPasses(text)
    }

    /// The 2020 sample prints two rows of 2020-01-15 swapped; the balance chain decides the day's end.
    @Test func swappedStatementRowsStillAssertTheDaysEnd() throws {
        let store = try Self.importedStore(["Samples/cmb/cmb2020_layout.pdf"])
        let bean = try Self.export(store, "beancount")
        #expect(Self.lines(bean).contains("2020-01-16 balance Assets:CMB:1357  8459.46 CNY"))
        let journal = try Self.export(store, "ledger")
        #expect(Self.lines(journal).contains { $0.contains("-120.00 CNY = 8459.46 CNY") })
        try Self.expectBeanCheckPasses(bean)
        try Self.expectHledgerPasses(journal)
    }

    @Test func tamperedAssertionIsCaughtByTheCheckers() throws {
        let store = try Self.importedStore(["Samples/csv/chase_checking.csv"])
        let bean = try Self.export(store, "beancount").replacingOccurrences(of: "4150.31 USD", with: "4151.31 USD")
        if let r = try Self.check("bean-check", ["FILE"], text: bean, ext: "beancount") { #expect(r.status != 0) }
        let journal = try Self.export(store, "ledger").replacingOccurrences(of: "= 4150.31 USD", with: "= 4151.31 USD")
        if let r = try Self.check("hledger", ["-f", "FILE", "check"], text: journal, ext: "journal") { #expect(r.status != 0) }
    }

    @Test func filtersLedgerNameAndOperatingCurrency() throws {
        let store = try Self.importedStore()
        let rename = try CLI.run(["accounts", "rename", "CMB 3321", "--ledger-name", "Assets:Bank:CMB-Main"], store: store)
        #expect(rename.status == 0, "\(rename.stderr)")
        let text = try Self.export(
            store, "beancount",
            [
                "--account", "CMB 3321", "--from", "2026-04-01", "--to", "2026-04-15",
                "--operating-currency", "CNY",
            ])
        let lines = Self.lines(text)
        #expect(lines.contains("option \"operating_currency\" \"CNY\""))
        #expect(lines.contains("2026-04-01 open Assets:Bank:CMB-Main CNY,HKD,USD"))
        #expect(!text.contains("Chase") && !text.contains("Plaid"))
        let dates = lines.filter { Self.isDated($0) && !$0.contains(" balance ") }.map { String($0.prefix(10)) }
        #expect(dates.allSatisfy { $0 >= "2026-04-01" && $0 <= "2026-04-15" })
        // The opening balance covers what was there before --from.
        #expect(text.contains("\"Opening balance\""))
        try Self.expectBeanCheckPasses(text)
        try Self.expectHledgerPasses(try Self.export(store, "ledger", ["--account", "CMB 3321", "--from", "2026-04-01"]))

        let unknown = try CLI.run(["export", "--format", "ledger", "--account", "No Such"], store: store)
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("No Such"))
    }

    @Test func csvAndJSONReuseTheTransactionsContracts() throws {
        let store = try Self.importedStore(["Samples/csv/chase_checking.csv"])
        for format in ["csv", "json"] {
            let exported = try Self.export(store, format)
            let listed = try CLI.run(["transactions", "--format", format], store: store).stdout
            #expect(exported.trimmingCharacters(in: .newlines) == listed.trimmingCharacters(in: .newlines))
            #expect(exported.hasSuffix(format == "csv" ? "\r\n" : "\n"))
        }
    }

    @Test func outputFileIsNeverOverwrittenWithoutForce() throws {
        let store = try Self.importedStore(["Samples/csv/chase_checking.csv"])
        let out = URL(fileURLWithPath: store).deletingLastPathComponent().appendingPathComponent("ledger.beancount").path
        let first = try CLI.run(["export", "--format", "beancount", "--output", out], store: store)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.isEmpty)
        let written = try String(contentsOfFile: out, encoding: .utf8)
        #expect(written == (try Self.export(store, "beancount")))

        try Data("keep me\n".utf8).write(to: URL(fileURLWithPath: out))
        let refused = try CLI.run(["export", "--format", "ledger", "--output", out], store: store)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("--force"))
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "keep me\n")

        let forced = try CLI.run(["export", "--format", "ledger", "--output", out, "--force"], store: store)
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try String(contentsOfFile: out, encoding: .utf8) == (try Self.export(store, "ledger")))

        let usage = try CLI.run(["export", "--format", "yaml"], store: store)
        #expect(usage.status == 2)
    }

    /// Pure exporters on awkward input: quotes, backslashes, `;` and `|`, CJK names, pending,
    /// zero amounts, an invalid user ledger name, two accounts with the same default name.
    @Test func awkwardTextAndNames() throws {
        let accounts = [
            LedgerAccount(
                id: 1, name: "工资卡", institution: "招商银行", number: "6214 **** 0042", type: nil, subtype: nil,
                currencies: ["CNY"], provider: nil, providerAccountID: nil, currentBalance: nil, availableBalance: nil,
                ledgerName: nil, keys: ["cmb:6214********0042"]),
            LedgerAccount(
                id: 2, name: "My Card", institution: "Some Bank", number: nil, type: "card", subtype: nil,
                currencies: ["USD"], provider: nil, providerAccountID: nil, currentBalance: nil, availableBalance: nil,
                ledgerName: "liabilities:信用卡:visa card", keys: []),
            LedgerAccount(
                id: 3, name: "Some Bank Savings", institution: "Some Bank", number: nil, type: "savings", subtype: nil,
                currencies: ["JPY"], provider: nil, providerAccountID: nil, currentBalance: nil, availableBalance: nil,
                ledgerName: nil, keys: []),
            LedgerAccount(
                id: 4, name: "Some Bank Savings!", institution: "Some Bank", number: nil, type: "savings", subtype: nil,
                currencies: ["USD"], provider: nil, providerAccountID: nil, currentBalance: nil, availableBalance: nil,
                ledgerName: nil, keys: []),
        ]
        func tx(
            _ id: Int64, _ account: Int64, _ date: String, _ minor: Int64, _ cur: String, _ desc: String,
            counterparty: String? = nil, note: String? = nil, balance: Int64? = nil, pending: Bool = false
        ) -> LedgerTransaction {
            LedgerTransaction(
                id: id, accountID: account, account: accounts[Int(account) - 1].name, date: LocalDate(iso: date, .lenient)!,
                amount: Money(minorUnits: minor, currency: cur), description: desc, counterparty: counterparty, note: note,
                balance: balance.map { Money(minorUnits: $0, currency: cur) }, category: nil, pending: pending,
                status: "active", needsReview: false,
                sources: [
                    LedgerSource(
                        id: id, kind: .csv, externalID: nil, file: "f\(account).csv", line: Int(id) + 1, page: nil,
                        row: Int(id), state: "active", date: LocalDate(iso: date, .lenient)!,
                        amount: Money(minorUnits: minor, currency: cur), description: desc,
                        counterparty: counterparty, pending: pending)
                ])
        }
        let txs = [
            tx(
                1, 1, "2026-01-01", -1234, "CNY", "快捷支付 \"quoted\" back\\slash; semi | pipe", counterparty: "某某|公司;", note: "line1\nline2",
                balance: 98766),
            tx(2, 1, "2026-01-01", 0, "CNY", "zero", balance: 98766),
            tx(3, 2, "2026-01-02", -500, "USD", "pending charge", pending: true),
            tx(4, 3, "2026-01-03", 1500, "JPY", "interest", balance: 101500),
            tx(5, 4, "2026-01-03", 100, "USD", "interest"),
        ]
        let bean = BeancountExporter.export(accounts: accounts, transactions: txs)
        #expect(bean.contains("2026-01-01 * \"某某|公司;\" \"快捷支付 \\\"quoted\\\" back\\\\slash; semi | pipe — line1 line2\""))
        #expect(bean.contains("2026-01-02 ! \"pending charge\""))
        #expect(bean.contains("open Assets:CMB:0042 CNY"))
        #expect(bean.contains("open Liabilities:X:VisaCard USD"))
        #expect(bean.contains("open Assets:SomeBank:Savings JPY"))
        #expect(bean.contains("open Assets:SomeBank:Savings-4 USD"))
        #expect(bean.contains("  Equity:Uncategorized  0.00 CNY"))
        #expect(bean.contains("2026-01-02 balance Assets:CMB:0042  987.66 CNY"))
        #expect(bean.contains("2026-01-04 balance Assets:SomeBank:Savings  101500 JPY"))
        #expect(!bean.contains("\n\"") && !bean.contains("line1\n"))
        try Self.expectBeanCheckPasses(bean)

        let journal = LedgerExporter.export(accounts: accounts, transactions: txs)
        #expect(journal.contains("2026-01-01 某某/公司, | 快捷支付 \"quoted\" back\\slash, semi / pipe"))
        #expect(journal.contains("2026-01-02 ! pending charge"))
        #expect(journal.contains("commodity 1000. JPY"))
        try Self.expectHledgerPasses(journal)
    }
}

/// Checks that need an outside tool (bean-check, hledger, strace) are optional on a developer's
/// machine but mandatory in CI: with `CI` set (`.ci/run` exports CI=true and installs them) a
/// missing tool fails the test instead of silently checking less.
enum CIEnvironment {
    static func missingTool(_ tool: String, consequence: String, sourceLocation: SourceLocation = #_sourceLocation) {
        if TestEnvironment.isCI() {
            Issue.record("\(tool) is not installed but CI is set: run scripts/install-deps.sh", sourceLocation: sourceLocation)
        } else {
            print("\(tool) is not installed; \(consequence) (CI would fail)")
        }
    }
}
