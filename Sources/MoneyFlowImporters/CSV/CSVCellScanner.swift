/// Where one cell's text lies in the scanned bytes: `start..<end` (for a quoted cell, the text
/// between its quotes); `escaped` when that text holds doubled quotes still to be undone.
struct CSVCellRange: Sendable, Equatable {
    var start: Int
    var end: Int
    var escaped: Bool
}

/// One row as ``CSVCellScanner`` finds it: the cells are byte ranges of the scanned text.
///
/// Why ranges: a bank export's read builds a record from a few cells of every row, and building a
/// String for each of the others (to drop it) was most of the read's time. Valid only inside the
/// scanner's callback (the bytes are borrowed).
struct CSVCells {
    let bytes: UnsafeBufferPointer<UInt8>
    /// 1-based physical line where the row starts.
    var line: Int
    var ranges: [CSVCellRange]
    /// False when the delimiter is not an ASCII byte: cutting UTF-8 text at it can split a
    /// character, so cells are read only through their repaired Strings.
    let splitsAtASCII: Bool

    var count: Int { ranges.count }

    /// The row with each cell's String, as ``CSVParser`` gives it.
    var row: CSVRow { CSVRow(line: line, fields: (0..<count).map { string($0) }) }

    /// The cell's text, as ``CSVParser`` gives it in ``CSVRow/fields``.
    func string(_ i: Int) -> String {
        let r = ranges[i]
        let raw = UnsafeBufferPointer(rebasing: bytes[r.start..<r.end])
        guard r.escaped else { return String(decoding: raw, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var k = 0
        while k < raw.count {
            out.append(raw[k])
            k += raw[k] == 0x22 ? 2 : 1 // a doubled quote in a quoted cell is one quote
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Calls `body` with the bytes of ``CSVImporter/clean(_:)`` of the cell's text, read from the
    /// scanned bytes where that is the same (no String built).
    func withCleanBytes<R>(_ i: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        guard let (lo, hi) = cleanRange(i) else {
            var s = CSVImporter.clean(string(i))
            return s.withUTF8(body)
        }
        return body(UnsafeBufferPointer(rebasing: bytes[lo..<hi]))
    }

    /// Where ``withCleanBytes(_:_:)``'s bytes lie in ``bytes``, when it reads them in place: nil
    /// for a cell with doubled quotes, or when the delimiter is not ASCII.
    func cleanRange(_ i: Int) -> (Int, Int)? {
        let r = ranges[i]
        guard !r.escaped, splitsAtASCII else { return nil }
        return Self.trim(bytes, r.start, r.end)
    }

    /// ``CSVImporter/clean(_:)`` of the cell's text.
    func clean(_ i: Int) -> String { withCleanBytes(i) { String(decoding: $0, as: UTF8.self) } }

    /// True when the cell holds nothing but blanks.
    func isBlank(_ i: Int) -> Bool { withCleanBytes(i) { $0.isEmpty } }

    /// `lo..<hi` without the blanks (``CSVImporter/blanks``) at either end, scalar by scalar as
    /// ``Swift/String/trimmed(_:)`` removes them. `bytes[lo..<hi]` is valid UTF-8.
    static func trim(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> (Int, Int) {
        var lo = start, hi = end
        if lo < hi, (0x21...0x7E).contains(bytes[lo]), (0x21...0x7E).contains(bytes[hi - 1]) { return (lo, hi) }
        while lo < hi {
            let b = bytes[lo]
            if b < 0x80 {
                guard asciiBlank[Int(b)] else { break }
                lo += 1
            } else {
                var next = lo + 1
                while next < hi && bytes[next] & 0xC0 == 0x80 { next += 1 }
                guard CSVImporter.blanks.contains(scalar(bytes, lo, next)) else { break }
                lo = next
            }
        }
        while hi > lo {
            let b = bytes[hi - 1]
            if b < 0x80 {
                guard asciiBlank[Int(b)] else { break }
                hi -= 1
            } else {
                var first = hi - 1
                while first > lo && bytes[first] & 0xC0 == 0x80 { first -= 1 }
                guard CSVImporter.blanks.contains(scalar(bytes, first, hi)) else { break }
                hi = first
            }
        }
        return (lo, hi)
    }

    /// The scalar of the valid UTF-8 sequence `bytes[start..<end]`.
    private static func scalar(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Unicode.Scalar {
        let lead = UInt32(bytes[start])
        var value = end - start == 2 ? lead & 0x1F : end - start == 3 ? lead & 0x0F : lead & 0x07
        for k in (start + 1)..<end { value = value << 6 | UInt32(bytes[k] & 0x3F) }
        return Unicode.Scalar(value) ?? "\u{FFFD}"
    }

    /// The ASCII bytes in ``CSVImporter/blanks``, taken from the set itself.
    static let asciiBlank: [Bool] = (0..<128).map { CSVImporter.blanks.contains(Unicode.Scalar(UInt8($0))) }
}

/// The one RFC 4180 reader behind ``CSVParser``: quoted fields, doubled quotes, embedded newlines,
/// CRLF / LF / CR line ends, any single-byte delimiter. It finds each row's cells as byte ranges
/// and passes the row to `emit` (false stops); nothing is copied.
enum CSVCellScanner {
    /// Errors, and which of them comes first, are those of a byte-by-byte reading: a NUL, text
    /// after a closing quote, a field over `maxFieldBytes` (named by the line its row starts on),
    /// an unterminated quote (named by the line it opened on).
    static func scan(
        _ bytes: UnsafeBufferPointer<UInt8>, delimiter: UInt8, maxFieldBytes maxField: Int = CSVParser.maxFieldBytes,
        _ emit: (CSVCells) -> Bool
    ) throws(CSVParseError) {
        let quote: UInt8 = 0x22, cr: UInt8 = 0x0D, lf: UInt8 = 0x0A
        // Bytes that end an unquoted cell or are refused in it.
        var stops = [Bool](repeating: false, count: 256)
        for b in [delimiter, cr, lf, 0] { stops[Int(b)] = true }
        var row = CSVCells(bytes: bytes, line: 1, ranges: [], splitsAtASCII: delimiter < 0x80)
        row.ranges.reserveCapacity(16)
        let n = bytes.count
        var i = 0
        var line = 1
        func tooLong(_ line: Int, _ column: Int) -> CSVParseError {
            CSVParseError(line: line, column: column, message: "field longer than \(maxField) bytes")
        }
        rows: while i < n {
            let rowStartLine = line
            row.line = line
            row.ranges.removeAll(keepingCapacity: true)
            if (bytes[i] == cr || bytes[i] == lf) && bytes[i] != delimiter {
                // An empty line is a row without cells.
                if !emit(row) { return }
                if bytes[i] == cr && i + 1 < n && bytes[i + 1] == lf { i += 1 }
                i += 1; line += 1
                continue
            }
            cells: while true {
                let column = row.ranges.count + 1
                var cell: CSVCellRange
                if i < n && bytes[i] == quote {
                    let quoteStartLine = line
                    i += 1
                    cell = CSVCellRange(start: i, end: i, escaped: false)
                    var length = 0
                    var closed = false
                    while i < n {
                        let b = bytes[i]
                        if b == quote {
                            if i + 1 < n && bytes[i + 1] == quote { cell.escaped = true; length += 1; i += 2; continue }
                            cell.end = i; i += 1; closed = true
                            break
                        }
                        if b == lf { line += 1 } else if b == cr && !(i + 1 < n && bytes[i + 1] == lf) { line += 1 }
                        if b == 0 { throw CSVParseError(line: line, column: column, message: "NUL byte in field") }
                        length += 1; i += 1
                        if length > maxField { throw tooLong(rowStartLine, column) }
                    }
                    guard closed else { throw CSVParseError(line: quoteStartLine, column: column, message: "unterminated quoted field") }
                    // Blanks may follow the closing quote; nothing else before the cell ends.
                    while i < n {
                        let b = bytes[i]
                        if b == delimiter || b == cr || b == lf { break }
                        if b == 0 { throw CSVParseError(line: line, column: column, message: "NUL byte") }
                        if b != 0x20 && b != 0x09 { throw CSVParseError(line: line, column: column, message: "text after a closing quote") }
                        i += 1
                        // Doubled quotes alone may have taken the cell over the limit.
                        if length > maxField { throw tooLong(rowStartLine, column) }
                    }
                    if length > maxField { throw tooLong(rowStartLine, column) }
                } else {
                    let start = i
                    while i < n && !stops[Int(bytes[i])] { i += 1 }
                    if i < n && bytes[i] == 0 && bytes[i] != delimiter {
                        if i - start > maxField { throw tooLong(rowStartLine, column) }
                        throw CSVParseError(line: line, column: column, message: "NUL byte")
                    }
                    if i - start > maxField { throw tooLong(rowStartLine, column) }
                    cell = CSVCellRange(start: start, end: i, escaped: false)
                }
                row.ranges.append(cell)
                guard i < n else {
                    _ = emit(row)
                    return
                }
                let b = bytes[i]
                i += 1
                if b == delimiter { continue cells }
                // The row ends here (CR, LF or CRLF).
                if !emit(row) { return }
                if b == cr && i < n && bytes[i] == lf { i += 1 }
                line += 1
                continue rows
            }
        }
    }
}
