import Foundation
import NIOPosix

/// Runs store work (SQLite through GRDB blocks its thread) on a thread pool of its own, so a
/// long import never holds one of the few cooperative threads every other request needs.
enum Blocking {
    static let pool: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: max(4, ProcessInfo.processInfo.activeProcessorCount * 2))
        pool.start()
        return pool
    }()

    static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await pool.runIfActive(body)
    }
}
