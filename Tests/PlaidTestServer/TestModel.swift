/// What tests put into the server (banks, their accounts and transactions) and read back out
/// (items, the truth a correct client must hold). Amounts and balances are decimal TEXT and go
/// out as JSON numbers written from that text: never through `Double`.

/// One account at a bank. `key` is the test's handle for it; every item that links the bank
/// gets its own random `account_id` for it, as Plaid does.
public struct TestAccount: Sendable, Equatable {
    public var key: String
    public var name: String
    public var officialName: String?
    /// Last 4 digits.
    public var mask: String
    /// `depository`, `credit`, `loan`, `investment`, `other`.
    public var type: String
    public var subtype: String
    /// Balances as decimal text (`"1234.56"`); credit: positive = owed.
    public var current: String
    public var available: String?
    public var limit: String?
    public var isoCurrencyCode: String

    public init(
        key: String, name: String, officialName: String? = nil, mask: String, type: String, subtype: String,
        current: String, available: String? = nil, limit: String? = nil, isoCurrencyCode: String = "USD"
    ) {
        self.key = key
        self.name = name
        self.officialName = officialName
        self.mask = mask
        self.type = type
        self.subtype = subtype
        self.current = current
        self.available = available
        self.limit = limit
        self.isoCurrencyCode = isoCurrencyCode
    }
}

/// A bank ("institution" in Plaid's words): what Link can connect to.
public struct TestInstitution: Sendable, Equatable {
    public var id: String
    public var name: String
    public var accounts: [TestAccount]

    public init(id: String, name: String, accounts: [TestAccount]) {
        self.id = id
        self.name = name
        self.accounts = accounts
    }
}

/// A transaction as the bank holds it, before any item gives it an id.
public struct TestTransaction: Sendable, Equatable {
    /// `TestAccount.key`.
    public var account: String
    /// Posting date (`YYYY-MM-DD`); for pending, the transaction day.
    public var date: String
    /// Decimal text; Plaid's sign: positive = money out of the account.
    public var amount: String
    public var name: String
    public var merchantName: String?
    public var pending: Bool
    public var authorizedDate: String?

    public init(
        account: String, date: String, amount: String, name: String, merchantName: String? = nil,
        pending: Bool = false, authorizedDate: String? = nil
    ) {
        self.account = account
        self.date = date
        self.amount = amount
        self.name = name
        self.merchantName = merchantName
        self.pending = pending
        self.authorizedDate = authorizedDate
    }
}

/// One link of a bank (an Item), as the server knows it.
public struct TestItem: Sendable, Equatable {
    public var itemID: String
    public var accessToken: String
    public var institutionID: String
    public var removed: Bool
    /// The item error code set by `setItemError`, if any.
    public var errorCode: String?
    public var daysRequested: Int
    /// `TestAccount.key` -> this item's `account_id`.
    public var accountIDs: [String: String]
}

/// A transaction as a client that applied every update of an item holds it now.
public struct TruthTransaction: Sendable, Equatable, Hashable {
    public var transactionID: String
    public var accountID: String
    public var date: String
    public var amount: String
    public var name: String
    public var merchantName: String?
    public var pending: Bool
    public var pendingTransactionID: String?
    /// The bank-level id the test used (`addTransaction`'s result).
    public var bankID: String
}

/// A request as the server received it, for tests that check what the client sent.
public struct RecordedRequest: Sendable {
    public var path: String
    /// Header names lower-cased.
    public var headers: [String: String]
    public var body: [UInt8]
    /// The HTTP status the server answered.
    public var status: Int
    /// The body parsed, when it was JSON.
    public var json: PlaidJSON? { try? PlaidJSON.parse(body) }
}

/// A failure `failNext` injects before the endpoint does its work.
public enum InjectedFailure: Sendable {
    /// HTTP 429 `RATE_LIMIT_EXCEEDED` with the endpoint's code (`TRANSACTIONS_SYNC_LIMIT`, ...).
    case rateLimit
    /// HTTP 500 `API_ERROR` / `INTERNAL_SERVER_ERROR`.
    case internalError
    /// HTTP 400 `INSTITUTION_ERROR` / `INSTITUTION_DOWN`.
    case institutionDown
    /// HTTP 400 `INSTITUTION_ERROR` / `INSTITUTION_NOT_RESPONDING`.
    case institutionNotResponding
}

/// Misuse of the test controls (unknown institution, account or id): a test bug, reported loudly.
public struct PlaidTestServerError: Error, CustomStringConvertible, Sendable {
    public let description: String
}
