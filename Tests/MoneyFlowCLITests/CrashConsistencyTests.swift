import Foundation
import GRDB
import MoneyFlowCore
import MoneyFlowStore
import Testing

#if canImport(Glibc)
    import Glibc
    import MoneyFlowTestSupport
#endif

/// A batch of statement files for crash and concurrency tests: sample CSVs of every built-in
/// profile, sample CMB PDFs and synthetic Amex-format CSVs (distinct rows), in a temp folder.
struct ImportBatch {
    let dir: String
    /// File names in the order the batch runner applies them (natural path order).
    let files: [String]

    static func make(label: String, synthetic: Int = 16, rowsPerFile: Int = 60, pdfs: [String] = ImportBatch.defaultPDFs) throws
        -> ImportBatch
    {
        let dir = try MF.tempDir(label)
        let fm = FileManager.default
        var names: [String] = []
        for f in [
            "amex.csv", "bofa_card.csv", "bofa_checking.csv", "capital_one_360.csv", "capital_one_card.csv",
            "chase_card.csv", "chase_checking.csv", "wells_fargo_checking.csv",
        ] {
            try fm.copyItem(atPath: "\(MF.samples)/csv/\(f)", toPath: "\(dir)/\(f)"); names.append(f)
        }
        for f in ["cmb_pc_gbk.csv", "cmb_pc_utf8bom.csv"] + pdfs {
            try fm.copyItem(atPath: "\(MF.samples)/cmb/\(f)", toPath: "\(dir)/\(f)"); names.append(f)
        }
        for k in 0..<synthetic {
            var text = "Date,Description,Amount\n"
            for r in 0..<rowsPerFile {
                text += String(
                    format: "%02d/%02d/2026,SYNTH MERCHANT %03d ROW %03d,%d.%02d\n", k % 12 + 1, r % 28 + 1, k, r, 3 + r * 7 % 90,
                    (k * 31 + r) % 100)
            }
            let name = "synthetic_\(k).csv"
            try text.write(toFile: "\(dir)/\(name)", atomically: false, encoding: .utf8)
            names.append(name)
        }
        return ImportBatch(dir: dir, files: names.sorted { $0.compare($1, options: .numeric) == .orderedAscending })
    }

    /// q1 and q2overlap overlap (46 rows linked / already present).
    static let defaultPDFs = ["cmb2024_basic.pdf", "cmb2024_q1.pdf", "cmb2024_q2overlap.pdf"]
}

/// What a store holds per source file, read with plain SQL (cheap enough to run after every kill).
struct FileLevelState {
    var integrity: String
    /// file name -> records inserted by that file's batches.
    var recordsByFile: [String: Int]
    /// file name -> rows each (not undone) batch of that file accounted for (new + present + linked + review).
    var batchRowsByFile: [String: [Int]]

    static func read(_ path: String) throws -> FileLevelState {
        guard FileManager.default.fileExists(atPath: path) else {
            return FileLevelState(integrity: "ok", recordsByFile: [:], batchRowsByFile: [:])
        }
        let db = try DatabaseQueue(path: path)
        return try db.read { db in
            let integrity = try String.fetchAll(db, sql: "PRAGMA integrity_check").joined(separator: "; ")
            guard try db.tableExists("batch") else { return FileLevelState(integrity: integrity, recordsByFile: [:], batchRowsByFile: [:]) }
            var records: [String: Int] = [:]
            for row in try Row.fetchAll(
                db, sql: "SELECT b.file_name AS f, COUNT(*) AS n FROM record r JOIN batch b ON b.id = r.batch_id GROUP BY b.file_name")
            {
                records[row["f"]] = row["n"]
            }
            var batches: [String: [Int]] = [:]
            for row in try Row.fetchAll(
                db,
                sql:
                    "SELECT file_name AS f, new_count + present_count + linked_count + review_count AS n FROM batch WHERE undone_at IS NULL ORDER BY id"
            ) {
                batches[row["f"], default: []].append(row["n"])
            }
            return FileLevelState(integrity: integrity, recordsByFile: records, batchRowsByFile: batches)
        }
    }
}

/// The whole ledger as the CLI reports it (ids included), for end-to-end comparisons.
func ledgerTransactions(_ path: String) throws -> [LedgerTransaction] {
    try LedgerStore(path: path).transactions(includeAll: true)
}

func removeStore(_ path: String) {
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
}

@Suite("Crash consistency: SIGKILL during imports", .serialized)
struct CrashConsistencyTests {
    /// SplitMix64: reproducible random kill moments (the seed is printed on failure).

    static let kills = 30

    /// Files with a committed batch in the store (a re-run also commits a batch for a file already
    /// there, so batches are not counted), read through a read-only connection while another
    /// process may be writing (WAL readers do not block it); 0 until the store and table exist.
    static func committedBatches(_ path: String) -> Int {
        guard FileManager.default.fileExists(atPath: path + "-wal") else { return 0 }
        var config = Configuration()
        config.readonly = true
        guard let db = try? DatabaseQueue(path: path, configuration: config) else { return 0 }
        return (try? db.read { try Int.fetchOne($0, sql: "SELECT COUNT(DISTINCT file_name) FROM batch") ?? 0 }) ?? 0
    }

    /// Each attempt starts an import of the whole batch into the same store, waits until that run
    /// has COMMITTED a file not in the store yet (so it is past start-up and in the middle of writing), then
    /// kills it after a random further delay. After every kill the store must be healthy with
    /// every file all there or not at all; each run adds at least one file, so the ledger
    /// completes every few attempts and must then equal an uninterrupted import (then the store
    /// starts over). A final re-run completes the ledger the same way.
    @Test func sigkillAtRandomMomentsNeverTearsABatch() throws {
        let batch = try ImportBatch.make(label: "crash", synthetic: 6, rowsPerFile: 30, pdfs: ["cmb2024_q1.pdf", "cmb2024_q2overlap.pdf"])
        defer { try? FileManager.default.removeItem(atPath: batch.dir) }
        let args = ["import"] + batch.files + ["--quiet"]

        // Reference: one uninterrupted import.
        let refStore = "\(batch.dir)/reference.sqlite"
        let started = Date()
        let ref = try MF.run(args + ["--store", refStore], cwd: batch.dir)
        let fullDuration = Date().timeIntervalSince(started)
        try #require(ref.status == 0, "reference import failed: \(ref.stderr)")
        let reference = try FileLevelState.read(refStore)
        let referenceLedger = try ledgerTransactions(refStore)
        #expect(referenceLedger.count > 400)
        let rowsPerFile = reference.batchRowsByFile.mapValues { $0[0] }

        let seed = UInt64(Date().timeIntervalSince1970 * 1000)
        var rng = SplitMix64(seed: seed)
        let store = "\(batch.dir)/crash.sqlite"
        var killedMidWrite = 0, finishedBeforeKill = 0, completions = 0, neverWrote = 0
        var committedHistory: [Int] = []
        var previous = 0
        for attempt in 1...Self.kills {
            // (Files in the store before this run: the check after the previous kill counted them;
            // a read-only connection cannot open a store a killed writer left until it is recovered.)
            let before = previous
            let child = try MF.spawn(args + ["--store", store], cwd: batch.dir, logDir: batch.dir)
            // Wait for this run's first commit (bounded: a run that never commits is reported).
            let deadline = Date().addingTimeInterval(max(5, 3 * fullDuration))
            var wrote = false, exited = false
            while Date() < deadline {
                if Self.committedBatches(store) > before { wrote = true; break }
                // A run with little left can finish between two polls (and its WAL is gone then).
                if child.hasExited { exited = true; break }
                usleep(2_000)
            }
            if !wrote && !exited { neverWrote += 1 }
            // Then anywhere within the first part of what is left to write (the files not in the
            // store yet; a few runs still finish first, which checks that a re-run completes).
            let left = Double(batch.files.count - before - 1) / Double(batch.files.count)
            let delay = Double.random(in: 0...max(0.002, 0.6 * fullDuration * left), using: &rng)
            usleep(useconds_t(delay * 1_000_000))
            kill(child.pid, SIGKILL)
            let r = try child.wait()
            if r.signal == SIGKILL {
                if wrote { killedMidWrite += 1 }
            } else {
                finishedBeforeKill += 1; #expect(r.status == 0, "\(r.stderr)")
            }

            let s = try FileLevelState.read(store)
            let context = "attempt \(attempt), seed \(seed), killed \(String(format: "%.3f", delay)) s after the run's first commit"
            #expect(s.integrity == "ok", "\(context)")
            // Every file is all there or not there at all, and files commit in apply order.
            var committed = 0
            var sawMissing = false
            for f in batch.files {
                let records = s.recordsByFile[f] ?? 0
                let expected = reference.recordsByFile[f] ?? 0
                let batches = s.batchRowsByFile[f] ?? []
                #expect(batches.allSatisfy { $0 == rowsPerFile[f] }, "\(context): a batch of \(f) does not account for all its rows")
                if batches.isEmpty {
                    #expect(records == 0, "\(context): \(f) has \(records) records but no batch")
                    sawMissing = true
                } else {
                    #expect(!sawMissing, "\(context): \(f) committed after an earlier file that is missing")
                    #expect(records == expected, "\(context): \(f) has a batch but \(records) of \(expected) records")
                    committed += 1
                }
            }
            committedHistory.append(committed)
            #expect(committed > previous, "\(context): committed files went from \(previous) to \(committed) (the run wrote nothing)")
            previous = committed
            if committed == batch.files.count {
                // Complete: the same ledger as the uninterrupted run. Start over so later kills
                // land in imports that write new records again.
                #expect(try ledgerTransactions(store) == referenceLedger, "\(context): completed ledger differs from the reference")
                completions += 1
                removeStore(store)
                previous = 0
            }
        }
        #expect(neverWrote == 0, "\(neverWrote) runs committed nothing before the deadline")
        #expect(
            killedMidWrite >= Self.kills / 3,
            "only \(killedMidWrite) of \(Self.kills) kills landed after a run's first commit and before its end")
        #expect(completions >= 2, "the completed-ledger check ran \(completions) times")

        // Re-running completes the import: same ledger as the uninterrupted run.
        let final = try MF.run(args + ["--store", store], cwd: batch.dir)
        #expect(final.status == 0, "\(final.stderr)")
        let finished = try FileLevelState.read(store)
        #expect(finished.integrity == "ok")
        #expect(finished.recordsByFile == reference.recordsByFile)
        #expect(try ledgerTransactions(store) == referenceLedger, "final ledger differs from an uninterrupted import")
        print(
            "crash consistency: \(killedMidWrite) of \(Self.kills) SIGKILLs mid-write (after the run's first commit), \(finishedBeforeKill) runs finished first, \(completions) completed ledgers checked; files committed after each kill: \(committedHistory) of \(batch.files.count); full run \(String(format: "%.2f", fullDuration)) s; seed \(seed)"
        )
    }
}
