import Foundation
import MoneyFlowCore

/// Per-page work of the reconstruction on several cores (``ParallelMap``): pages are
/// independent, and the result does not depend on the number of threads.
enum CMBParallel {
    /// Below this many items the work runs on the calling thread.
    static let minimumItems = 8

    static func map<T>(_ count: Int, _ body: @Sendable (Int) -> T) -> [T] {
        let threads = min(ProcessInfo.processInfo.activeProcessorCount, count / (minimumItems / 2), 8)
        return ParallelMap.map(count, workers: threads) { _, i in body(i) }
    }
}
