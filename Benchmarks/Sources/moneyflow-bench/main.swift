import Foundation
import MoneyFlowCore
import MoneyFlowImporters
import MoneyFlowPDF
import MoneyFlowPipeline
import MoneyFlowReconcile
import MoneyFlowStore
import MoneyFlowZip

// moneyflow-bench: one benchmark case per process (so VmHWM is that case's peak), one JSON
// result line on stdout. Benchmarks/run.sh drives it; Benchmarks/README.md explains the cases.

let usage = """
usage: moneyflow-bench gen         --n N [--seed S] --out DIR [--no-plaid-pages]
       moneyflow-bench reconcile   --n N [--seed S] [--mode store|memory] [--store PATH] [--files K [--no-reopen]] [--explain K] [--series] [--full-digest] [--legacy-dates]
       moneyflow-bench store-write --rows N [--seed S] [--store PATH]
       moneyflow-bench store-reopen --rows N [--second M] [--seed S] --store PATH   (after store-write --rows N --store PATH)
       moneyflow-bench store-file  --csv FILE [--store PATH]
       moneyflow-bench csv-read    --csv FILE
       moneyflow-bench plaid-get-file --n N [--seed S] [--lean] --out FILE
       moneyflow-bench plaid-import --file FILE [--store PATH]
       moneyflow-bench store-categorize [--rows N] [--store PATH]
       moneyflow-bench peer-rows   --rows N [--seed S] --out DIR
       moneyflow-bench cmb         --zip FILE --password PW [--store PATH] [--breakdown]
       moneyflow-bench wallets     --dir DIR [--store PATH]   (DIR from scripts/gen_wallet_samples.py --year DIR)
"""

/// Plans and applies `statement` the way ``ImportService/apply`` does for a statement without
/// sync facts, timing the plan (inside the write transaction) apart from the writes.
func planAndApply(_ statement: ImportedStatement, store: LedgerStore, fileName: String, sha: String,
                  accountOverride: String?, reopen: Bool = true) throws -> (plan: ImportPlan, batchID: Int64, planWall: Double, totalWall: Double, totalCPU: Double) {
    var options = ReconcileOptions()
    options.accountOverride = accountOverride
    options.reopenEarlierDecisions = reopen
    let reconciler = Reconciler(options: options)
    var planWall = 0.0
    let (applied, wall, cpu) = try measure {
        try store.importStatement(dryRun: false) { view in
            let t0 = now()
            let p = try reconciler.plan(statement, fileName: fileName, fileSHA256: sha, view: view)
            planWall = now() - t0
            return p
        }!
    }
    return (applied.plan, applied.batchID, planWall, wall, cpu)
}

/// FNV-1a digest of a plan's decisions (outcome and linked transaction per entry).
func planDigest(_ plan: ImportPlan) -> String {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    func mix(_ s: String) { for b in s.utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 } }
    for e in plan.entries {
        switch e.decision {
        case .link(let t, _, _, _): mix("\(e.index):L\(t);")
        case .new: mix("\(e.index):N;")
        case .needsReview(let c): mix("\(e.index):R\(c.compactMap(\.transactionID));")
        default: mix("\(e.index):\(e.decision.label);")
        }
    }
    return String(h, radix: 16)
}

/// FNV-1a digest of everything a plan decides: each entry's fingerprint and full decision
/// (scores, reasons, evidence, review candidates with theirs), the relinks and the removals,
/// for checking that a faster engine plans exactly the same (`reconcile --full-digest`).
func fullPlanDigest(_ plan: ImportPlan) -> String {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    func mix(_ s: String) { for b in s.utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 } }
    for e in plan.entries { mix("\(e.index)|\(e.fingerprint)|\(e.decision)\n") }
    for r in plan.relinks { mix("relink \(r.recordID) \(r.fromTransactionID) \(r.from) \(r.decision)\n") }
    for r in plan.removals { mix("removal \(r)\n") }
    mix("accounts \(plan.accounts)")
    return String(h, radix: 16)
}

func scorePlan(_ plan: ImportPlan, data: Dataset) -> Dataset.Score {
    var byIndex = [RecordDecision?](repeating: nil, count: plan.statement.records.count)
    for e in plan.entries { byIndex[e.index] = e.decision }
    return data.score(rows: byIndex.count, linkedPlaid: { i in
        if case .link(let t, _, _, _)? = byIndex[i] { return Int(t) - 1 }   // fresh store: txn k = Plaid record k-1
        return nil
    }, isNew: { i in if case .new? = byIndex[i] { return true }; return false },
       isReview: { i in if case .needsReview? = byIndex[i] { return true }; return false })
}

/// ``scorePlan`` for a ledger built from several files: statement row i and Plaid record j
/// are recognised by their locators (rows i + 1 and j + 1).
func scoreLedger(_ txs: [LedgerTransaction], rows: Int, data: Dataset) -> Dataset.Score {
    var plaidOf = [Int?](repeating: nil, count: rows), alone = [Bool](repeating: false, count: rows), review = alone
    for t in txs {
        guard let s = t.sources.first(where: { $0.kind == .csv }), let r = s.row else { continue }
        let p = t.sources.first(where: { $0.kind == .plaid })?.row
        plaidOf[r - 1] = p.map { $0 - 1 }
        alone[r - 1] = p == nil && !t.needsReview
        review[r - 1] = t.needsReview
    }
    return data.score(rows: rows, linkedPlaid: { plaidOf[$0] }, isNew: { alone[$0] }, isReview: { review[$0] })
}

/// Size of the connected components the matcher's pair graph forms (statement row -- Plaid
/// record when amounts are equal and dates within the window), the unit `decide` solves at once.
func componentStats(stmt: ImportedStatement, plaid: ImportedStatement, window: Int = 4) -> String {
    let nr = stmt.records.count, nc = plaid.records.count
    var parent = Array(0..<(nr + nc))
    func find(_ x: Int) -> Int { var x = x; while parent[x] != x { parent[x] = parent[parent[x]]; x = parent[x] }; return x }
    var byAmount: [Int64: [Int]] = [:]
    for (c, r) in plaid.records.enumerated() { byAmount[r.amount.minorUnits, default: []].append(c) }
    var edges = 0
    for (i, r) in stmt.records.enumerated() {
        for c in byAmount[r.amount.minorUnits] ?? [] {
            let p = plaid.records[c]
            let g = abs(r.date.dayNumber - p.date.dayNumber)
            if g <= window { edges += 1; let a = find(i), b = find(nr + c); if a != b { parent[a] = b } }
        }
    }
    var rows: [Int: Int] = [:], cols: [Int: Int] = [:]
    for i in 0..<nr { rows[find(i), default: 0] += 1 }
    for c in 0..<nc { cols[find(nr + c), default: 0] += 1 }
    var sizes: [(r: Int, c: Int)] = []
    for (root, r) in rows { let c = cols[root] ?? 0; if c > 0 { sizes.append((r, c)) } }
    sizes.sort { (a: (r: Int, c: Int), b: (r: Int, c: Int)) -> Bool in a.r + a.c > b.r + b.c }
    let big = sizes.filter { (x: (r: Int, c: Int)) -> Bool in x.r + x.c > 100 }
    var bigRows = 0
    for x in big { bigRows += x.r }
    // Trip count of the matcher's candidate loop: every row scans its whole amount bucket.
    var scans = 0
    for r in stmt.records { scans += byAmount[r.amount.minorUnits]?.count ?? 0 }
    let largest = sizes.prefix(5).map { (x: (r: Int, c: Int)) -> String in "\(x.r)x\(x.c)" }.joined(separator: ", ")
    return "amount-bucket scans \(scans) (\(scans / max(1, nr)) per row), pairs \(edges), components with a pair \(sizes.count), largest (rows x cols): \(largest); components over 100 nodes: \(big.count) holding \(bigRows) rows"
}

/// Prints wrong links (and what the truth was) on stderr, for diagnosis.
func explainWrong(_ plan: ImportPlan, data: Dataset, stmt: ImportedStatement, plaid: ImportedStatement, limit: Int) {
    var shown = 0, noPartner = 0, hadPartner = 0, partnerTaken = 0
    var linkedTo = [Int: Int]()   // plaid index -> statement row
    for e in plan.entries { if case .link(let t, _, _, _) = e.decision { linkedTo[Int(t) - 1] = e.index } }
    func d(_ r: IncomingRecord) -> String { "\(r.date.iso) \(r.amount.decimalString) \(r.description) | \(r.counterparty ?? "")" }
    for e in plan.entries {
        guard case .link(let t, let score, let reasons, _) = e.decision else { continue }
        let i = e.index, j = Int(t) - 1
        let ti = data.statementTxn[i]
        let l = data.txns[data.plaidTxn[j]], x = data.txns[ti]
        guard l.group != x.group, !(data.plaidDay(l) == data.plaidDay(x) && l.amount == x.amount && data.plaidName(l) == data.plaidName(x)) else { continue }
        let p = data.plaidIndexOfTxn[ti]
        if p < 0 { noPartner += 1 } else { hadPartner += 1; if linkedTo[p] != nil { partnerTaken += 1 } }
        if shown < limit {
            shown += 1
            var msg = "WRONG row \(i): \(d(stmt.records[i]))\n   linked  plaid \(j): \(d(plaid.records[j])) score \(String(format: "%.3f", score)) \(reasons.map(\.description).joined(separator: "; "))\n"
            if p >= 0 {
                msg += "   truth   plaid \(p): \(d(plaid.records[p]))"
                if let other = linkedTo[p] { msg += " (taken by row \(other): \(d(stmt.records[other])))" }
                msg += "\n"
                // Rows that have the true partner among their review candidates.
                for e2 in plan.entries {
                    guard case .needsReview(let cs) = e2.decision, cs.contains(where: { $0.transactionID == Int64(p + 1) }) else { continue }
                    msg += "   truth is a review candidate of row \(e2.index): \(d(stmt.records[e2.index]))\n"
                }
            } else { msg += "   truth   none (missing from the Plaid side)\n" }
            FileHandle.standardError.write(Data(msg.utf8))
        }
    }
    FileHandle.standardError.write(Data("wrong links: \(noPartner) whose real transaction is missing from Plaid, \(hadPartner) whose partner exists (\(partnerTaken) of those: partner taken by another row)\n".utf8))
}

func emitScore(_ line: inout ResultLine, _ s: Dataset.Score) {
    line.set("links_correct", s.correct); line.set("links_wrong", s.wrong); line.set("links_wrong_repeat_purchase", s.wrongSamePurchaseOtherDay); line.set("links_swapped_identical", s.swapped); line.set("missed", s.missed)
    line.set("new_correct", s.newCorrect); line.set("review", s.review); line.set("linkable", s.linkable)
}

func runReconcile(_ a: Args) throws {
    let n = a.int("n", 10_000), seed = UInt64(a.int("seed", 7))
    let mode = a.string("mode", "store")
    var line = ResultLine()
    line.set("case", "reconcile-\(mode)"); line.set("n", n); line.set("seed", Int(seed))
    let dates: Dataset.PlaidDates = a.has("legacy-dates") ? .legacy : .posted
    let (data, genWall, _) = measure { Dataset(n: n, seed: seed, plaidDates: dates) }
    line.set("gen_s", genWall)
    if mode == "memory" {
        // The Plaid side exists only as the store would hold it (the view); its import records
        // are dropped before the statement side is built, as in a real run.
        let (view, buildWall, _) = measure { MemoryLedgerView(plaid: data.plaidStatement(), accountName: Dataset.accountName) }
        let stmt = data.statementStatement()
        line.set("statement_rows", stmt.records.count); line.set("plaid_rows", view.candidates.count)
        if a.has("components") { FileHandle.standardError.write(Data("components: \(componentStats(stmt: stmt, plaid: data.plaidStatement()))\n".utf8)); return }
        line.set("view_build_s", buildWall)
        let peakBefore = peakMiB()
        var options = ReconcileOptions()
        options.accountOverride = Dataset.accountName
        if let m = Double(a.string("review-margin", "")) { options.reviewMargin = m }
        if let m = Double(a.string("min-text", "")) { options.minimumTextSimilarity = m }
        let (plan, wall, cpu) = try measure { try Reconciler(options: options).plan(stmt, fileName: "statement.csv", fileSHA256: "bench-stmt-\(n)-\(seed)", view: view) }
        line.set("plan_s", wall); line.set("plan_cpu_s", cpu)
        line.set("peak_before_mib", peakBefore); line.set("peak_mib", peakMiB())
        emitScore(&line, scorePlan(plan, data: data))
        line.set("plan_digest", planDigest(plan))
        if a.has("full-digest") { line.set("plan_digest_full", fullPlanDigest(plan)) }
        if a.has("explain") { explainWrong(plan, data: data, stmt: stmt, plaid: data.plaidStatement(), limit: a.int("explain", 20)) }
        if a.has("series") { dumpSeries(plan, data: data, stmt: stmt, plaid: data.plaidStatement()) }
    } else {
        let path = a.string("store", "/tmp/moneyflow-bench-reconcile.sqlite")
        line.set("store_kind", storeKind(path))
        let store = try freshStore(path)
        let service = ImportService(store: store)
        // The Plaid side exists only in the store once imported (as when a user imports the
        // statement later, in another process): its records are dropped before the statement
        // side is built, and the statement step's peak starts from what is left.
        try {
            let plaid = data.plaidStatement()
            line.set("plaid_rows", plaid.records.count)
            let (pres, pWall, _) = try measure {
                try service.apply(plaid, fileName: "plaid-sync.json", sha256: "bench-plaid-\(n)-\(seed)", options: FileImportOptions())
            }
            line.set("plaid_import_s", pWall)
            line.set("plaid_new", pres.plan.counts.new)
            guard pres.plan.counts.new == plaid.records.count else { throw BenchError("Plaid side: expected all records new") }
        }()
        line.set("plaid_peak_mib", peakMiB())
        restartPeak()
        let stmt = data.statementStatement()
        line.set("statement_rows", stmt.records.count)
        let peakBefore = peakMiB()
        let files = a.int("files", 1)
        if files > 1 {
            // The statement as `files` consecutive downloads, each repeating the last 7 days of
            // the one before (re-downloaded statements overlap): later files re-plan the
            // earlier files' decisions near their rows.
            let days = stmt.records.map(\.date.dayNumber)
            let first = days.min()!, span = days.max()! - first + 1
            var planWall = 0.0, totalWall = 0.0, relinked = 0
            for k in 0..<files {
                let lo = first + span * k / files - (k == 0 ? 0 : 7), hi = first + span * (k + 1) / files - 1
                var part = stmt
                part.records = stmt.records.filter { (lo...hi).contains($0.date.dayNumber) }
                let r = try planAndApply(part, store: store, fileName: "statement-\(k + 1).csv", sha: "bench-stmt-\(n)-\(seed)-\(k)", accountOverride: Dataset.accountName,
                                         reopen: !a.has("no-reopen"))
                planWall += r.planWall; totalWall += r.totalWall; relinked += r.plan.relinks.count
            }
            let txs = try store.transactions()
            emitScore(&line, scoreLedger(txs, rows: stmt.records.count, data: data))
            line.set("files", files); line.set("plan_s", planWall); line.set("apply_s", totalWall - planWall); line.set("total_s", totalWall)
            line.set("relinked", relinked)
            line.set("linked_txns", txs.filter { $0.sources.count > 1 }.count)
            line.set("peak_before_mib", peakBefore); line.set("peak_mib", peakMiB())
            removeStore(path)
            line.emit()
            return
        }
        let r = try planAndApply(stmt, store: store, fileName: "statement.csv", sha: "bench-stmt-\(n)-\(seed)", accountOverride: Dataset.accountName)
        line.set("plan_s", r.planWall); line.set("apply_s", r.totalWall - r.planWall); line.set("total_s", r.totalWall)
        line.set("total_cpu_s", r.totalCPU)
        line.set("peak_before_mib", peakBefore); line.set("peak_mib", peakMiB())
        emitScore(&line, scorePlan(r.plan, data: data))
        line.set("plan_digest", planDigest(r.plan))
        if a.has("full-digest") { line.set("plan_digest_full", fullPlanDigest(r.plan)) }
        line.set("linked_txns", try store.transactions().filter { $0.sources.count > 1 }.count)
        removeStore(path)
    }
    line.emit()
}

func runStoreWrite(_ a: Args) throws {
    let rows = a.int("rows", 1_000_000), seed = UInt64(a.int("seed", 7))
    let path = a.string("store", "/tmp/moneyflow-bench-store.sqlite")
    var line = ResultLine()
    line.set("case", "store-write"); line.set("seed", Int(seed))
    var stmt = storeWriteStatement(rows: rows, seed: seed)
    stmt.records = Array(stmt.records.prefix(rows))
    line.set("rows", stmt.records.count)
    let store = try freshStore(path)
    let r = try planAndApply(stmt, store: store, fileName: "statement.csv", sha: "bench-store-\(rows)-\(seed)", accountOverride: nil)
    guard r.plan.counts.new == rows else { throw BenchError("expected \(rows) new records, got \(r.plan.counts.new)") }
    line.set("plan_s", r.planWall); line.set("apply_s", r.totalWall - r.planWall); line.set("total_s", r.totalWall)
    line.set("total_cpu_s", r.totalCPU); line.set("peak_mib", peakMiB())
    line.set("store_kind", storeKind(path))
    line.emit()
}

func runStoreFile(_ a: Args) throws {
    guard let csv = a.values["csv"] else { throw BenchError("--csv FILE required") }
    let path = a.string("store", "/tmp/moneyflow-bench-storefile.sqlite")
    var line = ResultLine()
    line.set("case", "store-file")
    let store = try freshStore(path)
    let service = ImportService(store: store)
    let options = FileImportOptions(format: "csv")
    let ((stmt, sha), readWall, _) = try measure { try service.read(path: csv, options: options) }
    line.set("rows", stmt.records.count); line.set("read_s", readWall)
    let r = try planAndApply(stmt, store: store, fileName: (csv as NSString).lastPathComponent, sha: sha, accountOverride: nil)
    line.set("plan_s", r.planWall); line.set("apply_s", r.totalWall - r.planWall); line.set("total_s", readWall + r.totalWall)
    line.set("peak_mib", peakMiB())
    line.emit()
    removeStore(path)
}

func runCMB(_ a: Args) throws {
    guard let zip = a.values["zip"], let pw = a.values["password"] else { throw BenchError("--zip FILE --password PW required") }
    let path = a.string("store", "/tmp/moneyflow-bench-cmb.sqlite")
    var line = ResultLine()
    line.set("case", "cmb"); line.set("file", (zip as NSString).lastPathComponent)
    let store = try freshStore(path)
    let service = ImportService(store: store)
    var options = FileImportOptions()
    options.password = { _ in pw }
    let c0 = cpuSeconds(), t0 = now()
    let (stmt, sha) = try service.read(path: zip, options: options)
    let t1 = now()
    let result = try service.apply(stmt, fileName: zip, sha256: sha, options: options)
    let t2 = now(), c2 = cpuSeconds()
    line.set("rows", stmt.records.count); line.set("new", result.plan.counts.new)
    line.set("read_s", t1 - t0); line.set("apply_s", t2 - t1); line.set("total_s", t2 - t0); line.set("total_cpu_s", c2 - c0)
    line.set("peak_mib", peakMiB())
    if a.has("breakdown") {
        // The stages again, one by one (warm caches): unzip+decrypt, poppler text, reconstruction.
        let data = try Data(contentsOf: URL(fileURLWithPath: zip))
        let (pdf, unzipWall, _) = try measure { () throws -> Data in
            let archive = try ZipArchive(data: data)
            let entry = archive.entries.first { $0.name.lowercased().hasSuffix(".pdf") }!
            return try archive.data(for: entry, password: entry.isEncrypted ? pw : nil)
        }
        let (pages, extractWall, extractCPU) = try measure { try PDFTextExtractor().extract(data: pdf) }
        let (_, extract1Wall, _) = try measure { try PDFTextExtractor(maxThreads: 1).extract(data: pdf) }
        let (_, reconWall, _) = try measure { try CMBStatementReconstructor().importedStatement(from: pages, fileName: zip) }
        line.set("pages", pages.count)
        line.set("unzip_s", unzipWall); line.set("extract_s", extractWall); line.set("extract_cpu_s", extractCPU)
        line.set("extract_1thread_s", extract1Wall); line.set("reconstruct_s", reconWall)
    }
    line.emit()
    removeStore(path)
}

/// Writes, as CSV without header, exactly the `txn`, `record` and `link` rows that `store-write
/// --rows N` makes MoneyFlow write (column order of the store's schema, NULL as empty), so the
/// sqlite3 peer imports the same rows even where our import is too slow to finish. `link` gets
/// five columns of its six: sqlite3 fills the missing `evidence` with NULL (and warns once per
/// row), where an empty field would be '' and fail its CHECK.
func runPeerRows(_ a: Args) throws {
    let rows = a.int("rows", 1_000_000), seed = UInt64(a.int("seed", 7))
    guard let out = a.values["out"] else { throw BenchError("--out DIR required") }
    try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
    var stmt = storeWriteStatement(rows: rows, seed: seed)
    stmt.records = Array(stmt.records.prefix(rows))
    let fps = Fingerprint.keys(for: stmt.records)
    let reasons = String(decoding: try JSONEncoder().encode([MatchReason("new", "no matching transaction")]), as: UTF8.self)
    func q(_ s: String?) -> String {
        guard let s else { return "" }
        if s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" }) { return "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
        return s
    }
    func n(_ v: Int64?) -> String { v.map(String.init) ?? "" }
    func n(_ v: Int?) -> String { v.map(String.init) ?? "" }
    var txn = "", rec = "", link = ""
    txn.reserveCapacity(rows * 140); rec.reserveCapacity(rows * 420); link.reserveCapacity(rows * 80)
    for (i, r) in stmt.records.enumerated() {
        let id = i + 1
        txn += "\(id),1,\(r.date.iso),\(r.amount.minorUnits),\(r.amount.currency),\(q(r.description)),\(q(r.counterparty)),\(q(r.note)),\(n(r.balance?.minorUnits)),\(q(r.category)),\(r.pending ? 1 : 0),active,0,,,,1,\(10_000_000 + Int64(i))\n"
        rec += "\(id),1,1,\(r.sourceKind.rawValue),\(q(fps[i])),\(q(r.externalID)),\(q(r.pendingExternalID)),\(r.date.iso),\(q(r.authorizedDate?.iso)),\(q(r.time)),\(r.amount.minorUnits),\(r.amount.currency),\(q(r.description)),\(q(r.counterparty)),\(q(r.note)),\(n(r.balance?.minorUnits)),\(q(r.category)),\(r.pending ? 1 : 0),active,\(n(r.locator.line)),\(n(r.locator.page)),\(n(r.locator.row)),\(q(r.raw)),\(i)\n"
        link += "\(id),\(id),1.0,\(q(reasons)),auto\n"
    }
    try Data(txn.utf8).write(to: URL(fileURLWithPath: out + "/txn.csv"))
    try Data(rec.utf8).write(to: URL(fileURLWithPath: out + "/record.csv"))
    try Data(link.utf8).write(to: URL(fileURLWithPath: out + "/link.csv"))
}

func runGen(_ a: Args) throws {
    let n = a.int("n", 10_000), seed = UInt64(a.int("seed", 7))
    guard let out = a.values["out"] else { throw BenchError("--out DIR required") }
    let (data, wall, _) = measure { Dataset(n: n, seed: seed) }
    try data.writeFiles(to: out, plaidPages: !a.has("no-plaid-pages"))
    var line = ResultLine()
    line.set("case", "gen"); line.set("n", n); line.set("seed", Int(seed)); line.set("gen_s", wall)
    line.set("statement_rows", data.statementTxn.count); line.set("plaid_rows", data.plaidTxn.count)
    line.set("out", out)
    line.emit()
}

let argv = CommandLine.arguments
guard argv.count >= 2 else { FileHandle.standardError.write(Data(usage.utf8)); exit(2) }
let args = Args(argv.dropFirst(2))
do {
    switch argv[1] {
    case "gen": try runGen(args)
    case "reconcile": try runReconcile(args)
    case "store-write": try runStoreWrite(args)
    case "store-reopen": try runStoreReopen(args)
    case "store-file": try runStoreFile(args)
    case "csv-read": try runCSVRead(args)
    case "plaid-get-file": try runPlaidGetFile(args)
    case "plaid-import": try runPlaidImport(args)
    case "store-categorize": try runStoreCategorize(args)
    case "cmb": try runCMB(args)
    case "wallets": try runWallets(args)
    case "peer-rows": try runPeerRows(args)
    default: FileHandle.standardError.write(Data(usage.utf8)); exit(2)
    }
} catch {
    FileHandle.standardError.write(Data("moneyflow-bench: \(error)\n".utf8))
    exit(1)
}
