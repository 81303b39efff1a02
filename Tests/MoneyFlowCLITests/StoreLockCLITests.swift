import Foundation
import GRDB
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
        let p = Process()
        p.executableURL = CLI.binary
        p.arguments = ["import", "Samples/csv/chase_checking.csv", "--store", store]
        p.currentDirectoryURL = CLI.repoRoot
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        p.standardInput = FileHandle.nullDevice
        try p.run()
        // Read stderr until the notice arrives (or the process ends, or a minute passes).
        var text = ""
        let notice = "waiting for another moneyflow process to finish writing \(store)…"
        let deadline = Date().addingTimeInterval(60)
        let handle = err.fileHandleForReading
        while !text.contains(notice) && p.isRunning && Date() < deadline {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        try blocker.inDatabase { db in try db.execute(sql: "COMMIT") }
        text += String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(text.components(separatedBy: notice).count == 2, "said once: \(text)")
        #expect(p.terminationStatus == 0, "\(text)")
    }
}
