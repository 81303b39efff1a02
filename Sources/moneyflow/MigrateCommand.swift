import ArgumentParser
import Crypto
import Foundation
import MoneyFlowPipeline
import MoneyFlowPostgres
import MoneyFlowStore

/// `moneyflow migrate --from A --to B`: copies a whole ledger between stores (a SQLite file and
/// a PostgreSQL ledger, either way), then proves the copy by comparing both ledgers'
/// `transactions --all --format json`.
struct MigrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Copy a whole ledger to another store (SQLite file <-> PostgreSQL) and verify the copy.",
        discussion: """
            Everything is copied with its ids: accounts, imports and their undo history, records, links,
            review decisions, user edits, Plaid items (tokens stay sealed: keep the key file) and cursors.
            The destination must be new or empty; the source is only read. The copy is one transaction
            and is verified by comparing `transactions --all --format json` of both ledgers.
            Examples:
              moneyflow migrate --from ledger.sqlite --to 'postgres://me@db.example:5432/money?ledger=home'
              moneyflow migrate --from 'postgres://me@db.example/money?ledger=home' --to backup.sqlite
            """)
    @Option(help: ArgumentHelp("The ledger to copy (a SQLite file or a postgres:// URL).", valueName: "path|url")) var from: String
    @Option(help: ArgumentHelp("The new ledger (a SQLite file or a postgres:// URL).", valueName: "path|url")) var to: String
    @Flag(help: "Print the result as JSON.") var json = false

    func run() throws {
        if StoreOpener.displayName(from) == StoreOpener.displayName(to) { throw CLIError("--from and --to name the same ledger") }
        let source = try StoreOpener.open(from, access: .readOnly)
        let destination = try StoreOpener.open(to, waitNotice: StoreOptions.waitNotice)
        let counts = try destination.copyLedger(from: source)
        let (sourceDigest, transactions) = try Self.listingDigest(source)
        let (copyDigest, _) = try Self.listingDigest(destination)
        guard sourceDigest == copyDigest else {
            throw CLIError(
                "the copy in \(destination.path) differs from \(source.path) (transactions --all --format json); the copy is kept for inspection: compare both listings, and report this"
            )
        }
        if json {
            let rows = counts.keys.sorted().map { ($0, JSONOutput.int(counts[$0]!)) }
            let report: JSONOutput = .object([
                ("from", .string(source.path)), ("to", .string(destination.path)), ("transactions", .int(transactions)),
                ("rows", .object(rows)), ("verified", .bool(true)), ("sha256", .string(copyDigest)),
            ])
            printOut(report.render(pretty: true))
        } else {
            let rows = counts.values.reduce(0, +)
            printOut(
                "copied \(transactions) transactions (\(rows) rows in \(counts.count) tables) from \(source.path) to \(destination.path); transactions --all --format json of both are identical (sha256 \(copyDigest.prefix(16))…)"
            )
        }
    }

    /// SHA-256 of the ledger's `transactions --all --format json`, and the number of transactions.
    static func listingDigest(_ store: LedgerStore) throws -> (String, Int) {
        var hash = SHA256()
        let out = ChunkedOutput { hash.update(data: $0) }
        let n = try out.streamTransactions(store, json: true, includeAll: true, account: nil, from: nil, through: nil, csvEnd: "\n")
        return (hash.finalize().map { String(format: "%02x", $0) }.joined(), n)
    }
}
