import Foundation
import Hummingbird
import MoneyFlowImporters

/// The launcher's four routes and their checks. Anything else is a 404.
///
/// - `GET /?s=NONCE`: the page, with the link token and the nonce.
/// - `GET /oauth-return?...`: the page for Link's OAuth redirect. Plaid appends its own query
///   (`oauth_state_id`) to a redirect URI fixed in advance, so the nonce cannot be in that URL;
///   this page therefore carries neither the token nor the nonce, and its script takes both from
///   the tab's sessionStorage, where the first page left them.
/// - `POST /public-token`, `POST /exit`: JSON with `s` = the nonce; the first one that passes
///   ends the session, later ones get 409.
struct LinkLauncherRoutes: Sendable {
    static let oauthReturnPath = "/oauth-return"
    /// Link's metadata is a few KB; anything near this is not from our page.
    static let maxBodyBytes = 256 * 1024

    let linkToken: String
    let nonce: String
    let sink: AsyncStream<LinkLauncherEvent>.Continuation
    let gate = LinkSessionGate()

    func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/") { request, _ in
            guard Self.isLoopbackHost(request) else { return Self.plain(.forbidden, "forbidden") }
            // Without the nonce the page does not exist, as far as anyone asking can tell.
            guard LinkNonce.matches(request.uri.queryParameters["s"], nonce) else { return Self.plain(.notFound, "not found") }
            return LinkLauncherPage.response(.start(linkToken: linkToken, nonce: nonce))
        }
        router.get(RouterPath(Self.oauthReturnPath)) { request, _ in
            guard Self.isLoopbackHost(request) else { return Self.plain(.forbidden, "forbidden") }
            return LinkLauncherPage.response(.oauthReturn)
        }
        router.post("/public-token") { request, _ in
            try await handle(request) { body in
                guard let token = body["public_token"]?.stringValue, Self.isPlausibleToken(token) else {
                    return .rejected(Self.plain(.badRequest, "public_token missing or malformed"))
                }
                let metadata = body["metadata"].flatMap { $0.isNull ? nil : Data($0.serialized().utf8) }
                return .decisive(.publicToken(LinkResult(publicToken: token, metadataJSON: metadata)))
            }
        }
        router.post("/exit") { request, _ in
            try await handle(request) { body in
                .decisive(.exited(reason: LinkExitReason.describe(error: body["error"], metadata: body["metadata"])))
            }
        }
        return router
    }

    private enum Verdict {
        case decisive(LinkLauncherEvent)
        case rejected(Response)
    }

    /// The checks both POSTs share: loopback Host, JSON content type (which a cross-site form
    /// cannot send without a CORS preflight we never answer), size, the nonce; then at most one
    /// decisive event per run.
    private func handle(_ request: Request, _ decide: (JSONValue) -> Verdict) async throws -> Response {
        guard Self.isLoopbackHost(request) else { return Self.plain(.forbidden, "forbidden") }
        guard let type = request.headers[.contentType], type.lowercased().hasPrefix("application/json") else {
            return Self.plain(.unsupportedMediaType, "expected application/json")
        }
        var request = request
        let buffer = try await request.collectBody(upTo: Self.maxBodyBytes)
        guard let body = try? JSONParser.parse(Data(buffer.readableBytesView)), body.objectValue != nil else {
            return Self.plain(.badRequest, "expected a JSON object")
        }
        guard LinkNonce.matches(body["s"]?.stringValue.map { Substring($0) }, nonce) else {
            return Self.plain(.forbidden, "forbidden")
        }
        switch decide(body) {
        case .rejected(let response):
            return response
        case .decisive(let event):
            guard gate.claim() else { return Self.plain(.conflict, "this link session has already ended") }
            sink.yield(event)
            return Self.plain(.ok, "received")
        }
    }

    /// A DNS-rebinding page reaches us with its own host name in `Host`; our page never does.
    static func isLoopbackHost(_ request: Request) -> Bool {
        guard let authority = request.head.authority else { return false }
        let host = authority.split(separator: ":", maxSplits: 1).first.map { $0.lowercased() } ?? ""
        return host == "127.0.0.1" || host == "localhost"
    }

    /// Plaid's public tokens are `public-<env>-<uuid>`; accept any short printable token
    /// without spaces rather than that exact shape, but nothing that could smuggle control
    /// characters into later requests or messages.
    static func isPlausibleToken(_ token: String) -> Bool {
        !token.isEmpty && token.utf8.count <= 512 && token.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7F }
    }

    static func plain(_ status: HTTPResponse.Status, _ text: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/plain; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: text + "\n")))
    }
}

/// Lets exactly one POST end the session, whichever handler gets there first.
final class LinkSessionGate: @unchecked Sendable {
    private let lock = NSLock()
    private var claimed = false

    func claim() -> Bool {
        lock.lock(); defer { lock.unlock() }
        if claimed { return false }
        claimed = true
        return true
    }
}

/// Turns Link's `onExit(error, metadata)` into one printable line.
enum LinkExitReason {
    static func describe(error: JSONValue?, metadata: JSONValue?) -> String {
        let text: String
        if let error, !error.isNull {
            let code = error["error_code"]?.stringValue ?? "UNKNOWN_ERROR"
            let message = error["display_message"]?.stringValue ?? error["error_message"]?.stringValue
            text = "Plaid Link reported \(code)" + (message.map { ": \($0)" } ?? "")
        } else {
            let status = metadata?["status"]?.stringValue
            text = "Link was closed before a bank was linked" + (status.map { " (last step: \($0))" } ?? "")
        }
        return printable(text)
    }

    /// The reason reaches a terminal: control characters (escape sequences) become spaces and
    /// the length is capped, whatever the page sent.
    static func printable(_ s: String, limit: Int = 300) -> String {
        var out = String(
            String.UnicodeScalarView(
                s.unicodeScalars.map { scalar in
                    scalar.properties.generalCategory == .control || scalar.value == 0x2028 || scalar.value == 0x2029 ? " " : scalar
                }))
        if out.count > limit { out = String(out.prefix(limit)) + "…" }
        return out
    }
}
