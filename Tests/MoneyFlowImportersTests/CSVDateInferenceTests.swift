import MoneyFlowCore
import MoneyFlowTestSupport
import Testing

@testable import MoneyFlowImporters

/// The file-level date format inference (the assertions the removed `LocalDate.detectFormat`
/// carried, now on the one implementation the importer uses).
@Suite struct CSVDateInferenceTests {
    func format(_ texts: [String]) throws -> LocalDate.Format {
        let cells = texts.enumerated().map { CSVDateInference.Cell(line: $0.offset + 2, text: $0.element) }
        return try CSVDateInference.format(for: cells, file: "t.csv", column: "Date")
    }

    @Test func aProvingRowDecidesTheOrder() throws {
        #expect(try format(["13.01.2026", "02.02.2026"]) == .dayMonthYear)
        #expect(try format(["01/13/2026", "02/02/2026"]) == .monthDayYear)
        #expect(try format(["20260113"]) == .compact)
    }

    @Test func unprovenDayMonthOrderIsAnError() {
        #expect(throws: ImportError.self) { try format(["01/02/2026", "02/03/2026"]) }
    }
}

/// The byte-level reading of a date cell's shape must answer exactly as the Character-level one.
@Suite struct CSVDateShapeFastPathTests {
    @Test func asciiShapeAgreesWithTheCharacterReading() {
        let pieces = ["", " ", "\t", "1", "01", "12", "13", "2024", "24", "99999", "/", "-", ".", "T", "x", "20240131", "\r\n", "星"]
        var rng = SplitMix64(scenarioSeed: 31)
        var shaped = 0
        for _ in 0..<20_000 {
            let text = (0..<rng.int(1...7)).map { _ in pieces[rng.int(0...pieces.count - 1)] }.joined()
            let fast = CSVDateInference.shape(text)
            #expect(fast == CSVDateInference.characterShape(CSVImporter.clean(text)), "\(text.debugDescription)")
            if fast != nil { shaped += 1 }
        }
        #expect(shaped > 100)
    }
}
