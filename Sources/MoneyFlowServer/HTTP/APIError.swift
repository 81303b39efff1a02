import Foundation
import Hummingbird
import MoneyFlowCore
import MoneyFlowImporters
import MoneyFlowPipeline
import MoneyFlowPlaid
import MoneyFlowStore
import NIOCore
import NIOHTTP1

/// An error as the API answers it: `{"error": {"code", "message"}}` with its HTTP status.
struct APIError: Error, Sendable {
    var status: HTTPResponse.Status
    var code: String
    var message: String
    /// What the server's log says instead of `message` when the reply must say less (a
    /// server-side fault whose details name the server's files).
    var logDetail: String?
    /// Seconds after which the client may try again (`Retry-After`, with 429 and 503).
    var retryAfter: Int?

    init(_ status: HTTPResponse.Status, _ code: String, _ message: String, logDetail: String? = nil, retryAfter: Int? = nil) {
        self.status = status; self.code = code; self.message = message; self.logDetail = logDetail; self.retryAfter = retryAfter
    }

    static func badRequest(_ message: String) -> APIError { APIError(.badRequest, "bad_request", message) }
    static func notFound(_ message: String = "no such resource") -> APIError { APIError(.notFound, "not_found", message) }
    static let unauthorized = APIError(
        .unauthorized, "unauthorized", "missing or unknown API token; send Authorization: Bearer <token> (moneyflow users add)")

    var response: Response {
        let body = JSONOutput.object([
            ("error", .object([("code", .string(code)), ("message", .string(message.replacingOccurrences(of: "\n", with: " ")))]))
        ])
        var r = JSONResponse.make(body, status: status)
        if status == .unauthorized { r.headers[.wwwAuthenticate] = "Bearer" }
        if let retryAfter { r.headers[.retryAfter] = String(retryAfter) }
        return r
    }

    /// The API's answer for any error a handler let through. Library errors carry their own
    /// one-line messages; anything unexpected is a 500 whose details stay in the log.
    static func from(_ error: any Error) -> APIError? {
        switch error {
        case let e as APIError: return e
        case let e as ImportError: return APIError(.unprocessableContent, "import_failed", HTTPAdvice.message(for: e))
        case let e as StoreError:
            let message = HTTPAdvice.rewrite(e.message)
            return e.isNotFound ? .notFound(message) : APIError(.conflict, "store_refused", message)
        case let e as ProfileError: return APIError(.badRequest, "invalid_profile", e.description)
        case let e as PlaidAPIError:
            // What the app sent (a bad public token, a redirect URI Plaid refuses) is the app's
            // error; Plaid refusing our own keys or tokens is the server's.
            if (e.errorType == "INVALID_REQUEST" || e.errorType == "INVALID_INPUT") && e.errorCode != "INVALID_API_KEYS"
                && e.errorCode != "INVALID_ACCESS_TOKEN"
            {
                return APIError(.badRequest, "plaid_rejected_request", e.description)
            }
            return APIError(.badGateway, "plaid_error", e.description)
        case let e as PlaidTransportError: return APIError(.badGateway, "plaid_unreachable", e.description)
        case let e as PlaidServiceError:
            let message = HTTPAdvice.message(for: e)
            return e.isNotFound ? .notFound(message) : APIError(.badRequest, "plaid_refused", message)
        case let e as PlaidConfigurationError: return APIError(.serviceUnavailable, "plaid_not_configured", e.description)
        case let e as VaultError:
            // The key file is the operator's to fix; its path and the CLI's remedy go to the log.
            return APIError(
                .serviceUnavailable, "plaid_key_unavailable",
                "the server cannot open its Plaid key; its operator must restore the key file (see the server's log)",
                logDetail: e.description)
        case is NIOTooManyBytesError: return BodyCap.tooLarge
        case let e as HTTPParserError:
            // A body that breaks HTTP (a bad chunk size) is the client's error; the connection
            // then ends (``ConnectionGuard``: the body was not read whole).
            return APIError.badRequest("the request is not valid HTTP/1.1 (\(e)); check its chunked encoding or Content-Length")
        case let e as HTTPError:
            switch e.status {
            case .contentTooLarge: return BodyCap.tooLarge
            case .notFound: return .notFound("no such route")
            case .methodNotAllowed: return APIError(.methodNotAllowed, "method_not_allowed", "this route does not take that method")
            default: return APIError(e.status, e.status.code < 500 ? "bad_request" : "internal", e.body ?? e.status.reasonPhrase)
            }
        default: return nil
        }
    }
}

/// JSON responses rendered from the same ``JSONOutput`` contracts the CLI prints.
enum JSONResponse {
    static func make(_ json: JSONOutput, status: HTTPResponse.Status = .ok) -> Response {
        var buffer = ByteBuffer()
        buffer.writeString(json.render())
        return Response(status: status, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: buffer))
    }
}
