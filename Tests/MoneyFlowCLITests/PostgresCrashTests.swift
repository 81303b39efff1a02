import Foundation
import MoneyFlowStoreTestSupport
import MoneyFlowTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What a PostgreSQL ledger holds per source file, read with SQL through one connection
/// (cheap enough to run after every kill): the same facts as ``FileLevelState``.
struct PostgresFileState: Equatable {
    /// file name -> records inserted by that file's batches.
    var recordsByFile: [String: Int] = [:]
    /// file name -> rows each (not undone) batch of that file accounted for.
    var batchRowsByFile: [String: [Int]] = [:]

    static func read(_ psql: TestPostgres.Session, ledger: String) throws -> PostgresFileState {
        let s = "\"\(TestPostgres.schema(ledger: ledger))\""
        var state = PostgresFileState()
        for line in psql.lines(
            "SELECT b.file_name, COUNT(*) FROM \(s).record r JOIN \(s).batch b ON b.id = r.batch_id GROUP BY b.file_name")
        {
            let parts = line.split(separator: "|")
            state.recordsByFile[String(parts[0])] = Int(parts[1])
        }
        for line in psql.lines(
            "SELECT file_name, new_count + present_count + linked_count + review_count FROM \(s).batch WHERE undone_at IS NULL ORDER BY id")
        {
            let parts = line.split(separator: "|")
            state.batchRowsByFile[String(parts[0]), default: []].append(Int(parts[1]) ?? -1)
        }
        return state
    }

    /// Files with a committed batch (0 while the ledger does not exist yet).
    static func committedFiles(_ psql: TestPostgres.Session, ledger: String) throws -> Int {
        psql.int("SELECT COUNT(DISTINCT file_name) FROM \"\(TestPostgres.schema(ledger: ledger))\".batch")
    }

    /// True while some session holds the ledger's write lock (the advisory lock every write
    /// transaction takes first, see PostgresLedger.lockLedger): a write is in progress.
    static func writeInProgress(_ psql: TestPostgres.Session, ledger: String) throws -> Bool {
        psql.int(
            """
            SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 1
              AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
              AND ((classid::bigint << 32) | objid::bigint) = hashtextextended('moneyflow ledger \(TestPostgres.schema(ledger: ledger))', 0)
            """) > 0
    }
}

@Suite("PostgreSQL: SIGKILL during imports", .enabled(if: PGCLI.enabled), .serialized)
struct PostgresCrashTests {
    static let kills = 50
    static let bigFiles = 2, bigRows = 600

    /// Like CrashConsistencyTests, on a PostgreSQL ledger: each attempt imports the whole batch
    /// (small files, sample PDFs and big generated CSVs whose write transactions take long),
    /// waits until the run has committed a file that was not there yet, then SIGKILLs it after a
    /// random further delay. After every kill every file is all there or not at all (each batch
    /// accounts for all of its file's rows and has all its records), `transactions --all
    /// --format json` reads and agrees, and a completed ledger equals an uninterrupted import.
    @Test func sigkillMidImportNeverTearsABatch() throws {
        // No PDFs: every attempt re-reads the files already in the ledger, and PDF text extraction
        // would take most of the test's time (CrashConsistencyTests covers them on SQLite).
        let batch = try ImportBatch.make(label: "pg-crash", synthetic: 2, rowsPerFile: 30, pdfs: [])
        var ledgers: [String] = []
        defer {
            try? FileManager.default.removeItem(atPath: batch.dir)
            TestPostgres.dropLedgers(ledgers)
        }
        // Big files: their write transaction (apply + COPY of a few thousand rows) is long enough
        // for random kills to land inside it.
        for k in 0..<Self.bigFiles {
            var text = "Date,Description,Amount\n"
            for r in 0..<Self.bigRows {
                text += String(
                    format: "%02d/%02d/2025,BIG MERCHANT %d ROW %05d,%d.%02d\n", r % 12 + 1, r % 28 + 1, k, r, 5 + r % 400, r % 100)
            }
            try text.write(toFile: "\(batch.dir)/big_\(k).csv", atomically: false, encoding: .utf8)
        }
        // A few kinds of file (the CMB CSVs overlap: the second finds the first's rows), the
        // synthetic ones and the big ones; few enough that every attempt soon reaches new files.
        let kept: Set = ["amex.csv", "chase_checking.csv", "wells_fargo_checking.csv", "cmb_pc_gbk.csv", "cmb_pc_utf8bom.csv"]
        let files = (batch.files.filter { kept.contains($0) || $0.hasPrefix("synthetic_") } + (0..<Self.bigFiles).map { "big_\($0).csv" })
            .sorted { $0.compare($1, options: .numeric) == .orderedAscending }
        let args = ["import"] + files + ["--quiet"]
        let psql = try TestPostgres.Session()

        // Reference: one uninterrupted import.
        let refLedger = TestPostgres.ledgerName("cli_crash_ref")
        ledgers.append(refLedger)
        let started = Date()
        let ref = try PGCLI.run(args, store: TestPostgres.storeURL(ledger: refLedger), cwd: batch.dir)
        let fullDuration = Date().timeIntervalSince(started)
        try #require(ref.status == 0, "reference import failed: \(ref.stderr)")
        let reference = try PostgresFileState.read(psql, ledger: refLedger)
        let referenceLedger = try PGCLI.output(
            ["transactions", "--all", "--format", "json"], store: TestPostgres.storeURL(ledger: refLedger), cwd: batch.dir)
        try #require(reference.batchRowsByFile.count == files.count)
        let rowsPerFile = reference.batchRowsByFile.mapValues { $0[0] }

        let seed = UInt64(Date().timeIntervalSince1970 * 1000)
        var rng = SplitMix64(seed: seed)
        var ledger = TestPostgres.ledgerName("cli_crash")
        ledgers.append(ledger)
        var killedInWrite = 0, killedBetweenWrites = 0, finishedBeforeKill = 0, completions = 0, neverWrote = 0
        var history: [Int] = []
        var previous = 0
        for attempt in 1...Self.kills {
            let store = TestPostgres.storeURL(ledger: ledger)
            let child = try MoneyFlowBinary.spawn(args + ["--store", store], cwd: batch.dir, logDir: batch.dir)
            // Wait until this run has committed a file not in the ledger yet (so it is past
            // start-up and writing), bounded: a run that never commits is reported.
            let deadline = Date().addingTimeInterval(max(10, 3 * fullDuration))
            var wrote = false
            while Date() < deadline && !child.hasExited {
                if try PostgresFileState.committedFiles(psql, ledger: ledger) > previous { wrote = true; break }
                usleep(5_000)
            }
            if !wrote && !child.hasExited { neverWrote += 1 }
            let left = Double(files.count - previous - 1) / Double(files.count)
            let delay = Double.random(in: 0...max(0.002, 0.5 * fullDuration * left), using: &rng)
            usleep(useconds_t(delay * 1_000_000))
            // Inside a write transaction when the ledger's lock is held just before the kill.
            let inWrite = try PostgresFileState.writeInProgress(psql, ledger: ledger)
            kill(child.pid, SIGKILL)
            let r = try child.wait()
            if r.signal == SIGKILL {
                if inWrite { killedInWrite += 1 } else { killedBetweenWrites += 1 }
            } else {
                finishedBeforeKill += 1
                #expect(r.status == 0, "\(r.stderr)")
            }

            let context = "attempt \(attempt), seed \(seed), killed \(String(format: "%.3f", delay)) s after the run's first new commit"
            let s = try PostgresFileState.read(psql, ledger: ledger)
            // The ledger reads through the binary, and holds exactly the records its batches say;
            // the ledger cache the killed run left reads the same.
            let listing = try PGCLI.run(
                ["transactions", "--all", "--format", "json"], store: store, env: TestPostgres.uncachedRead, cwd: batch.dir)
            #expect(listing.status == 0, "\(context): \(listing.stderr)")
            let throughCache = try PGCLI.run(["transactions", "--all", "--format", "json"], store: store, cwd: batch.dir)
            #expect(throughCache.stdout == listing.stdout, "\(context): the ledger cache reads differently from the server")
            let list = (try? JSONSerialization.jsonObject(with: Data(listing.stdout.utf8))) as? [[String: Any]]
            #expect(list != nil, "\(context): transactions --all --format json does not parse")
            var sourcesByFile: [String: Int] = [:]
            for t in list ?? [] {
                for src in (t["sources"] as? [[String: Any]]) ?? [] { sourcesByFile[src["file"] as? String ?? "?", default: 0] += 1 }
            }
            #expect(sourcesByFile == s.recordsByFile, "\(context): the listing's records per file differ from the batches' records")
            var committed = 0, sawMissing = false
            for f in files {
                let records = s.recordsByFile[f] ?? 0
                let batches = s.batchRowsByFile[f] ?? []
                #expect(
                    batches.allSatisfy { $0 == rowsPerFile[f] }, "\(context): a batch of \(f) does not account for all its rows: \(batches)"
                )
                if batches.isEmpty {
                    #expect(records == 0, "\(context): \(f) has \(records) records but no batch")
                    sawMissing = true
                } else {
                    #expect(!sawMissing, "\(context): \(f) committed after an earlier file that is missing")
                    #expect(
                        records == (reference.recordsByFile[f] ?? 0),
                        "\(context): \(f) has a batch but \(records) of \(reference.recordsByFile[f] ?? 0) records")
                    committed += 1
                }
            }
            history.append(committed)
            #expect(committed > previous, "\(context): committed files went from \(previous) to \(committed)")
            previous = committed
            if committed == files.count {
                // Complete: the same ledger as the uninterrupted run; then a new ledger, so later
                // kills land in imports that write new records again.
                #expect(listing.stdout == referenceLedger, "\(context): completed ledger differs from the reference")
                completions += 1
                TestPostgres.dropLedgers([ledger])
                ledger = TestPostgres.ledgerName("cli_crash")
                ledgers.append(ledger)
                previous = 0
            }
        }
        #expect(neverWrote == 0, "\(neverWrote) runs committed nothing before the deadline")
        #expect(killedInWrite >= Self.kills / 4, "only \(killedInWrite) of \(Self.kills) kills landed inside a write transaction")
        #expect(completions >= 2, "the completed-ledger check ran \(completions) times")

        // Re-running completes the ledger: the same as the uninterrupted import, byte for byte.
        let store = TestPostgres.storeURL(ledger: ledger)
        let final = try PGCLI.run(args, store: store, cwd: batch.dir)
        #expect(final.status == 0, "\(final.stderr)")
        #expect(try PostgresFileState.read(psql, ledger: ledger).recordsByFile == reference.recordsByFile)
        #expect(try PGCLI.output(["transactions", "--all", "--format", "json"], store: store, cwd: batch.dir) == referenceLedger)
        print(
            "postgres crash consistency: \(Self.kills) SIGKILLs: \(killedInWrite) inside a write transaction (ledger lock held), \(killedBetweenWrites) between writes, \(finishedBeforeKill) runs finished first; \(completions) completed ledgers checked; files committed after each kill: \(history) of \(files.count); full run \(String(format: "%.2f", fullDuration)) s; seed \(seed)"
        )
    }
}
