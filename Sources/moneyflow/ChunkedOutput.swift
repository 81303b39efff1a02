import Foundation
import MoneyFlowCore
import MoneyFlowPipeline
import MoneyFlowStore

/// Standard output written in chunks as it is produced, so a listing of millions of rows
/// never exists as one string in memory.
final class ChunkedOutput {
    private var buffer = Data()
    private let limit: Int
    private let sink: (Data) -> Void

    convenience init(handle: FileHandle = .standardOutput, chunkSize: Int = 1 << 16) {
        self.init(chunkSize: chunkSize) { handle.write($0) }
    }

    /// Output that goes to `sink` chunk by chunk instead of a file (`migrate` hashes it).
    init(chunkSize: Int = 1 << 16, sink: @escaping (Data) -> Void) {
        self.sink = sink; self.limit = chunkSize
        buffer.reserveCapacity(chunkSize + 4096)
    }

    func write(_ s: String) {
        buffer.append(contentsOf: s.utf8)
        if buffer.count >= limit { flush() }
    }

    func flush() {
        guard !buffer.isEmpty else { return }
        sink(buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}

extension ChunkedOutput {
    /// `transactions`/`export` as JSON or CSV (``TransactionStream``), written in chunks.
    /// Returns the number of transactions.
    @discardableResult
    func streamTransactions(
        _ store: LedgerStore, json: Bool, includeAll: Bool, account: String?,
        from: LocalDate?, through: LocalDate?, csvEnd: String
    ) throws -> Int {
        let count = try TransactionStream.write(
            store, json: json, includeAll: includeAll, account: account, from: from, through: through, csvEnd: csvEnd, to: write)
        flush()
        return count
    }
}
