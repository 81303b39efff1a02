@testable import MoneyFlowImporters

/// The CSV parser as it was before cells became byte ranges (``CSVCellScanner``): a byte-by-byte
/// state machine building each cell's bytes. Kept only as the oracle the scanner is compared to
/// (`CSVCellScannerTests`); production code has one parser.
enum ReferenceCSVParser {
    static func parse(_ bytes: [UInt8], delimiter: UInt8, maxFieldBytes: Int, stopAfter: Int = .max) throws(CSVParseError) -> [CSVRow] {
        let result: Result<[CSVRow], CSVParseError> = bytes.withUnsafeBufferPointer { buffer in
            var rows: [CSVRow] = []
            do throws(CSVParseError) {
                try scan(buffer, delimiter: delimiter, maxFieldBytes: maxFieldBytes) {
                    rows.append($0); return rows.count < stopAfter
                }
                return .success(rows)
            } catch { return .failure(error) }
        }
        return try result.get()
    }

    static func scan(
        _ bytes: UnsafeBufferPointer<UInt8>, delimiter: UInt8, maxFieldBytes: Int, _ emit: (CSVRow) -> Bool
    ) throws(CSVParseError) {
        let quote: UInt8 = 0x22, cr: UInt8 = 0x0D, lf: UInt8 = 0x0A
        var fields: [String] = []
        var line = 1
        var rowStartLine = 1
        var i = 0
        let n = bytes.count
        var field: [UInt8] = []
        var atFieldStart = true
        var inQuotes = false
        var quoteStartLine = 0
        var wasQuoted = false
        var rowHasContent = false

        func endField() throws(CSVParseError) {
            if field.count > maxFieldBytes {
                throw CSVParseError(line: rowStartLine, column: fields.count + 1, message: "field longer than \(maxFieldBytes) bytes")
            }
            fields.append(String(decoding: field, as: UTF8.self))
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

    /// The delimiter detection of that time: the sample is the text's first 64 Ki Characters.
    static func detectDelimiter(_ text: String) -> UInt8 {
        let sample = Array(String(text.prefix(64 * 1024)).utf8)
        var best: UInt8 = 0x2C
        var bestScore = -1
        for d: UInt8 in [0x2C, 0x3B, 0x09, 0x7C] {
            guard let rows = try? parse(sample, delimiter: d, maxFieldBytes: CSVParser.maxFieldBytes) else { continue }
            var counts: [Int: Int] = [:]
            for w in rows.prefix(60).map(\.fields.count) where w > 1 { counts[w, default: 0] += 1 }
            guard let (width, freq) = counts.max(by: { ($0.value, $0.key) < ($1.value, $1.key) }) else { continue }
            let score = freq * 100 + width
            if score > bestScore { bestScore = score; best = d }
        }
        return best
    }
}
