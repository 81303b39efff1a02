import Foundation
import MoneyFlowCore

/// A CSV file decoded once and read as a stream of rows.
///
/// Why a stream: a 2,000,000-row export held as text, as cells and as records at once needed
/// about 2.5 GB. Up front only the first rows are kept (to find the header); then the file is
/// scanned once, row by row, its cells read as byte ranges of the decoded text while records are
/// built (``forEachCells(_:)``). A broken quote or a NUL anywhere is still reported before any
/// row's own error: after a row fails, the scan goes on to the end of the file to look for one.
struct CSVSource {
    /// Rows kept from the first pass (the header and the lines above it are among them).
    static let headRowCount = 60

    let file: String
    let delimiter: UInt8
    /// The text's UTF-8: the file's own bytes when they are UTF-8 already (a copy of a large
    /// export as a String was a tenth of its read: the copy and the first touch of its pages),
    /// else the decoded text's.
    private var text: CSVText
    /// The first rows of the file (at least ``headRowCount``, and at least one with 2+ cells when
    /// the file has one within its first 1000 rows).
    private(set) var head: [CSVRow] = []
    /// About how many rows the file has (from the bytes its first rows take), for reserving
    /// room; at most one row per 24 bytes (room reserved and never written costs no memory).
    private(set) var estimatedRowCount = 0

    init(_ data: Data, file: String, forcedEncoding: TextEncodingName?, delimiter explicit: UInt8?) throws {
        self.file = file
        if let start = TextDecoder.utf8TextStart(data, forced: forcedEncoding) {
            text = .bytes(data, start: start)
        } else {
            do { text = .string(try TextDecoder.decode(data, forced: forcedEncoding).0) } catch {
                throw ImportError(.malformed, file: file, locator: Locator(line: error.line), problem: error.message)
            }
        }
        if let explicit { delimiter = explicit } else { delimiter = text.withUTF8 { CSVParser.detectDelimiter(utf8: $0) } }
        var head: [CSVRow] = []
        var sawWide = false
        var headBytes = 0
        let delimiter = self.delimiter
        let scanned: Result<Int, CSVParseError> = text.withUTF8 { buffer in
            do throws(CSVParseError) {
                try CSVCellScanner.scan(buffer, delimiter: delimiter) { row in
                    head.append(row.row)
                    headBytes = row.ranges.last?.end ?? headBytes
                    if row.count > 1 { sawWide = true }
                    return head.count < Self.headRowCount || (!sawWide && head.count < 1000)
                }
                return .success(buffer.count)
            } catch {
                return .failure(error)
            }
        }
        let total: Int
        do { total = try scanned.get() } catch { throw importError(error) }
        self.head = head
        let perHeadRow = Double(max(headBytes, 1)) / Double(max(head.count, 1))
        estimatedRowCount = min(Int(Double(total) / perHeadRow * 1.05), total / 24) + 16
    }

    /// Checks the whole text as ``forEachCells(_:)`` reads it: the first parse error in file
    /// order, for a file refused before its rows are read (no profile fits its header).
    mutating func check() throws {
        let delimiter = self.delimiter
        let checked: Result<Void, CSVParseError> = text.withUTF8 { buffer in
            do throws(CSVParseError) {
                try CSVCellScanner.scan(buffer, delimiter: delimiter) { _ in true }; return .success(())
            } catch {
                return .failure(error)
            }
        }
        do { try checked.get() } catch { throw importError(error) }
    }

    /// Streams every row to `body` as byte ranges. When `body` throws, the rest of the file is
    /// still scanned: a parse error anywhere in it is thrown in place of the row's error (the
    /// file is broken, whatever its rows say), else the row's error.
    mutating func forEachCells(_ body: (CSVCells) throws -> Void) throws {
        var failure: Error?
        let delimiter = self.delimiter
        let scanned: Result<Void, CSVParseError> = text.withUTF8 { buffer in
            do throws(CSVParseError) {
                try CSVCellScanner.scan(buffer, delimiter: delimiter) { row in
                    guard failure == nil else { return true }
                    do { try body(row) } catch { failure = error }
                    return true
                }
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        if case .failure(let error) = scanned { throw importError(error) }
        if let failure { throw failure }
    }

    private func importError(_ error: CSVParseError) -> ImportError {
        ImportError(
            .malformed, file: file, locator: Locator(line: error.line), column: error.column.map(String.init), problem: error.message)
    }

    /// Drops the decoded text once the rows have been read.
    mutating func release() { text = .string(""); head = [] }
}

/// UTF-8 text to scan: a file's bytes from `start` on (already checked to be valid UTF-8), or a
/// String decoded from another encoding.
enum CSVText {
    case bytes(Data, start: Int)
    case string(String)

    mutating func withUTF8<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        switch self {
        case .bytes(let data, let start):
            return data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
                body(UnsafeBufferPointer(rebasing: raw.bindMemory(to: UInt8.self)[start...]))
            }
        case .string(var s):
            self = .string("") // keeps the String uniquely referenced: withUTF8 does not copy it
            defer { self = .string(s) }
            return s.withUTF8(body)
        }
    }
}
