import Foundation
import MoneyFlowCore
import MoneyFlowStore
import Testing

/// The ledger with everything that depends on commit order taken out: which of two identical
/// or overlapping files supplied a record, ids, and the text fields the first source sets.
/// Two stores holding the same transactions built from the same rows have equal shapes.
func ledgerShape(_ transactions: [LedgerTransaction]) -> [String] {
    transactions.map { t in
        let kinds = t.sources.map { "\($0.kind.rawValue)/\($0.state)" }.sorted().joined(separator: "+")
        return [
            t.account, t.date.iso, t.amount.decimalString, t.amount.currency, t.status, t.description,
            t.balance?.decimalString ?? "-", t.pending ? "pending" : "posted", kinds,
        ].joined(separator: "|")
    }.sorted()
}

@Suite("Concurrency: several processes importing into one store")
struct ConcurrencyTests {
    /// Process k imports every file except those in group k (files are split into n + 1 groups
    /// round-robin): every file is imported by n - 1 or n processes, the last group by all.
    static func subsets(_ files: [String], processes n: Int) -> [[String]] {
        (0..<n).map { k in files.enumerated().filter { $0.offset % (n + 1) != k }.map(\.element) }
    }

    @Test(arguments: [(2, false), (4, false), (4, true)])
    func overlappingImportsAtOnce(processes n: Int, freshStore: Bool) throws {
        let batch = try ImportBatch.make(label: "concurrency", synthetic: 4, rowsPerFile: 40)
        defer { try? FileManager.default.removeItem(atPath: batch.dir) }
        let subsets = Self.subsets(batch.files, processes: n)
        #expect(Set(subsets.joined()) == Set(batch.files))

        // A store that already holds one import (unless the processes race to create it).
        let seedFile = "wells_fargo_checking.csv"
        func prepare(_ store: String) throws {
            guard !freshStore else { return }
            let r = try MF.run(["import", seedFile, "--quiet", "--store", store], cwd: batch.dir)
            try #require(r.status == 0, "\(r.stderr)")
        }

        // The sequential result: every file imported by one process (the ledger does not depend
        // on the order files are committed in, see ledgerShape).
        let sequentialStore = "\(batch.dir)/sequential.sqlite"
        try prepare(sequentialStore)
        let seq = try MF.run(["import"] + batch.files + ["--quiet", "--store", sequentialStore], cwd: batch.dir)
        try #require(seq.status == 0, "sequential run failed: \(seq.stderr)")
        let sequential = try LedgerStore(path: sequentialStore).transactions(includeAll: true)
        let sequentialRecords = sequential.reduce(0) { $0 + $1.sources.count }

        // Rounds at once (different interleavings).
        for round in 1...(freshStore ? 1 : 2) {
            let store = "\(batch.dir)/concurrent-\(round).sqlite"
            try prepare(store)
            let children = try subsets.map {
                try MF.spawn(["import"] + $0 + ["--quiet", "--store", store], cwd: batch.dir, logDir: batch.dir)
            }
            let results = try children.map { try $0.wait() }
            for (k, r) in results.enumerated() {
                #expect(
                    r.signal == 0 && r.status == 0, "round \(round), process \(k) of \(n): exit \(r.status) signal \(r.signal): \(r.stderr)"
                )
                let lower = r.stderr.lowercased()
                #expect(!lower.contains("locked") && !lower.contains("busy"), "round \(round), process \(k): \(r.stderr)")
                #expect(r.stderr.isEmpty, "round \(round), process \(k): \(r.stderr)")
            }
            let opened = try LedgerStore(path: store)
            #expect(try opened.integrityCheck() == "ok")
            let concurrent = try opened.transactions(includeAll: true)
            // Nothing duplicated, nothing lost.
            #expect(
                concurrent.count == sequential.count, "round \(round): \(concurrent.count) transactions, sequential \(sequential.count)")
            #expect(concurrent.reduce(0) { $0 + $1.sources.count } == sequentialRecords, "round \(round): record count differs")
            let shape = ledgerShape(concurrent), expected = ledgerShape(sequential)
            #expect(
                shape == expected,
                "round \(round): ledger differs from the sequential result: only concurrent \(Set(shape).subtracting(expected).prefix(3)), only sequential \(Set(expected).subtracting(shape).prefix(3))"
            )
            // Every file added its records in exactly one batch (later runs find it already present).
            let batches = try opened.batches()
            for f in batch.files {
                let withNew = batches.filter { $0.fileName == f && $0.counts.new + $0.counts.linked + $0.counts.needsReview > 0 }
                #expect(withNew.count <= 1, "round \(round): \(f) added records in \(withNew.count) batches")
            }
        }
    }
}
