import ArgumentParser
import Foundation
import MoneyFlowCategories
import MoneyFlowConfig
import MoneyFlowCore
import MoneyFlowPipeline
import MoneyFlowStore

struct CategorizeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "categorize", abstract: "Set your own category of transactions (wins over rules, learning and providers; undoable).",
        discussion: """
            Your decision is kept across imports, relinks and undo of other batches, and teaches the
            learner. Each categorize is a batch: `moneyflow undo BATCH` restores the decisions before it.
            Examples:
              moneyflow categorize 17 Expenses:Food:Groceries
              moneyflow categorize 17 Expenses:Food:Groceries:40.00 Expenses:Household:rest   # a split
              moneyflow categorize --account cmb-debit-3816 --text 星巴克 Expenses:Food:Coffee
            """)
    @OptionGroup var storeOptions: StoreOptions
    @Option(help: "Every transaction of this account (name) matching the other filters.") var account: String?
    @Option(help: "First date, YYYY-MM-DD.") var from: String?
    @Option(help: "Last date, YYYY-MM-DD.") var to: String?
    @Option(help: "Only transactions whose description, counterparty or note contains this text.") var text: String?
    @Argument(help: "TXN ACCOUNT, TXN ACCOUNT:AMOUNT ACCOUNT:rest (a split), or with a filter just ACCOUNT.")
    var arguments: [String] = []

    func run() throws {
        let filtered = account != nil || from != nil || to != nil || text != nil
        let store = try storeOptions.openExisting()
        let ids: [Int64]
        let choice: LedgerStore.CategoryChoice
        if filtered {
            guard arguments.count == 1 else {
                throw ValidationError("with --account/--from/--to/--text give only the ACCOUNT to book them to")
            }
            let (first, last) = (try parseDate(from, "--from"), try parseDate(to, "--to"))
            if let account { try requireAccount(account, in: store) }
            ids = try store.transactions(account: account, from: first, through: last).filter { t in
                guard let text else { return true }
                return [t.description, t.counterparty, t.note].contains { $0?.localizedCaseInsensitiveContains(text) == true }
            }.map(\.id)
            guard !ids.isEmpty else { throw ValidationError("no transaction matches the filters; nothing was changed") }
            choice = .account(arguments[0])
        } else {
            guard arguments.count >= 2, let id = Int64(arguments[0]) else {
                throw ValidationError("give TXN ACCOUNT (or TXN ACCOUNT:AMOUNT ACCOUNT:rest), or a filter and ACCOUNT")
            }
            ids = [id]
            choice = arguments.count == 2 && !Self.isSplitPart(arguments[1]) ? .account(arguments[1]) : .split(Array(arguments.dropFirst()))
        }
        let batch = try store.categorize(ids, choice)
        let what: String
        switch choice {
        case .account(let a): what = a
        case .split(let parts): what = parts.joined(separator: " ")
        }
        printOut(
            "categorized \(ids.count) transaction\(ids.count == 1 ? "" : "s") as \(what) (batch \(batch); undo: moneyflow undo \(batch))")
    }

    /// `Expenses:Food:40.00` or `Expenses:Food:rest`: an account's last segment is never a number.
    static func isSplitPart(_ arg: String) -> Bool {
        guard let colon = arg.lastIndex(of: ":") else { return false }
        let tail = arg[arg.index(after: colon)...]
        return tail.lowercased() == "rest" || (tail.first?.isNumber == true && tail.allSatisfy { $0.isNumber || $0 == "." })
    }
}

/// `--rules FILE` and `--category-map FILE`: read and checked before the store is touched.
struct CategoryFileOptions: ParsableArguments {
    @Option(help: "Rules file (TOML [[rule]] tables, README \"Categories\"): stored and applied to every transaction.")
    var rules: String?
    @Option(name: .customLong("category-map"), help: "Provider category mapping file (TOML): stored and applied.")
    var categoryMap: String?

    var given: Bool { rules != nil || categoryMap != nil }

    func load() throws -> (CategoryRules?, ProviderMapping?) {
        let r = try rules.map { try CategoryFiles.loadRules(contentsOf: URL(fileURLWithPath: $0)) }
        let m = try categoryMap.map { try CategoryFiles.loadMapping(contentsOf: URL(fileURLWithPath: $0)) }
        return (r, m)
    }

    /// For `import` and `run`: the files read and checked (before the store is opened), then
    /// `adopt` stores them when they differ from the store's, as `recategorize` does, before the
    /// first file is imported; a dry run stores nothing. Says so on stderr (stdout may be JSON).
    func adopt(dryRun: Bool, quiet: Bool, open: () throws -> LedgerStore) throws -> LedgerStore {
        guard given else { return try open() }
        let (rules, mapping) = try load()
        let store = try open()
        guard !dryRun else { return store }
        if let batch = try store.adoptCategorySettings(rules: rules, mapping: mapping), !quiet {
            printErr("category settings stored and every transaction categorised again (batch \(batch); undo: moneyflow undo \(batch))")
        }
        return store
    }
}

struct RecategorizeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recategorize",
        abstract: "Store a rules file and/or provider mapping and categorise every transaction again (one store transaction).",
        discussion: """
            The store keeps the rules and mapping it was last given: every later import, undo or
            relink categorises with them. Your own decisions (`categorize`) are never overwritten.
            Undoable: `moneyflow undo BATCH` puts the settings before it back.
            Example: moneyflow recategorize --rules rules.toml --category-map map.toml
            """)
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var files: CategoryFileOptions

    func run() throws {
        guard files.given else { throw ValidationError("give --rules FILE and/or --category-map FILE") }
        let (rules, mapping) = try files.load()
        let store = try storeOptions.openExisting()
        let batch = try store.setCategorySettings(rules: rules, mapping: mapping)
        let counts = Dictionary(grouping: try store.transactions(), by: { $0.assignedCategory?.source ?? "none" }).mapValues(\.count)
        printOut(
            "recategorized (batch \(batch); undo: moneyflow undo \(batch)): "
                + ["user", "rule", "learned", "provider", "none"].map { "\(counts[$0] ?? 0) \($0)" }.joined(separator: ", "))
    }
}

struct RulesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules", abstract: "Work with category rules files.", subcommands: [RulesTestCommand.self])
}

struct RulesTestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test", abstract: "Show which rule of FILE matches which transactions (nothing is changed).",
        discussion: "Example: moneyflow rules test rules.toml --store ledger.db")
    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The rules file.") var file: String

    func run() throws {
        let rules = try CategoryFiles.loadRules(contentsOf: URL(fileURLWithPath: file))
        let store = try storeOptions.openForReading()
        let txs = try store.transactions()
        let byID = Dictionary(uniqueKeysWithValues: txs.map { ($0.id, $0) })
        let shown = Set(txs.map(\.id))
        let report = rules.test(try store.categorizationInputs().filter { shown.contains($0.id) })
        func line(_ id: Int64) -> String {
            guard let t = byID[id] else { return "  #\(id)" }
            return SafeText.escaped(
                "  #\(id)  \(t.account)  \(t.date.iso)  \(t.amount.decimalString) \(t.amount.currency)  \(t.description)")
        }
        for r in report.rules {
            let wins = r.decides, shadowed = r.shadowedBy
            printOut(
                SafeText.escaped("rule \(r.index) \"\(r.name)\" -> \(r.category): \(wins.count) transaction\(wins.count == 1 ? "" : "s")"))
            for id in wins { printOut(line(id)) }
            if !shadowed.isEmpty {
                printOut("  also matches \(shadowed.count) taken by an earlier rule: " + shadowed.map { "#\($0)" }.joined(separator: " "))
            }
        }
        printOut("no rule matches \(report.unmatched.count) transaction\(report.unmatched.count == 1 ? "" : "s")")
    }
}
