import ArgumentParser
import Foundation
import MoneyFlowCore
import MoneyFlowPipeline

struct ReconcileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reconcile", abstract: "Show per account what two sources confirm, what one side lacks, and balance breaks.",
        discussion: "Examples:\n  moneyflow reconcile\n  moneyflow reconcile --account \"CMB 8705\" --format json")
    @OptionGroup var storeOptions: StoreOptions
    @Option(help: "Only this account (name).") var account: String?
    @Option(help: "table or json.") var format: ListFormat = .table

    func run() throws {
        let store = try storeOptions.openForReading()
        try requireAccount(account, in: store)
        let report = try ReconciliationReport.build(store: store, account: account)
        switch format {
        case .json: printOut(report.json.render(pretty: true))
        case .table: printOut(report.table)
        }
    }
}

struct ReviewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "review", abstract: "List records the engine would not decide alone, with their candidates side by side.",
        discussion: """
            Decide with `moneyflow link RECORD TRANSACTION` or `moneyflow unlink RECORD`.
            Examples:
              moneyflow review
              moneyflow review --format json
              moneyflow link 42 17        # record 42 is the same movement as transaction 17
              moneyflow unlink 42         # record 42 is a movement of its own
            """)
    @OptionGroup var storeOptions: StoreOptions
    @Option(help: "table or json.") var format: ListFormat = .table
    @OptionGroup var wideOption: WideOption

    func run() throws {
        let store = try storeOptions.openForReading()
        let reviews = try store.pendingReviews()
        let txs = Dictionary(uniqueKeysWithValues: try store.transactions(includeAll: true).map { ($0.id, $0) })
        switch format {
        case .json:
            printOut(Contracts.review(reviews).render(pretty: true))
        case .table:
            // Transfer pairs wait in `transfers` (the JSON above stays the records' contract).
            let transfers = try store.transfers().review.count
            let transferHint =
                "\(transfers) possible transfer\(transfers == 1 ? "" : "s") between your accounts wait\(transfers == 1 ? "s" : ""): see `moneyflow transfers`"
            if reviews.isEmpty {
                printOut(transfers == 0 ? "nothing to review" : "no record to review; " + transferHint)
                return
            }
            defer { if transfers > 0 { printOut(transferHint) } }
            for r in reviews {
                printOut(
                    SafeText.escaped(
                        "record \(r.recordID) (\(r.record.kind.rawValue), \(r.account)): \(r.record.date.iso)  \(r.record.amount.decimalString) \(r.record.amount.currency)  \(r.record.description)"
                    ))
                var t = TextTable(["candidate", "date", "amount", "description", "sources", "score", "reasons"])
                for c in r.candidates {
                    guard let id = c.transactionID, let tx = txs[id] else { continue }
                    t.add([
                        "transaction \(id)", tx.date.iso, tx.amount.decimalString,
                        wideOption.cells(tx.description + (tx.counterparty.map { " / " + $0 } ?? ""), 36),
                        tx.sources.map(\.kind.rawValue).joined(separator: ","), String(format: "%.2f", c.score),
                        c.reasons.map(\.description).joined(separator: "; "),
                    ])
                }
                printOut(t.render())
                printOut("  -> moneyflow link \(r.recordID) <transaction>   or   moneyflow unlink \(r.recordID)\n")
            }
        }
    }
}

struct LinkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "link", abstract: "Link a record to a transaction (your decision is remembered across imports).",
        discussion: """
            Examples:
              moneyflow link 42 17                # record 42 is the same movement as transaction 17
              moneyflow link --transfer 120 341   # transactions 120 and 341 are one transfer between your accounts
            """)
    @OptionGroup var storeOptions: StoreOptions
    @Flag(help: "Both ids are transactions: the two legs (money out, money in) of one transfer between your own accounts.")
    var transfer = false
    @Argument(help: "Record id (see `transactions --format json` sources or `review`); with --transfer, a transaction id.")
    var record: Int64
    @Argument(help: "Transaction id.") var transaction: Int64
    func run() throws {
        if transfer {
            try storeOptions.openExisting().linkTransfer(record, transaction)
            printOut("transactions \(record) and \(transaction) are one transfer")
            return
        }
        try storeOptions.openExisting().userLink(recordID: record, transactionID: transaction)
        printOut("record \(record) linked to transaction \(transaction)")
    }
}

struct UnlinkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unlink", abstract: "Detach a record into its own transaction (remembered across imports).",
        discussion: """
            Examples:
              moneyflow unlink 42                 # record 42 is a movement of its own
              moneyflow unlink --transfer 120     # transaction 120 and its other leg are not a transfer
            """)
    @OptionGroup var storeOptions: StoreOptions
    @Flag(help: "The id is a transaction: it and the other leg of its transfer are not one transfer (never paired again).")
    var transfer = false
    @Argument(help: "Record id; with --transfer, a transaction id.") var record: Int64
    func run() throws {
        if transfer {
            let other = try storeOptions.openExisting().unlinkTransfer(record)
            printOut("transactions \(record) and \(other) are no longer a transfer (remembered)")
            return
        }
        let u = try storeOptions.openExisting().unlink(recordID: record)
        printOut(
            u.alreadyAlone
                ? "record \(record) is already alone in transaction \(u.transactionID) (unchanged)"
                : "record \(record) is now transaction \(u.transactionID)")
    }
}

struct EditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit", abstract: "Set your own description, counterparty or note on a transaction.",
        discussion: """
            Your edits win over every source and survive later imports (Plaid modifications, new
            statements). An empty value removes your edit.
            Example: moneyflow edit 17 --note "dinner with Ana"
            """)
    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "Transaction id.") var transaction: Int64
    @Option(help: "Description to show instead of the bank's.") var description: String?
    @Option(help: "Counterparty to show.") var counterparty: String?
    @Option(help: "Your note.") var note: String?
    func validate() throws {
        if description == nil && counterparty == nil && note == nil {
            throw ValidationError("give --description, --counterparty or --note")
        }
    }
    func run() throws {
        try storeOptions.openExisting().editTransaction(transaction, description: description, counterparty: counterparty, note: note)
        printOut("transaction \(transaction) updated")
    }
}
