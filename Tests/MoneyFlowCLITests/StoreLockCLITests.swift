import Foundation
import GRDB
import MoneyFlowTestSupport
import Testing

/// A `moneyflow import` that finds the store locked by another writer says on stderr that it
/// waits, and finishes once the lock is released. Driven by the message, not by a clock.
@Suite struct StoreLockCLITests {
    @Test func aWriterWaitingForTheLockSaysSo() throws {
        let store = try CLI.tempStore()
        #expect(try CLI.run(["import", "Samples/csv/chase_card.csv"], store: store).status == 0)
        var config = Configuration()
        config.allowsUnsafeTransactions = true
        let blocker = try DatabaseQueue(path: store, configuration: config)
        try blocker.inDatabase { db in try db.execute(sql: "BEGIN IMMEDIATE") }
        let child = try MoneyFlowBinary.spawn(["import", "Samples/csv/chase_checking.csv", "--store", store])
        // Watch stderr until the notice arrives (or the process ends, or a minute passes).
        let notice = "waiting for another moneyflow process to finish writing \(store)…"
        let deadline = Date().addingTimeInterval(60)
        while !child.stderrSoFar().contains(notice) && !child.hasExited && Date() < deadline { usleep(10_000) }
        try blocker.inDatabase { db in try db.execute(sql: "COMMIT") }
        let r = try child.wait()
        let text = r.stderr
        #expect(text.components(separatedBy: notice).count == 2, "said once: \(text)")
        #expect(r.status == 0, "\(text)")
    }
}
