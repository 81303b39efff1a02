/// An error answered in Plaid's shape (spec `PlaidError`): `error_type`, `error_code`,
/// `error_message`, `display_message`, `request_id`, with the HTTP status Plaid documents for it
/// (plaid.com/docs/errors/*; see ../shared/reference/plaid/plaid_errors.examples.json).
struct PlaidAPIError: Error, Sendable {
    let status: Int
    let type: String
    let code: String
    let message: String
    var displayMessage: String? = nil

    func body(requestID: String?) -> PlaidJSON {
        var members: [String: PlaidJSON] = [
            "error_type": .string(type),
            "error_code": .string(code),
            "error_message": .string(message),
            "display_message": displayMessage.map(PlaidJSON.string) ?? .null,
            "error_code_reason": .null,
            "documentation_url": .string("https://plaid.com/docs/errors/"),
            "suggested_action": .null,
        ]
        if let requestID { members["request_id"] = .string(requestID) }
        return .object(members)
    }

    // MARK: INVALID_REQUEST (400)

    static func missingFields(_ fields: [String]) -> Self {
        .init(
            status: 400, type: "INVALID_REQUEST", code: "MISSING_FIELDS",
            message: "the following required fields are missing: \(fields.joined(separator: ", "))")
    }

    static func unknownFields(_ fields: [String]) -> Self {
        .init(
            status: 400, type: "INVALID_REQUEST", code: "UNKNOWN_FIELDS",
            message: "the following fields are not recognized by this endpoint: \(fields.joined(separator: ", "))")
    }

    static func invalidField(_ message: String) -> Self {
        .init(status: 400, type: "INVALID_REQUEST", code: "INVALID_FIELD", message: message)
    }

    static func invalidBody(_ detail: String) -> Self {
        .init(
            status: 400, type: "INVALID_REQUEST", code: "INVALID_BODY",
            message: "body could not be parsed as JSON (\(detail))")
    }

    static func invalidHeaders(_ message: String) -> Self {
        .init(status: 400, type: "INVALID_REQUEST", code: "INVALID_HEADERS", message: message)
    }

    static func notFound(_ path: String) -> Self {
        .init(status: 404, type: "INVALID_REQUEST", code: "NOT_FOUND", message: "unrecognized endpoint \(path)")
    }

    // MARK: INVALID_INPUT (400)

    static let invalidAPIKeys = Self(
        status: 400, type: "INVALID_INPUT", code: "INVALID_API_KEYS",
        message: "invalid client_id or secret provided")

    static func invalidAccessToken(_ message: String) -> Self {
        .init(status: 400, type: "INVALID_INPUT", code: "INVALID_ACCESS_TOKEN", message: message)
    }

    static func invalidPublicToken(_ message: String) -> Self {
        .init(status: 400, type: "INVALID_INPUT", code: "INVALID_PUBLIC_TOKEN", message: message)
    }

    static func invalidInstitution(_ id: String) -> Self {
        .init(
            status: 400, type: "INVALID_INPUT", code: "INVALID_INSTITUTION",
            message: "invalid institution_id provided: \(id)")
    }

    static let invalidLinkToken = Self(
        status: 400, type: "INVALID_INPUT", code: "INVALID_LINK_TOKEN",
        message: "provided link token is in an invalid format, expired, or already used")

    // MARK: ITEM_ERROR (400)

    static let itemNotFound = Self(
        status: 400, type: "ITEM_ERROR", code: "ITEM_NOT_FOUND",
        message:
            "The Item you requested cannot be found. This Item does not exist, has been previously removed via /item/remove, or has had access removed by the user."
    )

    /// An item error set by the test (`ITEM_LOGIN_REQUIRED`, `PENDING_EXPIRATION`, ...).
    static func item(_ code: String) -> Self {
        switch code {
        case "ITEM_LOGIN_REQUIRED":
            return .init(
                status: 400, type: "ITEM_ERROR", code: code,
                message:
                    "the login details of this item have changed (credentials, MFA, or required user action) and a user login is required to update this information. use Link's update mode to restore the item to a good state",
                displayMessage: "Please update your login credentials.")
        default:
            return .init(status: 400, type: "ITEM_ERROR", code: code, message: "item error \(code)")
        }
    }

    // MARK: TRANSACTIONS_ERROR (400)

    static let mutationDuringPagination = Self(
        status: 400, type: "TRANSACTIONS_ERROR", code: "TRANSACTIONS_SYNC_MUTATION_DURING_PAGINATION",
        message: "Underlying transaction data changed since last page was fetched. Please restart pagination from last update.")

    // MARK: RATE_LIMIT_EXCEEDED (429), INSTITUTION_ERROR (400), API_ERROR (500)

    static func rateLimit(_ code: String) -> Self {
        .init(
            status: 429, type: "RATE_LIMIT_EXCEEDED", code: code,
            message: "rate limit exceeded for attempts to access this item. please try again later")
    }

    static let institutionDown = Self(
        status: 400, type: "INSTITUTION_ERROR", code: "INSTITUTION_DOWN",
        message: "this institution is not currently responding to this request. please try again soon",
        displayMessage: "This financial institution is not currently responding to requests. We apologize for the inconvenience.")

    static let institutionNotResponding = Self(
        status: 400, type: "INSTITUTION_ERROR", code: "INSTITUTION_NOT_RESPONDING",
        message: "this institution is not currently responding to this request. please try again soon",
        displayMessage: "This financial institution is not currently responding to requests. We apologize for the inconvenience.")

    static let internalServerError = Self(
        status: 500, type: "API_ERROR", code: "INTERNAL_SERVER_ERROR",
        message: "an unexpected error occurred", displayMessage: "Internal server error occurred")
}
