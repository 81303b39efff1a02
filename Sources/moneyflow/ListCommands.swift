import ArgumentParser
import Foundation
import MoneyFlowConfig
import MoneyFlowCore
import MoneyFlowImporters
import MoneyFlowPipeline

struct AccountsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accounts", abstract: "List accounts, rename them, or attach import identities to them.",
        discussion: """
            Examples:
              moneyflow accounts
              moneyflow accounts --format json
              moneyflow accounts rename "CMB 8705" "CMB Debit" --ledger-name Assets:CMB:8705
              moneyflow accounts link "CMB Debit" csv:cmb/8705
              moneyflow accounts pair "CMB 3906" "CMB Card 6612"
              moneyflow accounts merge "Chase Checking" "Chase 1234"
            """,
        subcommands: [List.self, Rename.self, Link.self, Pair.self, Merge.self], defaultSubcommand: List.self)

    struct Merge: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "merge", abstract: "Merge account FROM into account INTO (one bank account imported as two).",
            discussion: """
                The records of FROM move to INTO and reconcile there as an import with
                --account INTO would have done: rows both accounts hold become one transaction,
                the rest become transactions of INTO. FROM is gone afterwards, and its files land
                in INTO from then on. One batch: `moneyflow undo` of it gives both accounts back.
                Example: moneyflow accounts merge "Chase Checking" "Chase 1234" --dry-run
                """)
        @OptionGroup var storeOptions: StoreOptions
        @Argument(help: "The account that stays (name).") var into: String
        @Argument(help: "The account merged into it (name).") var from: String
        @Flag(help: "Show what the merge would do; write nothing.") var dryRun = false
        @Option(help: "table or json.") var format: ListFormat = .table
        func run() throws {
            // A dry run only reads: it works on a read-only store and never upgrades one.
            let store = try dryRun ? storeOptions.openForReading() : storeOptions.openExisting()
            try requireAccount(into, in: store)
            try requireAccount(from, in: store)
            let r = try ImportService(store: store).mergeAccount(from, into: into, dryRun: dryRun)
            if format == .json { return printOut(Contracts.merge(r).render(pretty: true)) }
            let head =
                r.batchID.map { "merged '\(from)' into '\(into)' (batch \($0))" }
                ?? "would merge '\(from)' into '\(into)' (dry run, nothing written)"
            printOut(
                SafeText.escaped(
                    "\(head): \(r.records) records: \(r.linked) linked to transactions of '\(into)', \(r.alreadyPresent) already there, "
                        + "\(r.kept) kept their own transaction\(r.needsReview > 0 ? " (\(r.needsReview) to review)" : ""); "
                        + "\(r.transactionsJoined) transactions joined, \(r.transactionsMoved) moved"
                        + (r.batchID.map { "; `moneyflow undo \($0)` takes it back" } ?? "")))
        }
    }

    struct Pair: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "pair", abstract: "Say that two accounts move money between them (transfer evidence).",
            discussion: """
                A card and the account that pays it, or checking and savings: an equal-amount
                outflow and inflow between them, with transfer wording on one side, is then one
                transfer without asking (see `moneyflow transfers`). --remove takes it back.
                Example: moneyflow accounts pair "CMB 3906" "CMB Card 6612"
                """)
        @OptionGroup var storeOptions: StoreOptions
        @Argument(help: "One account (name).") var name: String
        @Argument(help: "The other account (name).") var other: String
        @Flag(help: "Take the pairing back.") var remove = false
        func run() throws {
            let store = try storeOptions.openExisting()
            try requireAccount(name, in: store)
            try requireAccount(other, in: store)
            try store.pairAccounts(name, other, remove: remove)
            printOut(SafeText.escaped(remove ? "\(name) and \(other) are no longer paired" : "\(name) <-> \(other) paired for transfers"))
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List accounts.", discussion: "Example: moneyflow accounts --format json")
        @OptionGroup var storeOptions: StoreOptions
        @Option(help: "table or json.") var format: ListFormat = .table

        func run() throws {
            let accounts = try storeOptions.openForReading().accounts()
            switch format {
            case .json: printOut(Contracts.accounts(accounts).render(pretty: true))
            case .table:
                var t = TextTable(
                    ["id", "name", "institution", "number", "type", "currencies"], align: [.right, .left, .left, .left, .left, .left])
                for a in accounts {
                    t.add([String(a.id), a.name, a.institution ?? "", a.number ?? "", a.type ?? "", a.currencies.joined(separator: ",")])
                }
                printOut(t.render())
            }
        }
    }

    struct Rename: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rename", abstract: "Rename an account, or set its name in ledger exports.",
            discussion: "Example: moneyflow accounts rename \"CMB 8705\" \"CMB Debit\" --ledger-name Assets:CMB:8705")
        @OptionGroup var storeOptions: StoreOptions
        @Argument(help: "Current account name.") var name: String
        @Argument(help: "New account name.") var newName: String?
        @Option(name: .customLong("ledger-name"), help: "Account name in beancount/ledger exports.") var ledgerName: String?
        func validate() throws { if newName == nil && ledgerName == nil { throw ValidationError("give a new name or --ledger-name") } }
        func run() throws {
            let store = try storeOptions.openExisting()
            try requireAccount(name, in: store)
            try store.renameAccount(name, to: newName, ledgerName: ledgerName)
            printOut(SafeText.escaped("renamed \(name)\(newName.map { " -> \($0)" } ?? "")"))
        }
    }

    struct Link: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "link", abstract: "Attach an import identity to an existing account.",
            discussion: """
                Later imports carrying that identity land in this account: e.g. a re-linked Plaid
                account (new account_id) or a CSV export of the same account.
                Example: moneyflow accounts link "CMB 8705" plaid:BxBXxLj1m4HMXBm9WZZmCWVbPjX16EHwv99vp
                """)
        @OptionGroup var storeOptions: StoreOptions
        @Argument(help: "Account name.") var name: String
        @Argument(help: "Identity key, e.g. plaid:<account_id>, cmb:<number>, csv:chase/checking.") var key: String
        func run() throws {
            let store = try storeOptions.openExisting()
            try requireAccount(name, in: store)
            try store.linkAccountKey(key, toAccount: name)
            printOut(SafeText.escaped("\(key) -> \(name)"))
        }
    }
}

enum TransactionFormat: String, ExpressibleByArgument, CaseIterable { case table, json, csv }

struct TransactionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "transactions", abstract: "List transactions (one per real-world money movement).",
        discussion: """
            Ordered by account, then date, then source order. Amounts are negative for money out.
            Examples:
              moneyflow transactions --account "CMB 8705" --from 2026-06-01
              moneyflow transactions --format json --all
            """)
    @OptionGroup var storeOptions: StoreOptions
    @Option(help: "Only this account (name).") var account: String?
    @Option(help: "First date, YYYY-MM-DD.") var from: String?
    @Option(help: "Last date, YYYY-MM-DD.") var to: String?
    @Option(help: "table, json or csv.") var format: TransactionFormat = .table
    @Flag(help: "Include void transactions and superseded/removed records (with a state field).") var all = false
    @OptionGroup var wideOption: WideOption

    func run() throws {
        let store = try storeOptions.openForReading()
        try requireAccount(account, in: store)
        let (first, last) = (try parseDate(from, "--from"), try parseDate(to, "--to"))
        if format != .table {
            try ChunkedOutput().streamTransactions(
                store, json: format == .json, includeAll: all, account: account,
                from: first, through: last, csvEnd: "\n")
            return
        }
        let txs = try store.transactions(account: account, from: first, through: last, includeAll: all)
        switch format {
        case .json, .csv: break
        case .table:
            let cut = wideOption.cells
            var t = TextTable(
                ["id", "account", "date", "amount", "cur", "description", "counterparty", "balance", "sources", "category"],
                align: [.right, .left, .left, .right, .left, .left, .left, .right, .left, .left])
            for x in txs {
                t.add([
                    String(x.id), x.account, x.date.iso, x.amount.decimalString, x.amount.currency,
                    cut(x.description, 28) + (x.pending ? " (pending)" : "") + (x.status == "void" ? " (void)" : ""),
                    cut(x.counterparty ?? "", 28), x.balance?.decimalString ?? "",
                    x.sources.map { $0.kind.rawValue + (all && $0.state != "active" ? "(\($0.state))" : "") }.joined(separator: ","),
                    Self.categoryCell(x.assignedCategory),
                ])
            }
            printOut(t.render())
        }
    }
}

extension TransactionsCommand {
    /// The table's category: the account with its source (`Expenses:Food (rule)`), the parts
    /// of a split, or `-` when nothing applies.
    static func categoryCell(_ c: TransactionCategory?) -> String {
        guard let c, let account = c.account else { return "-" }
        if !c.split.isEmpty { return c.split.map { "\($0.account) \($0.amount.decimalString)" }.joined(separator: ", ") + " (user)" }
        return "\(account) (\(c.source))"
    }
}

struct BatchesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batches", abstract: "List import batches (one per imported file).",
        discussion: "Example: moneyflow batches --format json")
    @OptionGroup var storeOptions: StoreOptions
    @Option(help: "table or json.") var format: ListFormat = .table

    func run() throws {
        let batches = try storeOptions.openForReading().batches()
        switch format {
        case .json: printOut(Contracts.batches(batches).render(pretty: true))
        case .table:
            var t = TextTable(
                ["id", "file", "importer", "imported at", "new", "present", "linked", "review", "warnings", "undone", "seen again"],
                align: [.right, .left, .left, .left, .right, .right, .right, .right, .right, .left, .left])
            for b in batches {
                t.add([
                    String(b.id), b.fileName, b.importer, b.importedAt, String(b.counts.new), String(b.counts.alreadyPresent),
                    String(b.counts.linked), String(b.counts.needsReview), String(b.counts.warnings), b.undoneAt ?? "",
                    b.seenAgain == 0 ? "" : "\(b.seenAgain)× (last \(b.lastSeenAt ?? "?"))",
                ])
            }
            printOut(t.render())
        }
    }
}

struct UndoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "undo", abstract: "Undo an import batch: remove its records and what only they supported.",
        discussion: "Example: moneyflow undo 3   (see `moneyflow batches` for ids)")
    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "Batch id.") var batch: Int64

    func run() throws {
        let c = try storeOptions.openExisting().undo(batchID: batch)
        printOut(
            "undid batch \(batch): \(c.recordsRemoved) records and \(c.transactionsRemoved) transactions removed"
                + (c.recordsKept > 0 ? "; \(c.recordsKept) records kept (later active batches also hold them)" : "")
                + (c.accountsRestored > 0 ? "; the merged account is back with its records and transactions" : "")
                + (c.editedTransactionsRemoved > 0
                    ? "; \(c.editedTransactionsRemoved) edited transactions removed (edits kept: they return when those rows are imported again)"
                    : ""))
    }
}

struct ProfilesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profiles", abstract: "List the built-in CSV profiles, or print one as a profile file.",
        discussion: """
            Use a name with --csv-profile (e.g. chase, or chase/card for one variant), or write your
            own profile as JSON or TOML (see README "CSV profiles"). --show prints one built-in
            profile as the TOML file a user would write, to save and edit.
            Examples:
              moneyflow profiles
              moneyflow profiles --format json
              moneyflow profiles --show chase/card > mybank.toml
              moneyflow import export.csv --csv-profile chase/card
            """)
    @Option(help: "table or json.") var format: ListFormat = .table
    @Option(name: .long, help: "Print this built-in profile (NAME or NAME/VARIANT) as a TOML profile file.")
    var show: String?

    func run() throws {
        if let name = show {
            let found = BuiltInCSVProfiles.sourcesNamed(name)
            guard !found.isEmpty else {
                let all = BuiltInCSVProfiles.all.map(\.qualifiedName)
                throw CLIError(
                    "no built-in CSV profile '\(name)'\(NearestName.hint(name, in: all)); built-in: \(all.joined(separator: ", "))")
            }
            guard found.count == 1 else {
                throw CLIError(
                    "'\(name)' has \(found.count) variants; show one of: \(found.map(\.profile.qualifiedName).joined(separator: ", "))")
            }
            printOut(ProfileFiles.toml(found[0].file).trimmingCharacters(in: .newlines))
            return
        }
        switch format {
        case .json: printOut(Contracts.profiles(BuiltInCSVProfiles.all).render(pretty: true))
        case .table:
            var t = TextTable(["profile", "variant", "institution", "kind", "recognised by columns"])
            for p in BuiltInCSVProfiles.all {
                t.add([
                    p.name, p.variant ?? "", p.institution ?? "", p.sourceKind.rawValue,
                    p.hasHeader
                        ? (p.requiredHeaders.map { $0.first ?? "" } + p.signature).joined(separator: ", ")
                        : "(no header: date, amount, *, check no., description)",
                ])
            }
            printOut(t.render())
        }
    }
}
