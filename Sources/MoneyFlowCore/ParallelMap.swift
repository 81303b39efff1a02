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

    /// Indexes of worker `w`: the `w`-th of `workers` contiguous, near-equal runs.
    public static func range(of w: Int, workers: Int, count: Int) -> Range<Int> {
        (w * count / workers)..<((w + 1) * count / workers)
    }
}

/// Result slots shared by the workers. Unchecked: each worker initializes only its own,
/// disjoint indexes, and the slots are read after `concurrentPerform` returns.
private final class Slots<T>: @unchecked Sendable {
    let base: UnsafeMutablePointer<T>
    init(_ base: UnsafeMutablePointer<T>) { self.base = base }
}
