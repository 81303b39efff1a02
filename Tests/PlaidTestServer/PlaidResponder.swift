import Foundation
import Hummingbird
import NIOCore

/// The HTTP side: every request goes through the checks Plaid makes, in this order, before an
/// endpoint sees it; every request and the status answered are recorded for the tests.
///
/// 1. `POST` to a known path (else 404 `NOT_FOUND`);
/// 2. header `Plaid-Version: 2020-09-14` (else `INVALID_HEADERS`: the client must pin the
///    version the server implements rather than get the dashboard's default);
/// 3. `Content-Type: application/json` and a JSON object body (else `INVALID_BODY`);
/// 4. `client_id` and `secret` in the body or the `PLAID-CLIENT-ID` / `PLAID-SECRET` headers
///    (missing: `MISSING_FIELDS`; wrong: `INVALID_API_KEYS`);
/// 5. the body against the endpoint's request schema from the spec (`PlaidSchemas`);
/// 6. the endpoint (`Endpoints`), which also applies injected failures, rate limits and item errors.
/// A request matching a `holdNext` waits before step 1 until the test releases it.
struct PlaidResponder: HTTPResponder {
    typealias Context = BasicRequestContext

    let state: ServerState
    /// Set once the server runs; a weak link so a dropped server is not kept alive by its responder.
    let owner: WeakServer

    static let apiVersion = "2020-09-14"
    static let maxBody = 1 << 20

    func respond(to request: Request, context: Context) async throws -> Response {
        let path = request.uri.path
        var request = request
        let body = Array(buffer: try await request.collectBody(upTo: Self.maxBody))
        var headers: [String: String] = [:]
        for field in request.headers { headers[field.name.canonicalName.lowercased(), default: ""] += field.value }
        let requestID = Identifiers.requestID()
        let token = (try? PlaidJSON.parse(body))?["access_token"]?.stringValue
        if let hold = state.locked({ s in s.takeHold(path: path, accessToken: token) }) { await hold.hold() }

        let status: Int
        let json: PlaidJSON
        var after: ServerChange?
        do {
            var members = try answer(method: request.method, path: path, headers: headers, body: body)
            after = members.after
            members.members["request_id"] = .string(requestID)
            (status, json) = (200, .object(members.members))
        } catch {
            (status, json) = (error.status, error.body(requestID: requestID))
        }
        state.locked { s in s.recorded.append(RecordedRequest(path: path, headers: headers, body: body, status: status)) }
        if let after, let server = owner.server {
            // A test's change meant to land between two pages; a failure there is a test bug.
            do { try after(server) } catch { print("PlaidTestServer: mutateDuringNextPagination change failed: \(error)") }
        }
        return Response(
            status: HTTPResponse.Status(code: status),
            headers: [.contentType: "application/json; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: json.serialized())))
    }

    private func answer(method: HTTPRequest.Method, path: String, headers: [String: String], body: [UInt8]) throws(PlaidAPIError)
        -> Endpoints.Answer
    {
        let validator = PlaidSchemas.spec
        guard method == .post, validator.paths.contains(path) else { throw .notFound(path) }
        guard let version = headers["plaid-version"] else {
            throw .invalidHeaders("the Plaid-Version header is missing; this server implements \(Self.apiVersion)")
        }
        guard version == Self.apiVersion else {
            throw .invalidHeaders("Plaid-Version \(version) is not supported; this server implements \(Self.apiVersion)")
        }
        guard let contentType = headers["content-type"]?.lowercased(),
            contentType.split(separator: ";").first?.trimmingCharacters(in: .whitespaces) == "application/json"
        else { throw .invalidBody("Content-Type must be application/json") }
        let json: PlaidJSON
        do { json = try PlaidJSON.parse(body) } catch { throw .invalidBody("\(error.reason) at byte \(error.offset)") }
        guard case .object = json else { throw .invalidBody("the body must be a JSON object") }

        let clientID = json["client_id"]?.stringValue ?? headers["plaid-client-id"]
        let secret = json["secret"]?.stringValue ?? headers["plaid-secret"]
        let missing = [("client_id", clientID), ("secret", secret)].filter { $0.1 == nil }.map(\.0)
        guard missing.isEmpty else { throw .missingFields(missing) }
        guard clientID == state.clientID, secret == state.secret else { throw .invalidAPIKeys }

        if let problem = validator.problem(in: json, path: path) { throw problem }
        return try state.locked { (s) throws(PlaidAPIError) in
            if ["/link/token/create", "/sandbox/public_token/create", "/item/public_token/exchange", "/webhook_verification_key/get"]
                .contains(path),
                let failure = s.takeFailure(path: path, itemID: nil)
            {
                throw failure
            }
            return try Endpoints.handle(path, json, s)
        }
    }
}

/// The server as its responder sees it: set after start, never retained.
final class WeakServer: @unchecked Sendable {
    private let lock = NSLock()
    private weak var _server: PlaidTestServer?

    var server: PlaidTestServer? {
        get { lock.withLock { _server } }
        set { lock.withLock { _server = newValue } }
    }
}
