import Foundation
import MoneyFlowCore
import MoneyFlowTestSupport
import Testing

@testable import MoneyFlowImporters

/// The byte-range scanner against the byte-by-byte parser it replaced (``ReferenceCSVParser``):
/// the same rows, cells, lines and errors (which error, line, column) on random CSV text, and
/// cells cleaned in place exactly as ``CSVImporter/clean(_:)`` cleans their Strings.
@Suite struct CSVCellScannerTests {
    /// Pieces random text is made of: everything the parser treats specially, blanks the cleaning
    /// removes (ASCII, U+0085, U+00A0, U+2028, U+3000), a combining mark, CJK, `#`.
    static let pieces: [String] = [
        ",", ",", ";", "\t", "|", "\"", "\"", "\"\"", "\r", "\n", "\r\n", " ", " ", "a", "b7", "1.5", "#", "中文",
        "\u{3000}", "\u{A0}", "\u{85}", "\u{2028}", "\u{301}", "\u{0B}", "\u{0}", "\\", "x y",
    ]

    static func randomText(_ rng: inout SplitMix64) -> String {
        if rng.chance(0.3) { return (0..<rng.int(0...40)).map { _ in rng.pick(pieces) }.joined() }
        // Rows of cells, some quoted (with doubled quotes, newlines, blanks after the quote).
        var text = ""
        for _ in 0..<rng.int(0...6) {
            let cells = (0..<rng.int(1...5)).map { _ -> String in
                let body = (0..<rng.int(0...4)).map { _ -> String in
                    let piece = rng.pick(pieces)
                    return piece != "\u{0}" || rng.chance(0.1) ? piece : "a"
                }.joined()
                guard rng.chance(0.4) else { return body.replacingOccurrences(of: "\"", with: "") }
                let quoted = "\"" + body.replacingOccurrences(of: "\"", with: "\"\"") + "\""
                return quoted + (rng.chance(0.2) ? rng.pick([" ", "\t", " x"]) : "")
            }
            text += cells.joined(separator: rng.chance(0.8) ? "," : rng.pick([";", "\t"])) + rng.pick(["\n", "\r\n", "\r", ""])
        }
        return text
    }

    /// The scanner's rows with each cell's String, stopping after `stopAfter` rows.
    static func scanned(
        _ bytes: [UInt8], delimiter: UInt8, maxFieldBytes: Int, stopAfter: Int = .max, _ eachRow: (CSVCells) -> Void = { _ in }
    ) throws(CSVParseError) -> [CSVRow] {
        let result: Result<[CSVRow], CSVParseError> = bytes.withUnsafeBufferPointer { buffer in
            var rows: [CSVRow] = []
            do throws(CSVParseError) {
                try CSVCellScanner.scan(buffer, delimiter: delimiter, maxFieldBytes: maxFieldBytes) { row in
                    eachRow(row)
                    rows.append(CSVRow(line: row.line, fields: (0..<row.count).map { row.string($0) }))
                    return rows.count < stopAfter
                }
                return .success(rows)
            } catch { return .failure(error) }
        }
        return try result.get()
    }

    @Test func scannerReadsRandomTextAsTheByteByByteParserDid() {
        var rng = SplitMix64(seed: 30)
        let delimiters: [UInt8] = [0x2C, 0x3B, 0x09, 0x7C, 0x22, 0x0A, 0x0D, 0x20, 0x00, 0xE4]
        var errors = 0, rowsSeen = 0
        for _ in 0..<3_000 {
            let bytes = Array(Self.randomText(&rng).utf8)
            let delimiter = rng.chance(0.6) ? 0x2C : rng.pick(delimiters)
            let limit = rng.chance(0.5) ? CSVParser.maxFieldBytes : rng.int(0...6)
            let stop = rng.chance(0.2) ? rng.int(1...3) : Int.max
            let expected = Result { () throws(CSVParseError) in
                try ReferenceCSVParser.parse(bytes, delimiter: delimiter, maxFieldBytes: limit, stopAfter: stop)
            }
            let actual = Result { () throws(CSVParseError) in
                try Self.scanned(bytes, delimiter: delimiter, maxFieldBytes: limit, stopAfter: stop)
            }
            #expect(actual == expected, "\(String(decoding: bytes, as: UTF8.self).debugDescription) delimiter \(delimiter) limit \(limit)")
            if case .failure = expected { errors += 1 } else if case .success(let rows) = expected { rowsSeen += rows.count }
            if limit == CSVParser.maxFieldBytes, stop == .max {
                var copy = bytes
                #expect(Result { () throws(CSVParseError) in try CSVParser.parse(bytes: &copy, delimiter: delimiter) } == expected)
            }
        }
        // Both outcomes are well represented.
        #expect(errors > 300 && rowsSeen > 1_000, "errors \(errors), rows \(rowsSeen)")
    }

    /// A field over the 1 MiB limit is refused at the same place, before a NUL or a stray quote later in it.
    @Test func overlongFieldsAreRefusedAsBefore() {
        let long = String(repeating: "x", count: CSVParser.maxFieldBytes)
        let texts = [
            "a,\(long)y\u{0}\n", "a,\(long)\u{0}\n", "a,\"\(long)\"\"\" z\n", "a,\"\(long)\" z\n", "a,\"\(long)y\u{0}",
            "a,\"\(long)\"\"\u{0}\"\n", "a\n\"\(long)\n", "a,\(long)\n", "a,\"\(long)\"\n",
        ]
        for text in texts {
            let bytes = Array(text.utf8)
            let limit = CSVParser.maxFieldBytes
            let expected = Result { () throws(CSVParseError) in try ReferenceCSVParser.parse(bytes, delimiter: 0x2C, maxFieldBytes: limit) }
            #expect(Result { () throws(CSVParseError) in try Self.scanned(bytes, delimiter: 0x2C, maxFieldBytes: limit) } == expected)
        }
    }

    /// Cleaning, blank tests and the raw JSON of a cell, read in place, are those of its String.
    @Test func cellsCleanedInPlaceAreTheCleanedStrings() throws {
        var rng = SplitMix64(seed: 3030)
        var checked = 0
        for _ in 0..<3_000 {
            let bytes = Array(Self.randomText(&rng).utf8)
            let delimiter: UInt8 = rng.chance(0.9) ? 0x2C : 0xE4
            _ = try? Self.scanned(bytes, delimiter: delimiter, maxFieldBytes: CSVParser.maxFieldBytes) { row in
                for i in 0..<row.count {
                    let clean = CSVImporter.clean(row.string(i))
                    #expect(row.clean(i) == clean, "\(row.string(i).debugDescription)")
                    #expect(row.isBlank(i) == clean.isEmpty)
                    var json: [UInt8] = []
                    row.withCleanBytes(i) { JSONText.append(bytes: $0, to: &json) }
                    #expect(json == Array(JSONText.string(clean).utf8))
                    checked += 1
                }
            }
        }
        #expect(checked > 5_000)
        // Every blank scalar the cleaning knows of, at either end of a cell.
        for v in Array(0..<0x3100) + [0xFEFF, 0x1_F600] {
            guard let u = Unicode.Scalar(v), u != "\"", u != ",", u != "\r", u != "\n", u != "\u{0}" else { continue }
            let cell = "\(u)x\(u)"
            _ = try Self.scanned(Array(cell.utf8), delimiter: 0x2C, maxFieldBytes: 64) { row in
                #expect(row.clean(0) == CSVImporter.clean(cell), "U+\(String(v, radix: 16))")
            }
        }
    }

    /// The delimiter is picked from the same sample (the first 64 Ki Characters: CR LF is one, a
    /// combining mark joins the character before it) as when the sample was a String.
    @Test func delimiterDetectionSamplesTheSameCharacters() {
        var rng = SplitMix64(seed: 64)
        for _ in 0..<2_000 {
            var text = (0..<rng.int(0...12)).map { _ in rng.pick(["a", "\r", "\n", "\r\n", "\u{301}", "中", ",", "é"]) }.joined()
            let k = rng.int(0...10)
            #expect(CSVParser.sampleByteCount(&text, characters: k) == text.prefix(k).utf8.count, "\(text.debugDescription) \(k)")
        }
        for _ in 0..<12 {
            // Whole rows up to just before the 65,536th Character, then random pieces across it.
            var text = "", characters = 0
            while characters < 64 * 1024 - 15 {
                let row = rng.pick(["a;b;\"c,d\"\r\n", "1,2,3\n", "x|y|z\n", "p\tq\n"])
                text += row; characters += row.count
            }
            text += (0..<30).map { _ in rng.pick(["\r", "\n", "\u{301}", "中", ",", ";", "\"", "a", "|"]) }.joined()
            text += (0..<200).map { _ in rng.pick(["1,2,3\n", "a;b\n", "\""]) }.joined()
            #expect(CSVParser.detectDelimiter(text) == ReferenceCSVParser.detectDelimiter(text))
        }
    }
}
