import Foundation

// The request and response bodies MoneyFlow uses, as the 2020-09-14 spec names their fields.
// Responses are decoded tolerantly: only the fields we use, enums kept as strings (Plaid adds
// enum values without notice). Transaction data is never decoded here: the raw sync pages go
// to the Plaid importer, which reads amounts exactly from their JSON text.

/// `/link/token/create`: a new item (`products`) or update mode (`access_token`, no products).
public struct LinkTokenCreateRequest: Encodable, Sendable {
    public struct User: Encodable, Sendable { public var client_user_id: String }
    public struct Transactions: Encodable, Sendable { public var days_requested: Int }
    public struct Update: Encodable, Sendable { public var account_selection_enabled: Bool }
    public var client_name = "MoneyFlow"
    public var language = "en"
    public var country_codes: [String]
    public var user: User
    public var products: [String]?
    public var transactions: Transactions?
    public var access_token: String?
    public var update: Update?
    public var redirect_uri: String?

    /// A token for linking a new item with the transactions product and `days` of history.
    public static func newItem(userID: String, days: Int, countryCodes: [String], redirectURI: String?) -> LinkTokenCreateRequest {
        LinkTokenCreateRequest(
            country_codes: countryCodes, user: User(client_user_id: userID), products: ["transactions"],
            transactions: Transactions(days_requested: days), redirect_uri: redirectURI)
    }

    /// Update mode for an existing item: re-login, with account selection so newly opened
    /// accounts can be added.
    public static func update(accessToken: String, userID: String, countryCodes: [String], redirectURI: String?) -> LinkTokenCreateRequest {
        LinkTokenCreateRequest(
            country_codes: countryCodes, user: User(client_user_id: userID), access_token: accessToken,
            update: Update(account_selection_enabled: true), redirect_uri: redirectURI)
    }
}

public struct LinkTokenCreateResponse: Decodable, Sendable {
    public var link_token: String
    public var expiration: String?
}

/// `/sandbox/public_token/create`: an item without a browser (sandbox only).
struct SandboxPublicTokenCreateRequest: Encodable, Sendable {
    struct Options: Encodable, Sendable {
        struct Transactions: Encodable, Sendable { var days_requested: Int }
        var transactions: Transactions
    }
    var institution_id: String
    var initial_products = ["transactions"]
    var options: Options
}

struct PublicTokenResponse: Decodable, Sendable { var public_token: String }
struct PublicTokenExchangeRequest: Encodable, Sendable { var public_token: String }
struct AccessTokenExchangeResponse: Decodable, Sendable {
    var access_token: String
    var item_id: String
}

/// The body of every call that names only an item.
struct AccessTokenRequest: Encodable, Sendable { var access_token: String }

/// `/transactions/sync` at most 500 changes per page (Plaid's maximum, and its advice).
struct TransactionsSyncRequest: Encodable, Sendable {
    var access_token: String
    var cursor: String?
    var count: Int
}

/// The fields of a sync page the loop steers by (the page itself goes to the importer).
struct TransactionsSyncPageHead: Decodable, Sendable {
    struct Change: Decodable, Sendable {}
    var next_cursor: String
    var has_more: Bool
    var transactions_update_status: String?
    var added: [Change]
    var modified: [Change]
    var removed: [Change]
    var changeCount: Int { added.count + modified.count + removed.count }
}

/// `/item/get`: the institution, the item's error, and how fresh its transactions are.
public struct ItemStatus: Decodable, Sendable {
    public struct Item: Decodable, Sendable {
        public var item_id: String
        public var institution_id: String?
        public var institution_name: String?
        public var error: ErrorBody?
    }
    public struct ErrorBody: Decodable, Sendable {
        public var error_type: String?
        public var error_code: String?
        public var error_message: String?
    }
    public struct Status: Decodable, Sendable {
        public struct Transactions: Decodable, Sendable {
            public var last_successful_update: String?
            public var last_failed_update: String?
        }
        public var transactions: Transactions?
    }
    public var item: Item
    public var status: Status?
}
