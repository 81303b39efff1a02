import MoneyFlowCore
import Testing

/// The one ordered parallel map: index order whatever the worker count, each worker one
/// contiguous run (callers give each worker its own resource).
@Suite struct ParallelMapTests {
    @Test(arguments: [0, 1, 2, 7, 100, 1001])
    func resultsAreInIndexOrderWhateverTheWorkers(count: Int) {
        let expected = (0..<count).map { $0 * $0 }
        for workers in [1, 2, 3, 8, 64, 5000] {
            #expect(ParallelMap.map(count, workers: workers) { _, i in i * i } == expected, "\(count) items, \(workers) workers")
        }
    }

    @Test func eachWorkerGetsOneContiguousRunAndEveryIndexOnce() {
        let count = 103, workers = 4
        let owner = ParallelMap.map(count, workers: workers) { w, _ in w }
        #expect(owner == owner.sorted())
        #expect(Set(owner) == Set(0..<workers))
        for w in 0..<workers {
            let run = ParallelMap.range(of: w, workers: workers, count: count)
            #expect(owner.indices.filter { owner[$0] == w } == Array(run))
        }
    }
}

/// Workers' chunks joined in order, at the exact size, the chunks released: what the engine's
/// million-row pair lists are concatenated with (``ParallelMap/joined(_:)``).
@Suite struct ParallelMapJoinedTests {
    @Test(arguments: [[], [0], [5], [100_000, 100_000, 100_000], [3, 0, 70_001, 1], [0, 0]])
    func joinsInOrderAtTheExactSize(sizes: [Int]) {
        var start = 0
        var chunks: [[Int]] = sizes.map { n in
            defer { start += n }
            return Array(start..<(start + n))
        }
        let expected = chunks.flatMap { $0 }
        let joined = ParallelMap.joined(&chunks)
        #expect(joined == expected)
        #expect(chunks.isEmpty)
        // `flatMap` doubles as it goes (400,000 slots for three chunks of 100,000); one
        // allocation of the total size only rounds up to the allocator's block.
        #expect(joined.capacity <= max(16, joined.count + joined.count / 64), "capacity \(joined.capacity) for \(joined.count)")
    }
}

/// Elements changed where they are, whatever the number of workers (``ParallelMap/updateInPlace(_:workers:_:)``).
@Suite struct ParallelMapUpdateInPlaceTests {
    @Test(arguments: [0, 1, 2, 7, 1001])
    func everyElementChangedOnceInItsOwnStorage(count: Int) {
        for workers in [1, 2, 3, 64] {
            var items = Array(0..<count)
            let storage = items.withUnsafeBufferPointer { $0.baseAddress }
            ParallelMap.updateInPlace(&items, workers: workers) { _, x in x = x * x + 1 }
            #expect(items == (0..<count).map { $0 * $0 + 1 }, "\(count) items, \(workers) workers")
            #expect(items.withUnsafeBufferPointer { $0.baseAddress } == storage)
        }
    }
}
