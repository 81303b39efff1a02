import Foundation
import MoneyFlowCore

/// One parsed CSV row with the physical line it starts on.
public struct CSVRow: Sendable, Hashable {
    /// 1-based physical line where the row starts.
    public var line: Int
    public var fields: [String]
}

/// Why CSV text could not be parsed.
public struct CSVParseError: Error, Sendable, Equatable, CustomStringConvertible {
    public var line: Int
    public var column: Int?
    public var message: String
    public var description: String {
        column.map { "line \(line), column \($0): \(message)" } ?? "line \(line): \(message)"
    }
}

/// RFC 4180 CSV parsing over UTF-8 bytes: quoted fields, doubled quotes, embedded newlines,
/// CRLF / LF / CR line ends, any single-byte ASCII delimiter.
public enum CSVParser {
    /// Largest single field accepted (a 10 MB field is someone's mistake, not a bank export).
    public static let maxFieldBytes = 1 << 20

    public static func parse(_ text: String, delimiter: UInt8) throws(CSVParseError) -> [CSVRow] {
        var bytes = Array(text.utf8)
        return try parse(bytes: &bytes, delimiter: delimiter)
    }

    public static func parse(bytes: inout [UInt8], delimiter: UInt8) throws(CSVParseError) -> [CSVRow] {
        let result: Result<[CSVRow], CSVParseError> = bytes.withUnsafeBufferPointer { buffer in
            do throws(CSVParseError) { return .success(try parse(buffer: buffer, delimiter: delimiter)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Streams the rows of UTF-8 text to `body` without collecting them (a large export's cells
    /// are never all held at once); `body` returns false to stop early.
    public static func forEachRow(in text: inout String, delimiter: UInt8, _ body: (CSVRow) -> Bool) throws(CSVParseError) {
        let result: Result<Void, CSVParseError> = text.withUTF8 { buffer in
            do throws(CSVParseError) { try scan(buffer: buffer, delimiter: delimiter, body); return .success(()) } catch {
                return .failure(error)
            }
        }
        try result.get()
    }

    static func parse(buffer bytes: UnsafeBufferPointer<UInt8>, delimiter: UInt8) throws(CSVParseError) -> [CSVRow] {
        var rows: [CSVRow] = []
        try scan(buffer: bytes, delimiter: delimiter) {
            rows.append($0); return true
        }
        return rows
    }

    /// Checks the whole of UTF-8 text as ``forEachRow(in:delimiter:_:)`` reads it (the same
    /// errors, first one in file order), without building any cell's String.
    static func check(_ text: inout String, delimiter: UInt8) throws(CSVParseError) {
        let result: Result<Void, CSVParseError> = text.withUTF8 { buffer in
            do throws(CSVParseError) {
                try scan(buffer: buffer, delimiter: delimiter, cells: false) { _ in true }; return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }

    /// `cells`: false gives every cell as "" (rows keep their width), for a check of the text alone.
    static func scan(
        buffer bytes: UnsafeBufferPointer<UInt8>, delimiter: UInt8, cells: Bool = true, _ emit: (CSVRow) -> Bool
    ) throws(CSVParseError) {
        let quote: UInt8 = 0x22, cr: UInt8 = 0x0D, lf: UInt8 = 0x0A
        var fields: [String] = []
        var line = 1
        var rowStartLine = 1
        var i = 0
        let n = bytes.count
        var field: [UInt8] = []
        field.reserveCapacity(64)
        var atFieldStart = true
        var inQuotes = false
        var quoteStartLine = 0
        var wasQuoted = false
        var rowHasContent = false

        func endField() throws(CSVParseError) {
            if field.count > maxFieldBytes {
                throw CSVParseError(line: rowStartLine, column: fields.count + 1, message: "field longer than \(maxFieldBytes) bytes")
            }
            fields.append(cells ? String(decoding: field, as: UTF8.self) : "")
            field.removeAll(keepingCapacity: true)
            atFieldStart = true
            wasQuoted = false
        }
        while i < n {
            let b = bytes[i]
            if inQuotes {
                if b == quote {
                    if i + 1 < n && bytes[i + 1] == quote { field.append(quote); i += 2; continue }
                    inQuotes = false; i += 1; continue
                }
                if b == lf { line += 1 } else if b == cr { if !(i + 1 < n && bytes[i + 1] == lf) { line += 1 } }
                if b == 0 { throw CSVParseError(line: line, column: fields.count + 1, message: "NUL byte in field") }
                field.append(b); i += 1
                if field.count > maxFieldBytes {
                    throw CSVParseError(line: rowStartLine, column: fields.count + 1, message: "field longer than \(maxFieldBytes) bytes")
                }
                continue
            }
            if b == quote && atFieldStart {
                inQuotes = true; wasQuoted = true; atFieldStart = false; quoteStartLine = line; rowHasContent = true; i += 1
                continue
            }
            if b == delimiter {
                try endField(); rowHasContent = true; i += 1; continue
            }
            if b == cr || b == lf {
                if rowHasContent || !field.isEmpty || !fields.isEmpty {
                    try endField()
                    if !emit(CSVRow(line: rowStartLine, fields: fields)) { return }
                } else {
                    if !emit(CSVRow(line: rowStartLine, fields: [])) { return }
                }
                fields.removeAll(keepingCapacity: true)
                rowHasContent = false
                if b == cr && i + 1 < n && bytes[i + 1] == lf { i += 1 }
                i += 1; line += 1; rowStartLine = line
                continue
            }
            if b == 0 { throw CSVParseError(line: line, column: fields.count + 1, message: "NUL byte") }
            if wasQuoted && b != 0x20 && b != 0x09 {
                throw CSVParseError(line: line, column: fields.count + 1, message: "text after a closing quote")
            }
            if !wasQuoted { field.append(b) }
            atFieldStart = false; rowHasContent = true; i += 1
            if field.count > maxFieldBytes {
                throw CSVParseError(line: rowStartLine, column: fields.count + 1, message: "field longer than \(maxFieldBytes) bytes")
            }
        }
        if inQuotes {
            throw CSVParseError(line: quoteStartLine, column: fields.count + 1, message: "unterminated quoted field")
        }
        if rowHasContent || !field.isEmpty || !fields.isEmpty {
            try endField()
            _ = emit(CSVRow(line: rowStartLine, fields: fields))
        }
    }

    /// Picks the delimiter (`,` `;` tab `|`) that splits the first lines most consistently.
    public static func detectDelimiter(_ text: String) -> UInt8 {
        let candidates: [UInt8] = [0x2C, 0x3B, 0x09, 0x7C]
        let sample = String(text.prefix(64 * 1024))
        var best: UInt8 = 0x2C
        var bestScore = -1
        for d in candidates {
            let bytes = Array(sample.utf8)
            // Only the widths of the first rows count (cells are not built); a sample that does
            // not parse with this delimiter rules it out.
            var widths: [Int] = []
            let parsed: Bool = bytes.withUnsafeBufferPointer { buffer in
                do throws(CSVParseError) {
                    try scan(buffer: buffer, delimiter: d, cells: false) { row in
                        if widths.count < 60 { widths.append(row.fields.count) }
                        return true
                    }
                    return true
                } catch { return false }
            }
            guard parsed else { continue }
            var counts: [Int: Int] = [:]
            for w in widths where w > 1 { counts[w, default: 0] += 1 }
            guard let (width, freq) = counts.max(by: { ($0.value, $0.key) < ($1.value, $1.key) }) else { continue }
            let score = freq * 100 + width
            if score > bestScore { bestScore = score; best = d }
        }
        return best
    }
}
