/// A record supporting a transaction, as listed in `sources`.
public struct LedgerSource: Sendable, Hashable, Codable {
    public var id: Int64
    public var kind: SourceKind
    public var externalID: String?
    public var file: String
    public var line: Int?
    public var page: Int?
    public var row: Int?
    /// `active`, `superseded` or `removed`.
    public var state: String
    public var date: LocalDate
    public var amount: Money
    public var description: String
    public var counterparty: String?
    public var pending: Bool
    /// The import batch that stored the record (which statement it came from); nil where the
    /// query does not read it.
    public var batchID: Int64? = nil
    public init(
        id: Int64, kind: SourceKind, externalID: String?, file: String, line: Int?, page: Int?, row: Int?,
        state: String, date: LocalDate, amount: Money, description: String, counterparty: String?, pending: Bool
    ) {
        self.id = id; self.kind = kind; self.externalID = externalID; self.file = file; self.line = line
        self.page = page; self.row = row; self.state = state; self.date = date; self.amount = amount
        self.description = description; self.counterparty = counterparty; self.pending = pending
    }
}

/// A real-world money movement as the store shows it (merged view of its records).
public struct LedgerTransaction: Sendable, Hashable, Codable {
    public var id: Int64
    public var accountID: Int64
    public var account: String
    public var date: LocalDate
    public var amount: Money
    public var description: String
    public var counterparty: String?
    public var note: String?
    public var balance: Money?
    public var category: String?
    public var pending: Bool
    /// `active` or `void` (every supporting record was removed by its provider).
    public var status: String
    public var needsReview: Bool
    public var sources: [LedgerSource]
    /// The other leg when this transaction is one side of a transfer between own accounts.
    public var transfer: TransferLink? = nil
    /// Possible other legs offered for review (never linked without the user).
    public var transferCandidates: [TransferLink] = []
    /// The computed category (the store's `txn_category`; nil before the store categorised it).
    public var assignedCategory: TransactionCategory? = nil
    public init(
        id: Int64, accountID: Int64, account: String, date: LocalDate, amount: Money, description: String,
        counterparty: String?, note: String?, balance: Money?, category: String?, pending: Bool,
        status: String, needsReview: Bool, sources: [LedgerSource]
    ) {
        self.id = id; self.accountID = accountID; self.account = account; self.date = date; self.amount = amount
        self.description = description; self.counterparty = counterparty; self.note = note; self.balance = balance
        self.category = category; self.pending = pending; self.status = status; self.needsReview = needsReview
        self.sources = sources
    }
}

/// An account as listed by `moneyflow accounts`.
public struct LedgerAccount: Sendable, Hashable, Codable {
    public var id: Int64
    public var name: String
    public var institution: String?
    public var number: String?
    public var type: String?
    public var subtype: String?
    public var currencies: [String]
    public var provider: String?
    public var providerAccountID: String?
    public var currentBalance: Money?
    public var availableBalance: Money?
    public var ledgerName: String?
    public var keys: [String]
    /// The statement facts of the account's newest bill still imported (latest statement month,
    /// then latest import), money as exact decimal text, dates ISO; nil when none was imported.
    public var statement: [String: String]? = nil
    public init(
        id: Int64, name: String, institution: String?, number: String?, type: String?, subtype: String?,
        currencies: [String], provider: String?, providerAccountID: String?, currentBalance: Money?,
        availableBalance: Money?, ledgerName: String?, keys: [String]
    ) {
        self.id = id; self.name = name; self.institution = institution; self.number = number; self.type = type
        self.subtype = subtype; self.currencies = currencies; self.provider = provider
        self.providerAccountID = providerAccountID; self.currentBalance = currentBalance
        self.availableBalance = availableBalance; self.ledgerName = ledgerName; self.keys = keys
    }
}

/// One import batch as listed by `moneyflow batches`.
public struct LedgerBatch: Sendable, Hashable, Codable {
    public var id: Int64
    public var fileName: String
    public var fileSHA256: String
    public var importer: String
    public var importedAt: String
    public var counts: ImportCounts
    public var undoneAt: String?
    /// How often the same bytes were imported again without changing anything (counted here
    /// instead of as batches of their own), and when last.
    public var seenAgain: Int = 0
    public var lastSeenAt: String? = nil
    /// Statement facts this import stored, by account name (empty when it stored none).
    public var facts: [String: [String: String]]? = nil
    public init(
        id: Int64, fileName: String, fileSHA256: String, importer: String, importedAt: String, counts: ImportCounts, undoneAt: String?
    ) {
        self.id = id; self.fileName = fileName; self.fileSHA256 = fileSHA256; self.importer = importer
        self.importedAt = importedAt; self.counts = counts; self.undoneAt = undoneAt
    }
}
