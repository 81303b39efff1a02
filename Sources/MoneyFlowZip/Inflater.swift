import CMinizip

/// Deflate decompression with zlib that never produces more than `limit` bytes: the one
/// inflater of ZIP entries (raw deflate) and of PDF streams (`zlibHeader`, checked by
/// MoneyFlowPDF's limits before poppler parses a file).
public enum Inflater {
    private static let chunkSize = 64 * 1024

    /// Inflates a raw deflate stream (no zlib header), or with `zlibHeader` a zlib stream (a PDF's
    /// FlateDecode). Stops as soon as the output would exceed `limit`
    /// (``ZipError/entryTooLarge(entry:limit:)``).
    public static func inflate(_ input: [UInt8], limit: UInt64, entry: String, zlibHeader: Bool = false) throws(ZipError) -> [UInt8] {
        var stream = z_stream()
        guard cminizip_inflateInit2(&stream, zlibHeader ? cminizip_max_wbits() : -cminizip_max_wbits()) == Z_OK else {
            throw .corrupt("cannot initialise zlib")
        }
        defer { inflateEnd(&stream) }

        var output: [UInt8] = []
        output.reserveCapacity(Int(min(limit, 4 << 20)))
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        enum Outcome { case done, tooLarge, dataError, truncated }
        var outcome = Outcome.truncated

        input.withUnsafeBufferPointer { inputBuffer in
            var consumed = 0
            while true {
                if stream.avail_in == 0 && consumed < inputBuffer.count {
                    let count = min(inputBuffer.count - consumed, Int(UInt32.max >> 1))
                    stream.next_in = UnsafeMutablePointer(mutating: inputBuffer.baseAddress! + consumed)
                    stream.avail_in = uInt(count)
                    consumed += count
                }
                let (status, produced) = chunk.withUnsafeMutableBufferPointer { out -> (Int32, Int) in
                    stream.next_out = out.baseAddress
                    stream.avail_out = uInt(out.count)
                    let status = CMinizip.inflate(&stream, Z_NO_FLUSH)
                    return (status, out.count - Int(stream.avail_out))
                }
                if UInt64(output.count) + UInt64(produced) > limit {
                    outcome = .tooLarge
                    return
                }
                output.append(contentsOf: chunk[0..<produced])
                switch status {
                case Z_STREAM_END:
                    outcome = .done
                    return
                case Z_OK:
                    continue
                case Z_BUF_ERROR:
                    // No progress possible: input exhausted before the end of the stream.
                    if stream.avail_in == 0 && consumed >= inputBuffer.count {
                        outcome = .truncated
                        return
                    }
                    continue
                default:
                    outcome = .dataError
                    return
                }
            }
        }
        switch outcome {
        case .done: return output
        case .tooLarge: throw .entryTooLarge(entry: entry, limit: limit)
        case .dataError: throw .corrupt("corrupt deflate stream")
        case .truncated: throw .corrupt("deflate stream ends early")
        }
    }
}
