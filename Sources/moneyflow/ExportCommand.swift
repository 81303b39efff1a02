import ArgumentParser
import Foundation
import MoneyFlowCore
import MoneyFlowPipeline

enum ExportFormat: String, ExpressibleByArgument, CaseIterable { case beancount, ledger, csv, json }

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
        for c in operatingCurrencies where c.isEmpty || !c.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) {
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
        if output == nil && (format == .csv || format == .json) {
            // Streamed like `transactions` (constant memory on large stores).
            try ChunkedOutput().streamTransactions(
                store, json: format == .json, includeAll: false, account: account,
                from: try parseDate(from, "--from"), through: try parseDate(to, "--to"), csvEnd: "\r\n")
            return
        }
        let accounts = try store.accounts()
        let txs = try store.transactions(account: account, from: try parseDate(from, "--from"), through: try parseDate(to, "--to"))
        // Bills are checked on whole accounts only: a date range may cut a bill's rows.
        let bills = from == nil && to == nil ? StatementBill.bills(from: try store.batches(), accounts: accounts) : []
        let text: String
        switch format {
        case .beancount:
            text = BeancountExporter.export(accounts: accounts, transactions: txs, operatingCurrencies: operatingCurrencies, bills: bills)
        case .ledger: text = LedgerExporter.export(accounts: accounts, transactions: txs, bills: bills)
        case .csv: text = CSVExport.transactions(txs) + "\r\n"
        case .json: text = Contracts.transactions(txs).render(pretty: true) + "\n"
        }
        guard let output else {
            FileHandle.standardOutput.write(Data(text.utf8))
            return
        }
        let folder = (output as NSString).deletingLastPathComponent
        if !folder.isEmpty && !FileManager.default.fileExists(atPath: folder) {
            throw CLIError("cannot write \(output): folder \(folder) does not exist")
        }
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: output), options: force ? [.atomic] : [.withoutOverwriting])
        } catch {
            if !force && FileManager.default.fileExists(atPath: output) {
                throw CLIError("\(output) already exists (use --force to overwrite)")
            }
            throw CLIError("cannot write \(output): \((error as NSError).localizedDescription)")
        }
        printErr(SafeText.escaped("exported \(txs.count) transaction\(txs.count == 1 ? "" : "s") to \(output)"))
    }
}
