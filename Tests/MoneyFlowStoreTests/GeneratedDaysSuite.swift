import MoneyFlowCore
import MoneyFlowPipeline
import Testing

@testable import MoneyFlowStore

/// The suites that import days of ``GeneratedStatements``' account 0 and find a day's
/// transaction (edit and category-decision survival) share these two steps.
protocol GeneratedDaysSuite {}

extension GeneratedDaysSuite {
    func importDays(_ store: LedgerStore, _ days: Range<Int>, name: String) throws -> FileImportResult {
        try ImportService(store: store).apply(
            GeneratedStatements.statement(account: 0, days: days), fileName: name, sha256: name, options: FileImportOptions())
    }

    func transaction(_ store: LedgerStore, day: Int) throws -> LedgerTransaction {
        let date = GeneratedStatements.start.adding(days: day)
        return try #require(try store.transactions().first { $0.sources.contains { $0.date == date } })
    }
}
