import Dispatch

/// The one order-preserving parallel map: `body(worker, index)` for every index in
/// `0..<count`, results in index order, whatever the number of workers (so output never
/// depends on the machine). Worker `w` handles one contiguous run of indexes, which lets a
/// caller give each worker its own non-thread-safe resource (a poppler document per worker)
/// and keeps neighbouring items on one core. With one worker it runs on the calling thread.
public enum ParallelMap {
    public static func map<T>(
        _ count: Int, workers requested: Int,
        _ body: @Sendable (_ worker: Int, _ index: Int) -> T
    ) -> [T] {
        let workers = max(1, min(requested, count))
        if workers == 1 { return (0..<count).map { body(0, $0) } }
        let slots = UnsafeMutableBufferPointer<T>.allocate(capacity: count)
        defer { slots.deallocate() }
        let shared = Slots(slots.baseAddress!)
        DispatchQueue.concurrentPerform(iterations: workers) { w in
            for i in range(of: w, workers: workers, count: count) { (shared.base + i).initialize(to: body(w, i)) }
        }
        let out = Array(slots)
        _ = slots.deinitialize()
        return out
    }

    /// `body(worker, &element)` for every element of `items`, changing it in place, each
    /// worker one contiguous run (as ``map(_:workers:_:)``); with one worker on the calling
    /// thread. For lists too large to hold a second time (the engine's pairs at a million rows).
    public static func updateInPlace<T>(
        _ items: inout [T], workers requested: Int, _ body: @Sendable (_ worker: Int, _ item: inout T) -> Void
    ) {
        let count = items.count
        let workers = max(1, min(requested, count))
        items.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            if workers == 1 {
                for i in 0..<count { body(0, &base[i]) }
                return
            }
            let shared = Slots(base)
            DispatchQueue.concurrentPerform(iterations: workers) { w in
                for i in range(of: w, workers: workers, count: count) { body(w, &shared.base[i]) }
            }
        }
    }

    /// The workers' results, `chunks`, as one array in order; `chunks` is left empty.
    ///
    /// `flatMap` grows its result by doubling while every chunk is still held: at a million rows
    /// the engine's pair lists briefly held about four copies' worth, the import's peak memory.
    /// Here the result is allocated once at its exact size, each chunk is released as soon as it
    /// is copied, and a single chunk is handed over without a copy.
    public static func joined<T>(_ chunks: inout [[T]]) -> [T] {
        if chunks.count == 1 {
            let only = chunks[0]
            chunks = []
            return only
        }
        var out: [T] = []
        out.reserveCapacity(chunks.reduce(0) { $0 + $1.count })
        for i in chunks.indices {
            out.append(contentsOf: chunks[i])
            chunks[i] = []
        }
        chunks = []
        return out
    }

    /// Indexes of worker `w`: the `w`-th of `workers` contiguous, near-equal runs.
    public static func range(of w: Int, workers: Int, count: Int) -> Range<Int> {
        (w * count / workers)..<((w + 1) * count / workers)
    }
}

/// Result slots shared by the workers. Unchecked: each worker initializes (or updates) only its
/// own, disjoint indexes, and the slots are read after `concurrentPerform` returns.
private final class Slots<T>: @unchecked Sendable {
    let base: UnsafeMutablePointer<T>
    init(_ base: UnsafeMutablePointer<T>) { self.base = base }
}
