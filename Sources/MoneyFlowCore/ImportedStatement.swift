/// A non-fatal observation made while reading a file (balance break, skipped line ...).
public struct ImportWarning: Sendable, Hashable, Codable, CustomStringConvertible {
    public var message: String
    public var locator: Locator?
    public init(_ message: String, at locator: Locator? = nil) {
        self.message = message; self.locator = locator
    }
    public var description: String {
        guard let locator, !locator.description.isEmpty else { return message }
        return "\(locator.description): \(message)"
    }
}

/// A Plaid `removed` entry: the provider withdrew this transaction id.
public struct ExternalRemoval: Sendable, Hashable, Codable {
    public var externalID: String
    /// Account key when the source says which account (Plaid since 2024).
    public var accountKey: String?
    public init(externalID: String, accountKey: String?) {
        self.externalID = externalID; self.accountKey = accountKey
    }
}

/// Sync cursor facts of a provider update (Plaid `/transactions/sync`).
public struct SyncUpdate: Sendable, Hashable, Codable {
    /// What the cursor belongs to (Plaid item or, lacking that, the set of account keys).
    public var scope: String
    /// Cursor the first page was requested with, when known (nil = from the beginning).
    public var startCursor: String?
    /// `next_cursor` of the last page.
    public var nextCursor: String
    /// False when the last page still said `has_more: true`.
    public var complete: Bool
    public init(scope: String, startCursor: String?, nextCursor: String, complete: Bool) {
        self.scope = scope; self.startCursor = startCursor; self.nextCursor = nextCursor; self.complete = complete
    }
}

/// What an importer produces from one file: account facts, records, warnings, provider effects.
public struct ImportedStatement: Sendable, Codable {
    public var importerID: String
    public var accounts: [AccountFacts]
    /// Records in file order.
    public var records: [IncomingRecord]
    public var warnings: [ImportWarning]
    /// Records whose external id appears here are ones the provider modified (update in place).
    public var modifiedExternalIDs: Set<String>
    public var removals: [ExternalRemoval]
    public var sync: SyncUpdate?
    /// True when the file is a complete export of its accounts' records for `coverage` (not used
    /// to delete anything; informs reports).
    public var coverage: ClosedRange<LocalDate>?
    /// Other readings of the same file, differing only in which account is the file's own
    /// (`accounts[0]`), for a file that cannot tell it alone (a CMB card bill whose rows name
    /// two cards equally often and no card in its header). The import takes the reading whose
    /// own account the store already has, else this one, and says which in a warning;
    /// `--account` decides instead. Empty for every unambiguous file.
    public var alternatives: [ImportedStatement] = []
    /// Why there are alternatives, for that warning (people read it; nothing acts on it).
    public var ambiguity: String?

    public init(
        importerID: String, accounts: [AccountFacts], records: [IncomingRecord],
        warnings: [ImportWarning] = [], modifiedExternalIDs: Set<String> = [],
        removals: [ExternalRemoval] = [], sync: SyncUpdate? = nil, coverage: ClosedRange<LocalDate>? = nil
    ) {
        self.importerID = importerID; self.accounts = accounts; self.records = records
        self.warnings = warnings; self.modifiedExternalIDs = modifiedExternalIDs
        self.removals = removals; self.sync = sync; self.coverage = coverage
    }
}

extension SyncUpdate {
    private static let plaidItemPrefix = "plaid:item:"
    private static let plaidAccountsPrefix = "plaid:accounts:"

    /// Scope of a Plaid item's cursor (`plaid:item:<item_id>`): what Plaid keys cursors by.
    public static func plaidItemScope(itemID: String) -> String { plaidItemPrefix + itemID }
    /// Scope of pages saved without their item id (`plaid:accounts:<ids, sorted>`); the import
    /// maps it to the item scope those accounts were last seen under.
    public static func plaidAccountsScope(accountIDs: some Sequence<String>) -> String {
        plaidAccountsPrefix + accountIDs.sorted().joined(separator: ",")
    }

    /// The scope is a provider item's (the cursor of all the item's accounts together).
    public var isItemScope: Bool { scope.hasPrefix(Self.plaidItemPrefix) }
    /// The scope is a set of provider accounts (the item id was not saved): the import maps it
    /// to the item scope those accounts were last seen under.
    public var isAccountsScope: Bool { scope.hasPrefix(Self.plaidAccountsPrefix) }
}
