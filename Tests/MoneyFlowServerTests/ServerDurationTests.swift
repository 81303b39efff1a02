import Foundation
import MoneyFlowServer
import Testing

/// `serve`'s duration options (`--plaid-timeout`, `--plaid-sync-every`): a number and a unit.
@Suite struct ServerDurationTests {
    @Test func readsNumberAndUnit() throws {
        #expect(try ServerDuration.parse("45s", option: "--x") == .seconds(45))
        #expect(try ServerDuration.parse("30m", option: "--x") == .seconds(1800))
        #expect(try ServerDuration.parse("6h", option: "--x") == .seconds(21_600))
        #expect(try ServerDuration.parse("1d", option: "--x") == .seconds(86_400))
        #expect(ServerDuration.text(.seconds(21_600)) == "6h" && ServerDuration.text(.seconds(90)) == "90s")
    }

    @Test func refusesWhatCouldBeMisread() {
        for bad in ["30", "6 h", "1.5h", "-1h", "0m", "h", "", "1w", "400d"] {
            #expect(throws: ServerConfigurationError.self, "\(bad)") { try ServerDuration.parse(bad, option: "--plaid-sync-every") }
        }
    }
}
