import ArgumentParser
import Foundation
import MoneyFlowCore
import MoneyFlowPipeline

extension ExportFormat: ExpressibleByArgument {}

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Export transactions as a beancount or hledger/ledger journal, CSV or JSON.",
        discussion: """
            beancount and ledger journals open each account at its first
            exported transaction, post each transaction against
            Expenses:/Income:/Equity:Uncategorized, keep the moneyflow and
            record ids as metadata, and turn statement running balances into
            balance assertions that bean-check / hledger check verify;
            a credit card with imported bills opens at its first bill's
            上期账单金额 and asserts each bill's 本期还款总额 (whole-account
            exports, without --from/--to).
            Accounts are named by `accounts rename --ledger-name`, else
            Assets:<Bank>:<last 4 digits> (Liabilities: for cards).
            csv and json are the `transactions` formats.

            Examples:
              moneyflow export --format beancount --output ledger.beancount
              moneyflow export --format ledger --account "CMB 8705" --from 2026-01-01
              moneyflow export --format csv --to 2026-03-31 --output q1.csv --force
            """)
    @OptionGroup var storeOptions: StoreOptions
    @Option(help: "beancount, ledger (hledger journal), csv or json.") var format: ExportFormat
    @Option(help: "Only this account (name).") var account: String?
    @Option(help: "First date, YYYY-MM-DD.") var from: String?
    @Option(help: "Last date, YYYY-MM-DD.") var to: String?
    @Option(help: ArgumentHelp("Write to this file instead of standard output.", valueName: "file")) var output: String?
    @Flag(help: "Overwrite --output if it exists.") var force = false
    @Option(
        name: .customLong("operating-currency"),
        help: ArgumentHelp("beancount: add option \"operating_currency\" (repeatable).", valueName: "CUR"))
    var operatingCurrencies: [String] = []

    mutating func validate() throws {
        if force && output == nil { throw ValidationError("--force only applies with --output") }
        if !operatingCurrencies.isEmpty && format != .beancount {
            throw ValidationError("--operating-currency only applies to --format beancount")
        }
        for c in operatingCurrencies where !LedgerExport.isCurrencyCode(c) {
            throw ValidationError("--operating-currency must be a currency code such as USD")
        }
        if let f = try parseDate(from, "--from"), let t = try parseDate(to, "--to"), f > t {
            throw ValidationError("--from is after --to")
        }
    }

    func run() throws {
        if let output, !force, FileManager.default.fileExists(atPath: output) {
            throw CLIError("\(output) already exists (use --force to overwrite)")
        }
        let store = try storeOptions.openForReading()
        try requireAccount(account, in: store)
        let (first, last) = (try parseDate(from, "--from"), try parseDate(to, "--to"))
        guard let output else {
            // Streamed (CSV and JSON row by row: constant memory on large stores).
            let out = ChunkedOutput()
            try LedgerExport.write(
                format, store: store, account: account, from: first, through: last, operatingCurrencies: operatingCurrencies, to: out.write)
            out.flush()
            return
        }
        var text = ""
        let count = try LedgerExport.write(
            format, store: store, account: account, from: first, through: last, operatingCurrencies: operatingCurrencies) { text += $0 }
        let folder = (output as NSString).deletingLastPathComponent
        if !folder.isEmpty && !FileManager.default.fileExists(atPath: folder) {
            throw CLIError("cannot write \(output): folder \(folder) does not exist")
        }
        try PrivateFile.write(Data(text.utf8), to: output, overwrite: force)
        printErr(SafeText.escaped("exported \(count) transaction\(count == 1 ? "" : "s") to \(output)"))
    }
}
