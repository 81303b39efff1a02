import MoneyFlowCore
import Testing

@testable import MoneyFlowImporters

/// The cell readers of the CMB reconstruction read bytes; what they accept is pinned here against
/// the same checks spelled over Characters (the way they were first written).
@Suite struct CMBCellParsingTests {
    /// The Character spelling of ``CMBWork/looksLikeAmount(_:)``.
    static func looksLikeAmountByCharacters(_ text: String) -> Bool {
        var s = Substring(text)
        if s.first == "-" || s.first == "+" { s = s.dropFirst() }
        guard let f = s.first, f.isASCII, f.isNumber else { return false }
        var dot = false
        for ch in s {
            if ch == "." { if dot { return false }; dot = true; continue }
            if ch == "," { if dot { return false }; continue }
            guard ch.isASCII, ch.isNumber else { return false }
        }
        return true
    }

    @Test func amountShapeAsReadByCharacters() {
        let texts = [
            "1,234.56", "-1,234.56", "+5", "5", "", "-", "+", "-+5", "--5", "1.2.3", "1.2,3", "1,,2", ",5", ".5", "5.",
            "1\u{0301}", "-\u{0301}5", "\r\n5", "5\r\n", "１23", "12a", "1 234", "¥12", "12-", "٣", "0.00",
        ]
        for t in texts { #expect(CMBWork.looksLikeAmount(t) == Self.looksLikeAmountByCharacters(t), "\(t.debugDescription)") }
    }

    @Test func datesAreTenASCIICharacters() {
        func date(_ s: String) -> LocalDate? { CMBWork.parseDate(Array(s.unicodeScalars)) }
        #expect(date("2024-01-31") == LocalDate(year: 2024, month: 1, day: 31))
        #expect(date("2024/01/31") == LocalDate(year: 2024, month: 1, day: 31))
        #expect(date("2024.01.31") == LocalDate(year: 2024, month: 1, day: 31))
        for s in ["2024-01/31", "2024-02-30", "2024-1-31", "2024-01-311", "２024-01-31", "2024－01-31", "2024-01-3\u{0301}", "2024:01:31"] {
            #expect(date(s) == nil, "\(s)")
        }
    }
}
