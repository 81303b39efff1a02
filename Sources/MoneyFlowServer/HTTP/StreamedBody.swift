import Foundation
import Hummingbird
import MoneyFlowStore

/// A response body produced by blocking code (a store read) as it goes: the producer runs on
/// the store's threads (``LedgerStore/perform(_:)``) and hands over one chunk at a time,
/// waiting until the client took it, so a large export holds one chunk in memory, not the
/// whole text. A client that goes away stops the producer at its next chunk.
enum StreamedBody {
    static func make(
        on store: LedgerStore, chunkSize: Int = 1 << 16,
        _ produce: @escaping @Sendable (_ store: LedgerStore, _ write: (String) throws -> Void) throws -> Void
    ) -> ResponseBody {
        ResponseBody { writer in
            let (chunks, continuation) = AsyncThrowingStream<ByteBuffer, any Error>.makeStream()
            let handOver = HandOver()
            let producer = Task {
                do {
                    try await store.perform { store in
                        var pending = ""
                        func send() throws {
                            continuation.yield(ByteBuffer(string: pending))
                            pending = ""
                            try handOver.waitUntilTaken()
                        }
                        try produce(store) { text in
                            pending += text
                            if pending.utf8.count >= chunkSize { try send() }
                        }
                        if !pending.isEmpty { try send() }
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            defer { handOver.stop() }
            for try await chunk in chunks {
                try await writer.write(chunk)
                handOver.taken()
            }
            _ = await producer.result
            try await writer.finish(nil)
        }
    }
}

/// The producer's side of ``StreamedBody``: it waits after each chunk until the writer took it,
/// or gives up when the writer stopped.
final class HandOver: @unchecked Sendable {
    private let signal = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var stopped = false

    func waitUntilTaken() throws {
        signal.wait()
        lock.lock()
        let stop = stopped
        lock.unlock()
        if stop { throw CancellationError() }
    }

    func taken() { signal.signal() }

    func stop() {
        lock.lock()
        stopped = true
        lock.unlock()
        signal.signal()
    }
}
