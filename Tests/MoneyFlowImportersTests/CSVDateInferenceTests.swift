import MoneyFlowCore
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
