import Foundation
import MoneyFlowCore

/// A CSV file decoded once and read as a stream of rows.
///
/// Why a stream: a 2,000,000-row export held as text, as cells and as records at once needed
/// about 2.5 GB. Up front, the first rows are kept (to find the header) and the whole file is
/// checked without building its cells (so a broken quote or a NUL anywhere is reported before
/// anything else); then it is parsed again row by row while records are built; the cells of all
/// rows are never held together.
struct CSVSource {
    /// Rows kept from the first pass (the header and the lines above it are among them).
    static let headRowCount = 60

    let file: String
    let delimiter: UInt8
    private(set) var text: String
    /// The first rows of the file (at least ``headRowCount``, and at least one with 2+ cells when
    /// the file has one within its first 1000 rows).
    private(set) var head: [CSVRow] = []

    init(_ data: Data, file: String, forcedEncoding: TextEncodingName?, delimiter explicit: UInt8?) throws {
        self.file = file
        do { text = try TextDecoder.decode(data, forced: forcedEncoding).0 } catch {
            throw ImportError(.malformed, file: file, locator: Locator(line: error.line), problem: error.message)
        }
        delimiter = explicit ?? CSVParser.detectDelimiter(text)
        var head: [CSVRow] = []
        var sawWide = false
        try forEachRow { row in
            head.append(row)
            if row.fields.count > 1 { sawWide = true }
            return head.count < Self.headRowCount || (!sawWide && head.count < 1000)
        }
        self.head = head
        // The rest is only checked: building every cell's String to drop it cost a seventh of a read.
        do { try CSVParser.check(&text, delimiter: delimiter) } catch { throw importError(error) }
    }

    /// Streams every row to `body` (false stops). Parse errors name the line.
    mutating func forEachRow(_ body: (CSVRow) -> Bool) throws {
        do { try CSVParser.forEachRow(in: &text, delimiter: delimiter, body) } catch { throw importError(error) }
    }

    private func importError(_ error: CSVParseError) -> ImportError {
        ImportError(
            .malformed, file: file, locator: Locator(line: error.line), column: error.column.map(String.init), problem: error.message)
    }

    /// Drops the decoded text once the rows have been read.
    mutating func release() { text = ""; head = [] }
}
