import Foundation
import MoneyFlowCore
import MoneyFlowPipeline
import MoneyFlowStore
import MoneyFlowStoreTestSupport
import MoneyFlowTestSupport

// Running generated scenarios through the store and judging the ledger against their ground
// truth (see ScenarioGenerator.swift for the scenarios themselves).

// MARK: - Store helpers

/// Folder for this test run's stores: RAM-backed (/dev/shm) when there is one, since these tests
/// commit hundreds of small batches and should measure the engine, not the disk's fsync latency.
/// Folders left by earlier runs (older than an hour) are removed, so runs do not pile up.
let reconcileStoreRoot: URL = {
    let fm = FileManager.default
    var isDir: ObjCBool = false
    let shm = URL(fileURLWithPath: "/dev/shm")
    let base =
        (fm.fileExists(atPath: shm.path, isDirectory: &isDir) && isDir.boolValue && fm.isWritableFile(atPath: shm.path)
        ? shm : fm.temporaryDirectory).appendingPathComponent("moneyflow-reconcile-tests")
    try? fm.createDirectory(at: base, withIntermediateDirectories: true)
    let old = Date().addingTimeInterval(-3600)
    for name in (try? fm.contentsOfDirectory(atPath: base.path)) ?? [] {
        let url = base.appendingPathComponent(name)
        if let m = (try? fm.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date, m < old { try? fm.removeItem(at: url) }
    }
    let run = base.appendingPathComponent("run-\(UUID().uuidString)")
    try? fm.createDirectory(at: run, withIntermediateDirectories: true)
    return run
}()

/// A new store of `kind`: a SQLite file under ``reconcileStoreRoot``, or a new PostgreSQL ledger.
func freshReconcileStore(_ kind: StoreKind) throws -> LedgerStore {
    try makeTestStore(kind, name: "reconcile", in: reconcileStoreRoot)
}

/// Decisions taken for each record, keyed like the evaluation ("bank:<loc>" / "plaid:<ext>").
typealias DecisionLog = [String: [String]]

func recordKey(_ r: IncomingRecord, file: String) -> String {
    if r.sourceKind == .plaid { return "plaid:" + (r.externalID ?? "?") }
    return "bank:" + locatorKey(file, line: r.locator.line, page: r.locator.page, row: r.locator.row)
}

func sourceKey(_ s: LedgerSource) -> String {
    if s.kind == .plaid { return "plaid:" + (s.externalID ?? "?") }
    return "bank:" + locatorKey(s.file, line: s.line, page: s.page, row: s.row)
}

@discardableResult
func importFile(_ service: ImportService, _ st: ImportedStatement, name: String, sha: String? = nil, log: inout DecisionLog) throws
    -> FileImportResult
{
    let r = try service.apply(st, fileName: name, sha256: sha ?? "sha-\(name)", options: FileImportOptions())
    for e in r.plan.entries {
        let rec = r.plan.statement.records[e.index]
        log[recordKey(rec, file: name), default: []].append("\(name): \(describe(e.decision))")
    }
    return r
}

func importFile(_ service: ImportService, _ st: ImportedStatement, name: String, sha: String? = nil) throws {
    var log = DecisionLog()
    try importFile(service, st, name: name, sha: sha, log: &log)
}

// MARK: - Evaluation against ground truth

struct Evaluation {
    var transactions = 0
    var predictedLinks = 0 // (bank record, Plaid record) pairs sharing a transaction
    var correctLinks = 0
    var truthLinks = 0 // real transactions seen by both sides
    var reviews = 0 // transactions flagged needsReview
    var wrong: [String] = [] // transactions combining different real transactions
    var missed: [String] = [] // real transactions split without review
    var splitWithReview = 0
    var unexpectedActive: [String] = [] // active records that should not be (holds, superseded pendings)
    var lost: [String] = [] // records expected active but absent
    var reviewCases: [String] = [] // transactions flagged needsReview, described
    var missedByTag: [String: Int] = [:]
    var wrongByTag: [String: Int] = [:]

    var precision: Double { predictedLinks == 0 ? 1 : Double(correctLinks) / Double(predictedLinks) }
    var recall: Double { truthLinks == 0 ? 1 : Double(correctLinks) / Double(truthLinks) }

    var summary: String {
        String(
            format:
                "txns=%d links=%d correct=%d truth=%d precision=%.4f recall=%.4f reviews=%d splitWithReview=%d wrong=%d missed=%d unexpectedActive=%d lost=%d",
            transactions, predictedLinks, correctLinks, truthLinks, precision, recall, reviews, splitWithReview,
            wrong.count, missed.count, unexpectedActive.count, lost.count)
    }
}

/// Real transaction behind a ledger source, per the ground truth.
func realID(_ src: LedgerSource, _ s: Scenario) -> Int? {
    if src.kind == .plaid { return src.externalID.flatMap { s.realOfExternal[$0] } }
    return s.realOfLocator[locatorKey(s.config.flavor.statementFile, line: src.line, page: src.page, row: src.row)]
}

/// A ledger transaction with its sources, their ground truth and the decisions taken for them.
func describeTransaction(_ t: LedgerTransaction, _ s: Scenario, log: DecisionLog) -> String {
    let merchants = Catalogue.merchants(s.config.flavor)
    func describeSource(_ src: LedgerSource) -> String {
        let rid = realID(src, s)
        let tag = rid.flatMap { s.tagOf[$0] } ?? "?"
        var d =
            "    \(src.kind.rawValue) \(src.externalID ?? locatorKey(src.file, line: src.line, page: src.page, row: src.row)) \(src.date.iso) \(src.amount.decimalString) \"\(src.description)\(src.counterparty.map { " / " + $0 } ?? "")\" pending=\(src.pending) real=#\(rid.map(String.init) ?? "?") [\(tag)]"
        if let r = rid, let t = s.real.first(where: { $0.id == r }) {
            d +=
                " (truth: posts \(s.date(t.postDay).iso), plaid shift \(t.plaidShift), auth lag \(t.authLag.map(String.init) ?? "-"), \(merchants[t.merchant].plaid))"
        }
        for line in log[sourceKey(src)] ?? [] { d += "\n        decided \(line)" }
        return d
    }
    return "  txn \(t.id) \(t.date.iso) \(t.amount.decimalString) \"\(t.description)\" needsReview=\(t.needsReview) pending=\(t.pending)\n"
        + t.sources.map(describeSource).joined(separator: "\n")
}

/// `reviewCandidates`: transactions offered as candidates by a pending review. A real
/// transaction split across them is waiting for the user's decision, not silently missed.
func evaluate(_ txs: [LedgerTransaction], _ s: Scenario, log: DecisionLog, reviewCandidates: Set<Int64> = []) -> Evaluation {
    var ev = Evaluation()
    ev.transactions = txs.count
    func realID(_ src: LedgerSource) -> Int? { MoneyFlowPipelineTests.realID(src, s) }
    func describeTxn(_ t: LedgerTransaction) -> String { describeTransaction(t, s, log: log) }
    var reviewTxn = Set<Int64>()
    var activeKeys = Set<String>()
    var txnOfKey: [String: LedgerTransaction] = [:]
    // (bank signature, Plaid signature) of every link made / expected: a link is right when its
    // pair of signatures is one the truth has (up to interchangeable identical records).
    var predicted: [String: [LedgerTransaction]] = [:]
    for t in txs {
        if t.needsReview { ev.reviews += 1; reviewTxn.insert(t.id); ev.reviewCases.append(describeTxn(t)) }
        var banks: [String] = [], plaids: [String] = []
        for src in t.sources {
            let k = sourceKey(src)
            activeKeys.insert(k)
            txnOfKey[k] = t
            if src.kind == .plaid { plaids.append(k) } else { banks.append(k) }
            if let rid = realID(src), rid >= 1_000_000 { ev.unexpectedActive.append("hold record active:\n" + describeTxn(t)) }
            if realID(src) == nil { ev.wrong.append("(record without ground truth)\n" + describeTxn(t)) }
        }
        if banks.count > 1 || plaids.count > 1 {
            ev.wrong.append("(several records of one source merged)\n" + describeTxn(t))
            for r in t.sources.compactMap(realID) { ev.wrongByTag[s.tagOf[r] ?? "?", default: 0] += 1 }
        }
        for b in banks {
            for p in plaids {
                ev.predictedLinks += 1
                predicted["\(s.signatureOf[b] ?? b) <-> \(s.signatureOf[p] ?? p)", default: []].append(t)
            }
        }
    }
    var truth: [String: [Int]] = [:]
    for (rid, keys) in s.expectedActive where rid < 1_000_000 {
        guard let b = keys.first(where: { $0.hasPrefix("bank:") }), let p = keys.first(where: { $0.hasPrefix("plaid:") }) else { continue }
        ev.truthLinks += 1
        truth["\(s.signatureOf[b]!) <-> \(s.signatureOf[p]!)", default: []].append(rid)
    }
    for (key, ts) in predicted.sorted(by: { $0.key < $1.key }) {
        let expectedCount = truth[key]?.count ?? 0
        ev.correctLinks += min(ts.count, expectedCount)
        guard ts.count > expectedCount else { continue }
        // More links of this kind than the truth has: the ones joining different real
        // transactions are the wrong ones.
        var extra = ts.count - expectedCount
        for t in ts where extra > 0 {
            let rids = Set(t.sources.compactMap(realID))
            guard rids.count > 1 else { continue }
            extra -= 1
            ev.wrong.append(describeTxn(t))
            for r in rids { ev.wrongByTag[s.tagOf[r] ?? "?", default: 0] += 1 }
        }
    }
    // Missed: expected links not made. Allowed only when one side is flagged for review.
    for (key, rids) in truth.sorted(by: { $0.key < $1.key }) {
        let made = predicted[key]?.count ?? 0
        guard made < rids.count else { continue }
        var missing = rids.count - made
        for rid in rids.sorted() where missing > 0 {
            let keys = s.expectedActive[rid]!
            let holders = keys.compactMap { txnOfKey[$0] }
            guard Set(holders.map(\.id)).count > 1 else { continue } // its own records are together
            missing -= 1
            if holders.contains(where: { $0.needsReview || reviewCandidates.contains($0.id) }) { ev.splitWithReview += 1; continue }
            let tag = s.tagOf[rid] ?? "?"
            ev.missedByTag[tag, default: 0] += 1
            var seen = Set<Int64>()
            ev.missed.append(
                "real #\(rid) [\(tag)] split over \(Set(holders.map(\.id)).count) transactions:\n"
                    + holders.filter { seen.insert($0.id).inserted }.map(describeTxn).joined(separator: "\n"))
        }
    }
    // Every expected record is active; nothing else is.
    let expectedKeys = Set(s.expectedActive.values.flatMap { $0 })
    for k in expectedKeys.subtracting(activeKeys).sorted() { ev.lost.append(k) }
    for k in activeKeys.subtracting(expectedKeys).sorted() { ev.unexpectedActive.append("active but superseded/removed in truth: \(k)") }
    return ev
}

// MARK: - Canonical outcome (for order/idempotence properties)

/// Sorted (date, amount, description, counterparty, pending, review flag, sorted sources) per
/// transaction. With a scenario, records whose signature another record shares (genuine
/// twins, identical rows) are named by that signature, since swapping them is not a change.
func canonical(_ txs: [LedgerTransaction], _ s: Scenario? = nil) -> [String] {
    txs.map { t in
        let src = t.sources.map { x -> String in
            if let s {
                // Bank rows are named by their locator in the scenario's statement, whatever the file.
                let key =
                    x.kind == .plaid
                    ? "plaid:" + (x.externalID ?? "")
                    : "bank:" + locatorKey(s.config.flavor.statementFile, line: x.line, page: x.page, row: x.row)
                if let sig = s.signatureOf[key], s.ambiguousSignatures.contains(sig) { return "\(x.kind.rawValue)|same-as:\(sig)" }
            }
            return "\(x.kind.rawValue)|\(x.externalID ?? "")|\(x.line ?? 0)|\(x.page ?? 0)|\(x.row ?? 0)|pending=\(x.pending)"
        }.sorted().joined(separator: ",")
        return
            "\(t.date.iso)|\(t.amount.minorUnits)|\(t.description)|\(t.counterparty ?? "")|pending=\(t.pending)|review=\(t.needsReview)|\(src)"
    }.sorted()
}

/// Lines only in `a` / only in `b` (for readable failure messages).
func diff(_ a: [String], _ b: [String]) -> String {
    var ca: [String: Int] = [:], cb: [String: Int] = [:]
    for x in a { ca[x, default: 0] += 1 }
    for x in b { cb[x, default: 0] += 1 }
    var out: [String] = []
    for (k, n) in ca.sorted(by: { $0.key < $1.key }) where n > (cb[k] ?? 0) { out.append("- \(k)") }
    for (k, n) in cb.sorted(by: { $0.key < $1.key }) where n > (ca[k] ?? 0) { out.append("+ \(k)") }
    return out.joined(separator: "\n")
}
