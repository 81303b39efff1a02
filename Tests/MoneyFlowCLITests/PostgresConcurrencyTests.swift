import Foundation
import MoneyFlowStoreTestSupport
import MoneyFlowTestSupport
import Testing

/// ``ledgerShape(_:)`` of a `transactions --all --format json` listing: the ledger without what
/// depends on commit order (ids, which of two overlapping files supplied a record).
func jsonLedgerShape(_ list: [[String: Any]]) -> [String] {
    list.map { t in
        let kinds = ((t["sources"] as? [[String: Any]]) ?? []).map { "\($0["kind"] ?? "?")/\($0["state"] ?? "?")" }.sorted()
            .joined(separator: "+")
        return [
            t["account"], t["date"], t["amount"], t["currency"], t["status"], t["description"], t["balance"] ?? "-",
            (t["pending"] as? Bool) == true ? "pending" : "posted", kinds,
        ].map { v in (v is NSNull || v == nil) ? "-" : "\(v!)" }.joined(separator: "|")
    }.sorted()
}

@Suite("PostgreSQL: several processes importing into one ledger at once", .enabled(if: PGCLI.enabled), .serialized)
struct PostgresConcurrencyTests {
    /// Four `moneyflow import` processes, each with an overlapping subset of the files (every
    /// file is imported by three or four of them), into ONE PostgreSQL ledger at the same time,
    /// for several rounds: every process exits 0, nothing is duplicated or lost, every file adds
    /// its records in one batch only, and the ledger equals one process importing every file.
    @Test func fourProcessesOneLedger() throws {
        let n = 4, rounds = 3
        let batch = try ImportBatch.make(label: "pg-concurrency", synthetic: 4, rowsPerFile: 40)
        var ledgers: [String] = []
        defer {
            try? FileManager.default.removeItem(atPath: batch.dir)
            TestPostgres.dropLedgers(ledgers)
        }
        let subsets = ConcurrencyTests.subsets(batch.files, processes: n)
        #expect(Set(subsets.joined()) == Set(batch.files))

        // One process, one order: on PostgreSQL, and on SQLite (which it must equal byte for byte).
        let sequentialLedger = TestPostgres.ledgerName("cli_conc_seq")
        ledgers.append(sequentialLedger)
        let seqURL = TestPostgres.storeURL(ledger: sequentialLedger)
        let seq = try PGCLI.run(["import"] + batch.files + ["--quiet"], store: seqURL, cwd: batch.dir)
        try #require(seq.status == 0, "sequential run failed: \(seq.stderr)")
        let sqlite = try PGCLI.run(["import"] + batch.files + ["--quiet"], store: "\(batch.dir)/sequential.sqlite", cwd: batch.dir)
        try #require(sqlite.status == 0, "\(sqlite.stderr)")
        let listing = ["transactions", "--all", "--format", "json"]
        let sequentialText = try PGCLI.output(listing, store: seqURL, cwd: batch.dir)
        #expect(sequentialText == (try PGCLI.output(listing, store: "\(batch.dir)/sequential.sqlite", cwd: batch.dir)))
        let sequential = try PGCLI.jsonArray(sequentialText)
        let sequentialRecords = sequential.reduce(0) { $0 + (($1["sources"] as? [Any])?.count ?? 0) }
        #expect(sequential.count > 300)

        var waited = 0
        for round in 1...rounds {
            let ledger = TestPostgres.ledgerName("cli_conc_\(round)")
            ledgers.append(ledger)
            let url = TestPostgres.storeURL(ledger: ledger)
            // Rounds 1 and 3 race to create the ledger; round 2 starts from one that holds a file.
            if round == 2 {
                let r = try PGCLI.run(["import", "wells_fargo_checking.csv", "--quiet"], store: url, cwd: batch.dir)
                try #require(r.status == 0, "\(r.stderr)")
            }
            let children = try subsets.map {
                try MoneyFlowBinary.spawn(["import"] + $0 + ["--quiet", "--store", url], cwd: batch.dir, logDir: batch.dir)
            }
            let results = try children.map { try $0.wait() }
            for (k, r) in results.enumerated() {
                #expect(r.signal == 0 && r.status == 0, "round \(round), process \(k): exit \(r.status) signal \(r.signal): \(r.stderr)")
                // The only thing a process may say is that it waits for another one's lock.
                let other = r.stderrLines.filter { !$0.contains("waiting for another moneyflow process") }
                #expect(other.isEmpty, "round \(round), process \(k): \(r.stderr)")
                waited += r.stderrLines.count - other.count
            }
            let concurrent = try PGCLI.jsonArray(try PGCLI.output(listing, store: url, cwd: batch.dir))
            #expect(
                concurrent.count == sequential.count, "round \(round): \(concurrent.count) transactions, sequential \(sequential.count)")
            let records = concurrent.reduce(0) { $0 + (($1["sources"] as? [Any])?.count ?? 0) }
            #expect(records == sequentialRecords, "round \(round): \(records) records, sequential \(sequentialRecords)")
            let shape = jsonLedgerShape(concurrent), expected = jsonLedgerShape(sequential)
            #expect(
                shape == expected,
                "round \(round): differs from one process: only concurrent \(Set(shape).subtracting(expected).prefix(3)), only sequential \(Set(expected).subtracting(shape).prefix(3))"
            )
            // Ids never repeat (a source id or a transaction id used twice would be a lost write).
            let ids = concurrent.compactMap { $0["id"] as? Int }
            let sourceIDs = concurrent.flatMap { (($0["sources"] as? [[String: Any]]) ?? []).compactMap { $0["id"] as? Int } }
            #expect(Set(ids).count == ids.count && Set(sourceIDs).count == sourceIDs.count, "round \(round): an id is used twice")
            // Each file added its records in exactly one batch; later processes found it present.
            let batches = try PGCLI.jsonArray(try PGCLI.output(["batches", "--format", "json"], store: url, cwd: batch.dir))
            for f in batch.files {
                let adding = batches.filter {
                    ($0["file"] as? String) == f
                        && (($0["new"] as? Int) ?? 0) + (($0["linked"] as? Int) ?? 0) + (($0["needs_review"] as? Int) ?? 0) > 0
                }
                #expect(adding.count <= 1, "round \(round): \(f) added records in \(adding.count) batches")
            }
        }
        print(
            "postgres concurrency: \(rounds) rounds of \(n) processes, \(batch.files.count) files, \(sequential.count) transactions; \(waited) lock waits reported"
        )
    }
}
