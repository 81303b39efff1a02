import Foundation
import MoneyFlowCore
import Testing

@testable import MoneyFlowImporters

@Suite struct CSVParserTests {
    @Test func quotesEmbeddedNewlinesAndCRLF() throws {
        let text = "a,b,c\r\n\"x, y\",\"he said \"\"hi\"\"\",\"two\nlines\"\r\n1,2,3\r\n"
        let rows = try CSVParser.parse(text, delimiter: UInt8(ascii: ","))
        #expect(rows.count == 3)
        #expect(rows[1].fields == ["x, y", "he said \"hi\"", "two\nlines"])
        #expect(rows[1].line == 2)
        #expect(rows[2].line == 4) // the quoted newline advanced the physical line
        #expect(rows[2].fields == ["1", "2", "3"])
    }

    @Test func unterminatedQuoteNamesTheLineWhereItOpened() {
        #expect { try CSVParser.parse("a,b\n1,\"open\n2,3\n", delimiter: UInt8(ascii: ",")) } throws: { e in
            (e as? CSVParseError)?.line == 2
        }
    }

    /// The source keeps only its first rows; the whole file is scanned once while records are
    /// built, and a broken quote or a NUL past the head is reported, naming its line, even when
    /// an earlier row has an error of its own (or no profile fits the header): the file is broken.
    @Test func brokenTextPastTheHeadIsReportedBeforeRowErrors() throws {
        var text = chaseHeader
        for i in 0..<2_000 { text += "DEBIT,01/02/2024,\"Shop \(i)\",-1.00,DEBIT_CARD,,,\r\n" }
        let source = try CSVSource(Data(text.utf8), file: "t.csv", forcedEncoding: nil, delimiter: nil)
        #expect(source.head.count == CSVSource.headRowCount)
        #expect(source.head.last?.fields.prefix(3) == ["DEBIT", "01/02/2024", "Shop \(CSVSource.headRowCount - 2)"])
        let badAmount = text.replacingOccurrences(of: "\"Shop 5\",-1.00", with: "\"Shop 5\",-1.0x")
        #expect(csvError(badAmount)?.locator?.line == 7)
        for (tail, line) in [
            ("DEBIT,01/03/2024,\"open\r\nDEBIT,01/03/2024,1\r\n", 2_002), ("DEBIT,01/03/2024,x,-1.00\r\nDEBIT,\u{0}\r\n", 2_003),
        ] {
            #expect(csvError(text + tail)?.locator?.line == line)
            #expect(csvError(badAmount + tail)?.locator?.line == line)
            let unknownHeader = "When,What,How much\r\n" + text.dropFirst(chaseHeader.count) + tail
            #expect(csvError(unknownHeader)?.locator?.line == line)
        }
    }

    @Test func detectsDelimiters() {
        #expect(CSVParser.detectDelimiter("a;b;c\n1;2;3\n4;\"5,5\";6\n") == UInt8(ascii: ";"))
        #expect(CSVParser.detectDelimiter("a\tb\tc\n1\t2\t3\n") == 0x09)
        #expect(CSVParser.detectDelimiter("a,b,c\n1,2,3\n") == UInt8(ascii: ","))
    }

    @Test func decodesEncodings() throws {
        let text = "日期,摘要\n20260101,工资\n"
        let gb = text.data(using: TextEncodingName.gb18030Foundation)!
        #expect(try TextDecoder.decode(gb) == (text, .gb18030))
        #expect(try TextDecoder.decode(Data([0xEF, 0xBB, 0xBF]) + Data(text.utf8)).0 == text)
        var utf16 = Data([0xFF, 0xFE])
        for u in text.utf16 { utf16.append(UInt8(u & 0xFF)); utf16.append(UInt8(u >> 8)) }
        #expect(try TextDecoder.decode(utf16) == (text, .utf16LE))
    }

    @Test func invalidUTF8AfterBOMNamesTheLine() {
        let bytes = Data([0xEF, 0xBB, 0xBF]) + Data("a,b\n1,2\n".utf8) + Data([0x43, 0xE9, 0x2C, 0x31, 0x0A])
        #expect { try TextDecoder.decode(bytes) } throws: { e in (e as? TextDecodingError)?.line == 3 }
    }
}
