import Foundation
import MoneyFlowImporters
import Testing

/// The built-in CSV profiles are read when a file is sniffed as CSV, not when the importer is
/// made: every command builds the importer registry, and a CMB ZIP or PDF never needs them.
@Suite struct CSVLazyProfilesTests {
    /// Counts how often the importer asks for its built-in profiles.
    final class Reads: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        var value: Int { lock.withLock { count } }
        func profiles() -> [CSVProfile] {
            lock.withLock { count += 1 }
            return BuiltInCSVProfiles.all
        }
    }

    @Test func profilesAreReadOnlyWhenACSVIsSniffed() {
        let reads = Reads()
        let importer = CSVImporter(builtInProfiles: reads.profiles())
        #expect(reads.value == 0)

        let zip = ImportInput(fileName: "statement.zip", data: Data([0x50, 0x4B, 0x03, 0x04] + [UInt8](repeating: 0, count: 60)))
        #expect(importer.sniff(zip, options: ImportOptions()) == 0)
        #expect(reads.value == 0)

        let csv = ImportInput(
            fileName: "chase.csv",
            data: Data(
                """
                Transaction Date,Post Date,Description,Category,Type,Amount,Memo
                02/23/2026,02/23/2026,DOORDASH*THAI TOM,Food & Drink,Sale,-24.19,

                """.utf8))
        #expect(importer.sniff(csv, options: ImportOptions()) > 0.5)
        #expect(reads.value >= 1)
    }
}
