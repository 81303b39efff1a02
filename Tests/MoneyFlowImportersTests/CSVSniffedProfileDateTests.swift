import Foundation
import MoneyFlowCore
import Testing

@testable import MoneyFlowImporters

/// A built-in profile picked by its header alone (`Date,Description,Amount` is American
/// Express's header and many other banks') must not impose its date order on rows that say
/// otherwise, nor silently on rows that say nothing.
@Suite struct CSVSniffedProfileDateTests {
    @Test func dayFirstRowsUnderAMonthFirstProfileAreRefusedNamingTheLine() throws {
        do {
            _ = try readFixture("generic_header_day_first.csv")
            Issue.record("a day-first file was read with the amex profile's month-first dates")
        } catch let e as ImportError {
            #expect(e.locator?.line == 4)
            #expect(e.description.contains("25/03/2024") && e.description.contains("amex") && e.description.contains("date_format"), "\(e)")
        }
    }

    @Test func undecidedRowsUnderAGenericHeaderWarn() throws {
        let s = try readFixture("generic_header_undecided.csv")
        #expect(s.warnings.count == 1)
        #expect(s.warnings.first?.message.contains("MM/DD/YYYY") == true, "\(s.warnings)")
    }

    @Test func aDistinctiveHeaderOrAProvingFileNeedsNoWarning() throws {
        // Chase's header is its own; the Amex sample has days above 12.
        for name in ["chase_checking.csv", "amex.csv"] {
            let data = try Data(contentsOf: repoRoot.appendingPathComponent("Samples/csv/\(name)"))
            let s = try CSVImporter().read(ImportInput(fileName: name, data: data), options: ImportOptions())
            #expect(!s.warnings.contains { $0.message.contains("day or the month") }, "\(name)")
        }
        let chaseEarly =
            chaseHeader + "DEBIT,03/02/2026,\"B\",-6.00,DEBIT_CARD,994.00,,\r\nDEBIT,03/01/2026,\"A\",-5.00,DEBIT_CARD,1000.00,,\r\n"
        let s = try CSVImporter().read(ImportInput(fileName: "c.csv", data: Data(chaseEarly.utf8)), options: ImportOptions())
        #expect(s.warnings.isEmpty, "\(s.warnings)")
    }

    @Test func aProfileTheUserNamedIsTrusted() throws {
        let amex = try #require(BuiltInCSVProfiles.named("amex").first)
        let s = try readFixture("generic_header_undecided.csv", profiles: [amex])
        #expect(s.warnings.isEmpty)
    }
}
