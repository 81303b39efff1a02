import Foundation

/// Standard output written in chunks as it is produced, so a listing of millions of rows
/// never exists as one string in memory.
final class ChunkedOutput {
    private var buffer = Data()
    private let limit: Int
    private let handle: FileHandle

    init(handle: FileHandle = .standardOutput, chunkSize: Int = 1 << 16) {
        self.handle = handle; self.limit = chunkSize
        buffer.reserveCapacity(chunkSize + 4096)
    }

    func write(_ s: String) {
        buffer.append(contentsOf: s.utf8)
        if buffer.count >= limit { flush() }
    }

    func flush() {
        guard !buffer.isEmpty else { return }
        handle.write(buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}
