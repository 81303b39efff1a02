import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Synchronization

/// A small typed client for the Plaid endpoints MoneyFlow uses (API version 2020-09-14), over
/// AsyncHTTPClient (TLS through swift-nio-ssl, so it works the same on Linux and macOS).
///
/// Credentials travel in the `PLAID-CLIENT-ID` / `PLAID-SECRET` headers, never in a body that
/// could be archived, and every message this client produces has the access token of the
/// request replaced, so a token cannot leak through an error. Retries (rate limits, 5xx,
/// institution outages, network errors) follow ``RetryPolicy``; everything else is thrown as
/// ``PlaidAPIError`` or ``PlaidTransportError`` on the first answer.
public struct PlaidClient: Sendable {
    public let configuration: PlaidConfiguration
    public var retry: RetryPolicy
    /// Told before each wait, e.g. to print "rate limited, retrying in 14 s".
    public var onRetry: (@Sendable (String) -> Void)?
    /// Told once, before this client's first request, which host it is about to contact, so a
    /// user waiting on a slow network knows what is being tried.
    public var onFirstContact: (@Sendable (String) -> Void)?
    let http: HTTPClient
    private let contacted = ContactFlag()
    /// Largest response accepted (a sync page of 500 transactions is well under 2 MiB).
    static let maxResponseBytes = 64 << 20

    public init(configuration: PlaidConfiguration, retry: RetryPolicy = .fromEnvironment(), http: HTTPClient = PlaidConnection.http) {
        self.configuration = configuration; self.retry = retry; self.http = http
    }

    // MARK: - Endpoints

    public func createLinkToken(_ request: LinkTokenCreateRequest) async throws -> LinkTokenCreateResponse {
        try decode(try await post("/link/token/create", request, accessToken: request.access_token), path: "/link/token/create")
    }

    /// `/sandbox/public_token/create`: a public token for a sandbox institution, no browser.
    public func sandboxPublicToken(institutionID: String, days: Int) async throws -> String {
        let body = SandboxPublicTokenCreateRequest(
            institution_id: institutionID, options: .init(transactions: .init(days_requested: days)))
        let r: PublicTokenResponse = try decode(try await post("/sandbox/public_token/create", body), path: "/sandbox/public_token/create")
        return r.public_token
    }

    /// `/item/public_token/exchange`: the item's permanent access token and its id.
    public func exchange(publicToken: String) async throws -> (accessToken: String, itemID: String) {
        let data = try await post("/item/public_token/exchange", PublicTokenExchangeRequest(public_token: publicToken), attempts: 1)
        let r: AccessTokenExchangeResponse = try decode(data, path: "/item/public_token/exchange")
        return (r.access_token, r.item_id)
    }

    /// `/accounts/get`, raw: the bytes go to the Plaid importer (accounts, masks, balances).
    public func accounts(accessToken: String) async throws -> Data {
        try await post("/accounts/get", AccessTokenRequest(access_token: accessToken), accessToken: accessToken)
    }

    /// One `/transactions/sync` page, raw. A nil or empty cursor asks for the whole history.
    public func syncPage(accessToken: String, cursor: String?, count: Int = 500) async throws -> Data {
        let c = cursor.flatMap { $0.isEmpty ? nil : $0 }
        return try await post(
            "/transactions/sync", TransactionsSyncRequest(access_token: accessToken, cursor: c, count: count), accessToken: accessToken)
    }

    /// `/transactions/refresh`: asks Plaid to fetch from the bank now (a paid add-on).
    public func refresh(accessToken: String) async throws {
        _ = try await post("/transactions/refresh", AccessTokenRequest(access_token: accessToken), accessToken: accessToken)
    }

    public func item(accessToken: String) async throws -> ItemStatus {
        try decode(try await post("/item/get", AccessTokenRequest(access_token: accessToken), accessToken: accessToken), path: "/item/get")
    }

    /// `/item/remove`: ends the item at Plaid (billing stops, the token stops working).
    public func removeItem(accessToken: String) async throws {
        _ = try await post("/item/remove", AccessTokenRequest(access_token: accessToken), accessToken: accessToken)
    }

    /// `/webhook_verification_key/get`, raw: the public key (a JWK) that verifies webhooks whose
    /// JWT names `keyID`; ``PlaidWebhookVerifier`` reads and caches it.
    public func webhookVerificationKey(keyID: String) async throws -> Data {
        try await post("/webhook_verification_key/get", WebhookVerificationKeyGetRequest(key_id: keyID))
    }

    // MARK: - Transport

    /// Longest wait for one answer from Plaid.
    static let attemptTimeout: Duration = .seconds(90)

    /// POSTs `body` as JSON to `path` and returns the body of a 200 answer, retrying as
    /// ``retry`` says, all within ``PlaidConfiguration/deadline`` when set (no try starts, and
    /// no wait is begun, that would end past it). `attempts` caps the tries for calls that must
    /// not run twice (a public token can be exchanged once). Task cancellation ends the call at
    /// once, the HTTP request included.
    func post<Body: Encodable>(_ path: String, _ body: Body, accessToken: String? = nil, attempts: Int? = nil) async throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let bytes = try encoder.encode(body)
        let maxAttempts = attempts ?? retry.maxAttempts
        let clock = ContinuousClock()
        let end = configuration.deadline.map { clock.now + $0 }
        var attempt = 0
        while true {
            attempt += 1
            let timeout = end.map { min(Self.attemptTimeout, clock.now.duration(to: $0)) } ?? Self.attemptTimeout
            var wait: Duration
            do {
                guard timeout > .zero else { throw outOfTime(path, tries: attempt - 1) }
                return try await send(path, bytes, accessToken: accessToken, timeout: timeout)
            } catch let e as PlaidAPIError where e.handling == .retry && attempt < maxAttempts {
                wait = retry.delay(attempt: attempt, rateLimited: e.httpStatus == 429, unit: Double.random(in: 0..<1))
                guard end.map({ clock.now + wait < $0 }) ?? true else { throw e }
                onRetry?("\(e.errorCode) from \(path); retrying in \(Self.seconds(wait)) (attempt \(attempt + 1) of \(maxAttempts))")
            } catch let e as PlaidTransportError where e.retryable && attempt < maxAttempts {
                wait = retry.delay(attempt: attempt, rateLimited: false, unit: Double.random(in: 0..<1))
                guard end.map({ clock.now + wait < $0 }) ?? true else { throw outOfTime(path, tries: attempt, last: e) }
                onRetry?("\(e.problem); retrying in \(Self.seconds(wait)) (attempt \(attempt + 1) of \(maxAttempts))")
            }
            try await Task.sleep(for: wait)
        }
    }

    /// The call ran out of ``PlaidConfiguration/deadline``.
    private func outOfTime(_ path: String, tries: Int, last: PlaidTransportError? = nil) -> PlaidTransportError {
        let limit = configuration.deadline.map { Self.seconds($0) } ?? "its time"
        return PlaidTransportError(
            path: path,
            problem:
                "\(last?.problem ?? "no answer from \(configuration.baseURL.host ?? "Plaid") in time"); gave up after \(tries) tries within \(limit)",
            retryable: false, noAnswer: last?.noAnswer ?? true)
    }

    private func send(_ path: String, _ body: Data, accessToken: String?, timeout: Duration) async throws -> Data {
        if let onFirstContact, contacted.claim() {
            onFirstContact("contacting Plaid at \(configuration.baseURL.absoluteString) (PLAID_ENV=\(configuration.environmentName))")
        }
        let url = configuration.baseURL.absoluteString + path
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "Plaid-Version", value: PlaidConfiguration.apiVersion)
        request.headers.add(name: "PLAID-CLIENT-ID", value: configuration.clientID)
        request.headers.add(name: "PLAID-SECRET", value: configuration.secret)
        request.headers.add(name: "User-Agent", value: "MoneyFlow")
        request.body = .bytes(ByteBuffer(bytes: body))
        let status: Int
        let data: Data
        do {
            let (whole, fraction) = timeout.components
            let response = try await http.execute(request, timeout: .nanoseconds(whole * 1_000_000_000 + fraction / 1_000_000_000))
            status = Int(response.status.code)
            let buffer = try await response.body.collect(upTo: Self.maxResponseBytes)
            data = Data(buffer.readableBytesView)
        } catch let error where Task.isCancelled || error is CancellationError {
            // The caller went away (AsyncHTTPClient ends a cancelled request with its own error).
            throw CancellationError()
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout || error == .connectTimeout {
            throw PlaidTransportError(
                path: path, problem: "no answer from \(configuration.baseURL.host ?? "Plaid") in time", retryable: true, noAnswer: true)
        } catch {
            if var failure = PlaidConnection.connectFailure(error, url: configuration.baseURL, path: path) {
                failure.noAnswer = true
                throw failure
            }
            throw PlaidTransportError(
                path: path,
                problem: "cannot reach \(configuration.baseURL.host ?? "Plaid"): \(redact(String(describing: error), accessToken))",
                retryable: true, noAnswer: true)
        }
        if status == 200 { return data }
        if var apiError = PlaidAPIError.parse(data, status: status, path: path) {
            apiError.errorMessage = redact(apiError.errorMessage, accessToken)
            throw apiError
        }
        throw PlaidTransportError(
            path: path, problem: "HTTP \(status) without a Plaid error body", retryable: status == 429 || status >= 500)
    }

    private func decode<T: Decodable>(_ data: Data, path: String) throws -> T {
        do { return try JSONDecoder().decode(T.self, from: data) } catch {
            throw PlaidTransportError(path: path, problem: "unexpected response (\(Self.describe(error)))", retryable: false)
        }
    }

    private func redact(_ text: String, _ token: String?) -> String {
        var out = text.replacingOccurrences(of: configuration.secret, with: "[secret]")
        if let token, !token.isEmpty { out = out.replacingOccurrences(of: token, with: "[access token]") }
        return out
    }

    static func describe(_ error: Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): return "field '\(key.stringValue)' missing"
        case DecodingError.typeMismatch(_, let c), DecodingError.valueNotFound(_, let c):
            return "field '\(c.codingPath.map(\.stringValue).joined(separator: "."))' has the wrong type"
        default: return "not JSON"
        }
    }

    static func seconds(_ d: Duration) -> String {
        let ms = d.components.seconds * 1000 + d.components.attoseconds / 1_000_000_000_000_000
        return ms >= 10_000 ? "\(ms / 1000) s" : String(format: "%.1f s", Double(ms) / 1000)
    }
}

/// Set once, by the first request of a client and its copies (see ``PlaidClient/onFirstContact``).
final class ContactFlag: Sendable {
    private let flag = Mutex(false)
    /// True for the first caller only.
    func claim() -> Bool { flag.withLock { done in defer { done = true }; return !done } }
}
