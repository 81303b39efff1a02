import Foundation
import Testing

@testable import MoneyFlowStore

/// The undo log's hand-written text of a row gives back every value exactly.
@Suite struct RowImageTests {
    @Test func everyKindOfValueComesBackExactly() throws {
        let cells: [RowImage.Cell] = [
            .null, .integer(Int64.max), .integer(Int64.min), .integer(0), .integer(9_007_199_254_740_993), .real(0.1), .real(-1e-5),
            .real(0.8333333333333334), .text(""), .text("quote \" backslash \\ tab \t newline \n NUL \u{0}"),
            .text("招商银行 \u{2028} 😀"), .text("12"), .blob(Data([0, 255, 1])),
        ]
        let columns = cells.indices.map { "c\($0)" }
        let image = RowImage.Image(columns: columns, values: cells)
        let back = try RowImage.Image(logText: image.logText)
        #expect(back.columns == columns)
        #expect(back.values == cells)
        let key = RowImage.Key(table: "odd \"table\"", columns: ["a", "b"], values: [.integer(-3), .text("x")])
        #expect(try RowImage.Key(logText: key.logText) == key)
        #expect(throws: StoreError.self) { try RowImage.Image(logText: #"{"columns":["a"],"values":[true, 1]}"#) }
    }
}
