import Foundation
import MoneyFlowCore
import Testing

@testable import MoneyFlowImporters

/// A UTF-8 bank file is read from its own bytes (no String copy of the file) and its records'
/// raw JSON is written straight into each String's storage: both give what the decoded text
/// gave, row for row and byte for byte.
@Suite struct CSVInPlaceReadTests {
    /// Quoted fields, doubled quotes, embedded newlines, CRLF / LF / CR line ends, a byte-order
    /// mark, trailing empty lines, other delimiters, non-ASCII text.
    static let texts = [
        chaseHeader + "DEBIT,01/02/2024,\"Shop, \"\"big\"\"\",-1.00,DEBIT_CARD,,,\r\nCREDIT,01/03/2024,\"two\r\nlines\",2.00,ACH,,,\r\n",
        "\u{FEFF}a,b,c\n1,\"two\nlines\",3\n\n\n",
        "a;b;c\r\n\"x;y\";2;3\r\n\r\n",
        "a\tb\n1\t\"q\"\"\"\n",
        "a,b\r1,2\r\r",
        "日期,摘要\n20260101,\"工资\n奖金\"\n\n",
        "Date,Amount,Name\n\"2024-01-02\" ,  \"5.00\"  ,x\n",
    ]

    @Test func rowsReadFromTheFilesBytesAreThoseOfItsDecodedText() throws {
        for text in Self.texts {
            for data in [Data(text.utf8), Data([0xEF, 0xBB, 0xBF]) + Data(text.utf8)] {
                let decoded = try TextDecoder.decode(data).0
                let delimiter = CSVParser.detectDelimiter(decoded)
                let expected = try CSVParser.parse(decoded, delimiter: delimiter)
                var source = try CSVSource(data, file: "t.csv", forcedEncoding: nil, delimiter: nil)
                #expect(source.delimiter == delimiter, "\(text.debugDescription)")
                #expect(source.head == Array(expected.prefix(source.head.count)), "\(text.debugDescription)")
                var rows: [CSVRow] = []
                try source.forEachCells { rows.append($0.row) }
                #expect(rows == expected, "\(text.debugDescription)")
            }
        }
    }

    /// Each record's raw JSON is ``JSONText/object(_:)`` of the header's cleaned names and the
    /// row's cleaned cells (a repeated name keeps its first cell), whether its cells are copied as
    /// they are or escaped.
    @Test func rawJSONIsTheObjectOfTheCleanedCells() throws {
        let cells = [
            "\"Shop, \"\"big\"\"\"", "back\\slash", "\"tab\there\"", "  padded  ", "naïve café 日本", "\"two\r\nlines\"", "plain",
            "\"\u{2028}sep\"", "", "#5",
        ]
        var text = chaseHeader
        for (i, cell) in cells.enumerated() {
            text += "DEBIT,01/0\(i % 9 + 1)/2024,\(cell),-\(i).25,DEBIT_CARD,,\(cell),\r\n"
        }
        for data in [Data(text.utf8), Data([0xEF, 0xBB, 0xBF]) + Data(text.utf8)] {
            let statement = try CSVImporter().read(ImportInput(fileName: "t.csv", data: data), options: ImportOptions())
            let rows = try CSVParser.parse(text, delimiter: UInt8(ascii: ","))
            let names = rows[0].fields.map(CSVImporter.clean)
            #expect(statement.records.count == cells.count)
            for (record, row) in zip(statement.records, rows.dropFirst()) {
                var object: [String: String] = [:]
                for (i, cell) in row.fields.enumerated() where object[i < names.count ? names[i] : "column\(i + 1)"] == nil {
                    object[i < names.count ? names[i] : "column\(i + 1)"] = CSVImporter.clean(cell)
                }
                #expect(record.raw == JSONText.object(object), "\(row.fields)")
            }
        }
    }
}
