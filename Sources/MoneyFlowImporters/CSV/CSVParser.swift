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

/// RFC 4180 CSV parsing over UTF-8 bytes into rows of Strings: quoted fields, doubled quotes,
/// embedded newlines, CRLF / LF / CR line ends, any single-byte delimiter (``CSVCellScanner``
/// reads the bytes; a bank export's records are built from its byte ranges directly).
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

    static func parse(buffer bytes: UnsafeBufferPointer<UInt8>, delimiter: UInt8) throws(CSVParseError) -> [CSVRow] {
        var rows: [CSVRow] = []
        try scan(buffer: bytes, delimiter: delimiter) {
            rows.append($0); return true
        }
        return rows
    }

    /// The rows of ``CSVCellScanner``, each cell's String built from its byte range.
    static func scan(buffer bytes: UnsafeBufferPointer<UInt8>, delimiter: UInt8, _ emit: (CSVRow) -> Bool) throws(CSVParseError) {
        try CSVCellScanner.scan(bytes, delimiter: delimiter) { emit($0.row) }
    }

    /// Picks the delimiter (`,` `;` tab `|`) that splits the first lines (the first 64 Ki
    /// Characters of the text) most consistently.
    public static func detectDelimiter(_ text: String) -> UInt8 {
        var text = text
        return text.withUTF8 { detectDelimiter(utf8: $0) }
    }

    /// ``detectDelimiter(_:)`` of the text whose valid UTF-8 is `bytes`.
    static func detectDelimiter(utf8 bytes: UnsafeBufferPointer<UInt8>) -> UInt8 {
        let candidates: [UInt8] = [0x2C, 0x3B, 0x09, 0x7C]
        let sample = UnsafeBufferPointer(rebasing: bytes[..<sampleByteCount(utf8: bytes, characters: 64 * 1024)])
        var best: UInt8 = 0x2C
        var bestScore = -1
        for d in candidates {
            // Only the widths of the first rows count (no cell is read); a sample that does not
            // parse with this delimiter rules it out.
            var widths: [Int] = []
            do throws(CSVParseError) {
                try CSVCellScanner.scan(sample, delimiter: d) { row in
                    if widths.count < 60 { widths.append(row.count) }
                    return true
                }
            } catch { continue }
            var counts: [Int: Int] = [:]
            for w in widths where w > 1 { counts[w, default: 0] += 1 }
            guard let (width, freq) = counts.max(by: { ($0.value, $0.key) < ($1.value, $1.key) }) else { continue }
            let score = freq * 100 + width
            if score > bestScore { bestScore = score; best = d }
        }
        return best
    }

    /// The UTF-8 length of `text.prefix(characters)`. ASCII text is counted from its bytes (each
    /// byte a Character, CR LF one); text with other characters is counted Character by Character.
    static func sampleByteCount(_ text: inout String, characters: Int) -> Int {
        text.withUTF8 { sampleByteCount(utf8: $0, characters: characters) }
    }

    /// ``sampleByteCount(_:characters:)`` of the text whose valid UTF-8 is `bytes`.
    static func sampleByteCount(utf8 bytes: UnsafeBufferPointer<UInt8>, characters: Int) -> Int {
        var i = 0, count = 0
        while i < bytes.count && count < characters {
            guard bytes[i] < 0x80 else { return String(decoding: bytes, as: UTF8.self).prefix(characters).utf8.count }
            i += bytes[i] == 0x0D && i + 1 < bytes.count && bytes[i + 1] == 0x0A ? 2 : 1
            count += 1
        }
        // A following non-ASCII scalar may belong to the last Character (a combining mark).
        return i < bytes.count && bytes[i] >= 0x80 ? String(decoding: bytes, as: UTF8.self).prefix(characters).utf8.count : i
    }
}
