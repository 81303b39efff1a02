import MoneyFlowCore
import MoneyFlowStore

/// Per-account reconciliation status of the ledger: which transactions two or more sources
/// confirm, which only the bank or only a feed (Plaid, a wallet bill) knows, what waits for review, and where the
/// bank's running balance does not chain.
public struct ReconciliationReport: Sendable {
    public struct BalanceBreak: Sendable {
        public var transactionID: Int64
        public var currency: String
        public var file: String
        /// Nil when previous balance + amount is too large to hold.
        public var expected: Money?
        public var printed: Money
    }
    public struct AccountSection: Sendable {
        public var account: String
        public var confirmed: [LedgerTransaction] = []
        public var statementOnly: [LedgerTransaction] = []
        /// Transactions only feeds support (JSON `plaid_only`, its name since Plaid was the one feed).
        public var plaidOnly: [LedgerTransaction] = []
        /// Those of ``plaidOnly`` in an account a statement feeds: the feed's row (a card-funded
        /// wallet payment) waits for the bank's statement or bill row it will link to.
        public var awaitingBank: [LedgerTransaction] = []
        public var needsReview: [LedgerTransaction] = []
        public var balanceBreaks: [BalanceBreak] = []
        /// Legs of transfers between own accounts (each also listed above by its sources).
        public var transfers: [LedgerTransaction] = []
        /// Legs with transfer candidates waiting for the user.
        public var transferReview: [LedgerTransaction] = []
    }
    public var accounts: [AccountSection]

    public static func build(store: LedgerStore, account: String? = nil) throws -> ReconciliationReport {
        let txs = try store.transactions(account: account)
        var sections: [String: AccountSection] = [:]
        var order: [String] = []
        var fed = Set<String>()
        for t in txs {
            if sections[t.account] == nil { sections[t.account] = AccountSection(account: t.account); order.append(t.account) }
            let kinds = Set(t.sources.map(\.kind))
            if t.transfer != nil { sections[t.account]!.transfers.append(t) }
            if !t.transferCandidates.isEmpty { sections[t.account]!.transferReview.append(t) }
            if t.needsReview {
                sections[t.account]!.needsReview.append(t)
            } else if kinds.count >= 2 {
                sections[t.account]!.confirmed.append(t)
            } else if !kinds.isEmpty && kinds.allSatisfy({ $0.role == .feed }) {
                sections[t.account]!.plaidOnly.append(t)
            } else {
                sections[t.account]!.statementOnly.append(t)
            }
        }
        // An account a statement feeds: its feed-only rows wait for their statement rows.
        for t in txs where t.sources.contains(where: \.kind.isBankOwn) { fed.insert(t.account) }
        for name in fed.sorted() { sections[name]!.awaitingBank = sections[name]!.plaidOnly }
        for (account, b) in try balanceBreaks(store: store, account: account) where sections[account] != nil {
            sections[account]!.balanceBreaks.append(b)
        }
        return ReconciliationReport(accounts: order.map { sections[$0]! })
    }

    /// Where the bank's running balance does not chain within an imported file (per
    /// currency): previous balance + amount is not the balance printed on the row. The
    /// report's ``AccountSection/balanceBreaks``, also read alone (the web app's home page
    /// counts them without building the whole report). Each break is paired with its account;
    /// only accounts that hold live transactions (those the report has a section for). The
    /// store keeps them up to date with every write (``LedgerStore/balanceBreaks(account:)``).
    public static func balanceBreaks(store: LedgerStore, account: String? = nil) throws -> [(account: String, break: BalanceBreak)] {
        try store.balanceBreaks(account: account).map { b in
            (
                b.account,
                BalanceBreak(
                    transactionID: b.transactionID, currency: b.currency, file: b.file,
                    expected: b.expected.map { Money(minorUnits: $0, currency: b.currency) },
                    printed: Money(minorUnits: b.printed, currency: b.currency))
            )
        }
    }

    /// `reconcile --format json`: an array of per-account objects with the documented keys.
    public var json: JSONOutput {
        func ids(_ list: [LedgerTransaction]) -> JSONOutput {
            .array(
                list.map { t in
                    .object([
                        ("id", .int(t.id)), ("date", .string(t.date.iso)), ("amount", .string(t.amount.decimalString)),
                        ("currency", .string(t.amount.currency)), ("description", .string(t.description)),
                        ("sources", .array(t.sources.map { .string($0.kind.rawValue) })),
                    ])
                })
        }
        return .array(
            accounts.map { a in
                .object([
                    ("account", .string(a.account)),
                    ("confirmed", ids(a.confirmed)),
                    ("statement_only", ids(a.statementOnly)),
                    ("plaid_only", ids(a.plaidOnly)),
                    ("needs_review", ids(a.needsReview)),
                    ("awaiting_bank", ids(a.awaitingBank)),
                    (
                        "balance_breaks",
                        .array(
                            a.balanceBreaks.map { b in
                                .object([
                                    ("id", .int(b.transactionID)), ("currency", .string(b.currency)), ("file", .string(b.file)),
                                    ("expected_balance", .string(b.expected?.decimalString)),
                                    ("printed_balance", .string(b.printed.decimalString)),
                                ])
                            })
                    ),
                    ("transfers", legs(a.transfers, \.transfer)),
                    (
                        "transfer_review",
                        .array(
                            a.transferReview.map { t in leg(t, ("candidates", .array(t.transferCandidates.map(Contracts.transferLink)))) })
                    ),
                ])
            })
    }

    /// A transfer leg: the transaction's `id`, date, amount and description, plus `extra`.
    private func leg(_ t: LedgerTransaction, _ extra: (String, JSONOutput)) -> JSONOutput {
        .object([
            ("id", .int(t.id)), ("date", .string(t.date.iso)), ("amount", .string(t.amount.decimalString)),
            ("currency", .string(t.amount.currency)), ("description", .string(t.description)), extra,
        ])
    }

    private func legs(_ list: [LedgerTransaction], _ link: KeyPath<LedgerTransaction, TransferLink?>) -> JSONOutput {
        .array(list.compactMap { t in t[keyPath: link].map { leg(t, ("transfer", Contracts.transferLink($0))) } })
    }

    public var table: String {
        var t = TextTable(
            ["account", "confirmed", "statement only", "feed only", "needs review", "balance breaks", "transfers"],
            align: [.left, .right, .right, .right, .right, .right, .right])
        for a in accounts {
            t.add([
                a.account, String(a.confirmed.count), String(a.statementOnly.count), String(a.plaidOnly.count),
                String(a.needsReview.count), String(a.balanceBreaks.count), String(a.transfers.count),
            ])
        }
        var out = t.render()
        for a in accounts where !a.balanceBreaks.isEmpty {
            out += "\n\nBalance breaks in \(SafeText.escaped(a.account)):"
            for b in a.balanceBreaks {
                out +=
                    "\n  transaction \(b.transactionID) (\(SafeText.escaped(b.file))): printed \(b.printed.decimalString), previous balance + amount = \(b.expected?.decimalString ?? "(too large)") \(b.currency)"
            }
        }
        for a in accounts where !a.transferReview.isEmpty {
            out +=
                "\n\nTransfers to review in \(SafeText.escaped(a.account)) (see `moneyflow transfers`): "
                + a.transferReview.map { String($0.id) }.joined(separator: ", ")
        }
        for a in accounts where !a.awaitingBank.isEmpty {
            out +=
                "\n\nAwaiting the bank in \(SafeText.escaped(a.account)) (feed rows its statement has not shown yet): "
                + a.awaitingBank.map { String($0.id) }.joined(separator: ", ")
        }
        for a in accounts where !a.needsReview.isEmpty {
            out +=
                "\n\nNeeds review in \(SafeText.escaped(a.account)) (see `moneyflow review`): "
                + a.needsReview.map { String($0.id) }.joined(separator: ", ")
        }
        return out
    }
}
