import Dispatch
import Foundation

/// Order-preserving parallel map over indexes, for independent per-page work. The result does
/// not depend on the number of threads.
enum CMBParallel {
    /// Below this many items the work runs on the calling thread.
    static let minimumItems = 8

    static func map<T: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) -> T) -> [T] {
        let threads = min(ProcessInfo.processInfo.activeProcessorCount, count / (minimumItems / 2), 8)
        if threads <= 1 { return (0..<count).map(body) }
        let slots = UnsafeMutableBufferPointer<T>.allocate(capacity: count)
        defer { slots.deallocate() }
        let box = CMBSlots(slots.baseAddress!)
        DispatchQueue.concurrentPerform(iterations: threads) { w in
            var i = w
            while i < count {
                (box.base + i).initialize(to: body(i))
                i += threads
            }
        }
        let out = Array(slots)
        _ = slots.deinitialize()
        return out
    }
}

/// Result slots shared by the workers. Unchecked: each worker initializes only its own indexes,
/// and the slots are read after `concurrentPerform` returns.
private final class CMBSlots<T>: @unchecked Sendable {
    let base: UnsafeMutablePointer<T>
    init(_ base: UnsafeMutablePointer<T>) { self.base = base }
}
