import Foundation

/// An error body Plaid returned (`PlaidError` in the spec), with the HTTP status it came with.
///
/// Plaid says to branch on `error_code`, not on the HTTP status, and adds codes and types as a
/// non-breaking change: unknown values are kept as strings and classified conservatively.
public struct PlaidAPIError: Error, Sendable, Hashable, CustomStringConvertible {
    public var httpStatus: Int
    public var errorType: String
    public var errorCode: String
    public var errorMessage: String
    public var displayMessage: String?
    public var requestID: String?
    public var errorCodeReason: String?
    /// The endpoint that answered (`/transactions/sync`), for messages.
    public var path: String

    public init(
        httpStatus: Int, errorType: String, errorCode: String, errorMessage: String, displayMessage: String? = nil,
        requestID: String? = nil, errorCodeReason: String? = nil, path: String
    ) {
        self.httpStatus = httpStatus; self.errorType = errorType; self.errorCode = errorCode; self.errorMessage = errorMessage
        self.displayMessage = displayMessage; self.requestID = requestID; self.errorCodeReason = errorCodeReason; self.path = path
    }

    /// What a caller should do about it.
    public enum Handling: String, Sendable {
        /// Wait and try again: rate limits, Plaid's or the institution's outages.
        case retry
        /// The whole `/transactions/sync` update must restart from its first cursor.
        case restartUpdate
        /// The item needs its user (re-login, consent, new accounts): `plaid link --update ITEM`.
        case itemNeedsUser
        /// The item or its token is gone at Plaid.
        case itemGone
        /// A request or configuration problem that retrying cannot fix.
        case fatal
    }

    public var handling: Handling {
        switch errorCode {
        case "TRANSACTIONS_SYNC_MUTATION_DURING_PAGINATION": return .restartUpdate
        case "INSTITUTION_DOWN", "INSTITUTION_NOT_RESPONDING", "INSTITUTION_NOT_AVAILABLE", "INTERNAL_SERVER_ERROR",
            "PLANNED_MAINTENANCE", "PRODUCT_NOT_READY":
            return .retry
        case "ITEM_NOT_FOUND", "INVALID_ACCESS_TOKEN", "USER_PERMISSION_REVOKED", "ITEM_CONCURRENTLY_DELETED": return .itemGone
        default: break
        }
        switch errorType {
        case "RATE_LIMIT_EXCEEDED", "API_ERROR": return .retry
        case "ITEM_ERROR": return .itemNeedsUser
        default: break
        }
        if httpStatus == 429 || httpStatus >= 500 { return .retry }
        return .fatal
    }

    /// One line: code, Plaid's message, the request id (what Plaid support asks for), and what to do.
    public var description: String {
        var s = "Plaid \(path) failed: \(errorCode) (\(errorType), HTTP \(httpStatus)): \(errorMessage)"
        if let requestID { s += " [request_id \(requestID)]" }
        switch handling {
        case .itemNeedsUser: s += "; the bank needs you: run `moneyflow plaid link --update ITEM`"
        case .itemGone: s += "; the item no longer exists at Plaid: link the bank again with `moneyflow plaid link`"
        case .retry: s += "; Plaid or the bank is busy or down: try again later"
        case .restartUpdate, .fatal: break
        }
        return s
    }

    /// Reads a Plaid error body; nil when the bytes are not one.
    static func parse(_ body: Data, status: Int, path: String) -> PlaidAPIError? {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
            let code = object["error_code"] as? String, let type = object["error_type"] as? String
        else { return nil }
        return PlaidAPIError(
            httpStatus: status, errorType: type, errorCode: code, errorMessage: object["error_message"] as? String ?? "",
            displayMessage: object["display_message"] as? String, requestID: object["request_id"] as? String,
            errorCodeReason: object["error_code_reason"] as? String, path: path)
    }
}

/// Plaid could not be reached or answered with something that is not Plaid's JSON.
public struct PlaidTransportError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var problem: String
    /// True when trying again may help (connection refused or reset, timeout, a 5xx page).
    public var retryable: Bool
    /// Plaid could not be reached or did not answer (not a bad answer): every other call now
    /// would fail the same way, so a caller with more items stops rather than wait again.
    public var noAnswer: Bool
    public init(path: String, problem: String, retryable: Bool, noAnswer: Bool = false) {
        self.path = path; self.problem = problem; self.retryable = retryable; self.noAnswer = noAnswer
    }
    public var description: String { "Plaid \(path): \(problem)" }
}
