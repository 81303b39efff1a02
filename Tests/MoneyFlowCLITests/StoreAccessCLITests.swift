import Foundation
import GRDB
import MoneyFlowStore
import MoneyFlowTestSupport
import Testing

/// Reading commands on stores that cannot or must not be written, through the real binary.
@Suite struct StoreAccessCLITests {
    static let readingCommands: [[String]] = [
        ["transactions", "--format", "json"], ["accounts"], ["export", "--format", "beancount"], ["reconcile"],
        ["review"], ["batches"], ["import", "--dry-run", "Samples/csv/chase_checking.csv"],
    ]

    @Test func readingCommandsOnAMissingStoreNameItAndCreateNothing() throws {
        let store = try CLI.tempStore()
        for args in Self.readingCommands where args[0] != "import" {
            let r = try CLI.run(args, store: store)
            #expect(r.status == 1, "\(args)")
            #expect(r.stderr.contains("no store at \(store)"), "\(args): \(r.stderr)")
            #expect(r.stderr.contains("moneyflow import") && r.stderr.contains("demo.sqlite"))
            #expect(!FileManager.default.fileExists(atPath: store), "\(args) created the store")
        }
        // Commands that change existing data need it too.
        for args in [
            ["undo", "1"], ["link", "1", "2"], ["unlink", "1"], ["edit", "1", "--note", "x"], ["accounts", "rename", "A", "B"],
        ] {
            let r = try CLI.run(args, store: store)
            #expect(r.status == 1 && r.stderr.contains("no store at \(store)"), "\(args): \(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: store), "\(args) created the store")
        }
        // A dry run plans against an empty ledger and still creates nothing.
        let dry = try CLI.run(["import", "--dry-run", "Samples/csv/chase_checking.csv"], store: store)
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(!FileManager.default.fileExists(atPath: store))
    }

    /// A store whose file is 0444 (in a 0555 folder, or a writable one). Permission bits do not stop root, so as
    /// root the commands run as `nobody` (setpriv); without setpriv that variant cannot be
    /// made and is skipped with a message.
    /// `closed`: the store was last closed cleanly (no -wal/-shm files: SQLite cannot build its
    /// WAL index in the read-only folder and the store is read `immutable`); otherwise the
    /// -wal/-shm files a finished command leaves are there and are read as they are.
    /// `folderReadOnly` false: only the file is 0444, its folder stays writable.
    @Test(arguments: [false, true], [true, false])
    func aReadOnlyStoreCanBeRead(closed: Bool, folderReadOnly: Bool) throws {
        let store = try CLI.tempStore()
        let imp = try CLI.run(["import", "Samples/csv/chase_checking.csv"], store: store)
        #expect(imp.status == 0, "\(imp.stderr)")
        let expected = try CLI.run(["transactions", "--format", "json"], store: store).stdout
        let dir = (store as NSString).deletingLastPathComponent
        let fm = FileManager.default
        if closed {
            // The last connection to close checkpoints the WAL and removes both files.
            do { _ = try LedgerStore(path: store).accounts() }
            #expect(try fm.contentsOfDirectory(atPath: dir) == ["store.sqlite"])
        }
        let listing = try fm.contentsOfDirectory(atPath: dir).sorted()
        try fm.setAttributes([.posixPermissions: 0o444], ofItemAtPath: store)
        if folderReadOnly { try fm.setAttributes([.posixPermissions: 0o555], ofItemAtPath: dir) }
        defer { try? fm.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir) }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: store))
        var runAs: [String] = []
        if getuid() == 0 {
            guard fm.isExecutableFile(atPath: "/usr/bin/setpriv") else {
                print("skipped: running as root and /usr/bin/setpriv is missing, so a read-only store cannot be made")
                return
            }
            runAs = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"]
        }
        for args in Self.readingCommands {
            let r = try Self.run(runAs, args + ["--store", store])
            #expect(r.status == 0, "\(args): \(r.stderr)")
            #expect(!r.stderr.contains("readonly"), "\(args): \(r.stderr)")
            if args[0] == "transactions" { #expect(r.stdout == expected) }
        }
        // Writing is refused with the store's own words, and nothing changed.
        let w = try Self.run(runAs, ["import", "Samples/csv/bofa_checking.csv", "--store", store])
        #expect(w.status == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == bytes)
        if folderReadOnly { #expect(try fm.contentsOfDirectory(atPath: dir).sorted() == listing) }
    }

    /// `--store` at another application's database, or at a store from a newer MoneyFlow:
    /// every command refuses it in one line and leaves the file byte for byte as it was.
    @Test func foreignAndNewerDatabasesAreRefusedByEveryCommand() throws {
        let dir = (try CLI.tempStore() as NSString).deletingLastPathComponent
        let notes = dir + "/notes.db"
        try DatabaseQueue(path: notes).write { db in try db.execute(sql: "CREATE TABLE note(id INTEGER PRIMARY KEY, body TEXT)") }
        let newer = dir + "/newer.sqlite"
        #expect(try CLI.run(["import", "Samples/csv/chase_card.csv"], store: newer).status == 0)
        try DatabaseQueue(path: newer).write { db in try db.execute(sql: "INSERT INTO grdb_migrations VALUES ('v99-future')") }
        for (path, words) in [(notes, "another application's SQLite database"), (newer, "written by a newer MoneyFlow")] {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            for args in [["transactions"], ["import", "Samples/csv/chase_checking.csv"], ["undo", "1"]] {
                let r = try CLI.run(args, store: path)
                #expect(r.status == 1, "\(args)")
                #expect(r.stderr.contains(words) && r.stderr.split(separator: "\n").count == 1, "\(args): \(r.stderr)")
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        }
    }

    /// A read-only store whose -wal file holds committed changes the store file does not have
    /// yet (left by a process that died) and no -shm: reading only the store file would show
    /// an older ledger, so it is refused with a message saying why.
    @Test func aReadOnlyStoreWithUnmergedChangesIsRefusedNotShownOld() throws {
        guard getuid() != 0 || FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
            print("skipped: running as root and /usr/bin/setpriv is missing, so a read-only store cannot be made")
            return
        }
        let store = try CLI.tempStore()
        #expect(try CLI.run(["import", "Samples/csv/chase_card.csv"], store: store).status == 0)
        let copyDir = FileManager.default.temporaryDirectory.appendingPathComponent("moneyflow-cli-wal-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: copyDir, withIntermediateDirectories: true)
        let copy = copyDir + "/store.sqlite"
        do {
            // A committed change still only in the WAL, copied as a crash would leave it.
            let writer = try DatabaseQueue(path: store)
            try writer.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
                try db.execute(sql: "UPDATE account SET name = 'Renamed in the WAL'")
            }
            try FileManager.default.copyItem(atPath: store, toPath: copy)
            try FileManager.default.copyItem(atPath: store + "-wal", toPath: copy + "-wal")
            try writer.close()
        }
        let walSize = try FileManager.default.attributesOfItem(atPath: copy + "-wal")[.size] as? Int ?? 0
        #expect(walSize > 0)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: copy)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: copyDir)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: copyDir) }
        let runAs = getuid() == 0 ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"] : []
        let r = try Self.run(runAs, ["accounts", "--store", copy])
        #expect(r.status == 1)
        #expect(r.stderr.contains("\(copy)-wal holds changes not yet written into the store file"), "\(r.stderr)")
        #expect(!r.stdout.contains("Chase Card"), "the older ledger is not shown")
    }

    static func run(_ prefix: [String], _ args: [String]) throws -> CLI.Result {
        try MoneyFlowBinary.run(args, wrapper: prefix)
    }
}
