import Foundation

/// Where and as whom MoneyFlow talks to Plaid, read from the environment only, so the client
/// id and secret never pass through argv, the shell history or a config file in the repo.
///
/// - `PLAID_CLIENT_ID`, `PLAID_SECRET`: the dashboard's keys (sandbox or production secret).
/// - `PLAID_ENV`: `sandbox`, `production`, or a base URL (`http://127.0.0.1:8080`) for a proxy
///   or the offline test server. Plaid's spec names only those two hosts; `development` was
///   retired by Plaid in 2024 and is refused with that explanation.
public struct PlaidConfiguration: Sendable {
    public var clientID: String
    /// The API secret. Kept out of `description` so logging a configuration cannot leak it.
    public var secret: String
    public var baseURL: URL
    /// `sandbox`, `production` or `custom` (a base URL was given).
    public var environmentName: String
    /// The longest one call to Plaid may take, its retries and their waits included (`serve
    /// --plaid-timeout`); nil: bounded by ``RetryPolicy`` alone (6 tries of up to 90 s each,
    /// which a person at a terminal can interrupt, a server's client cannot).
    public var deadline: Duration?

    /// The API version every request pins with the `Plaid-Version` header.
    public static let apiVersion = "2020-09-14"

    public init(clientID: String, secret: String, baseURL: URL, environmentName: String) {
        self.clientID = clientID; self.secret = secret; self.baseURL = baseURL; self.environmentName = environmentName
    }

    /// True when `/sandbox/...` endpoints exist at this base URL (sandbox or a custom URL,
    /// which may be a sandbox proxy or the test server).
    public var allowsSandboxEndpoints: Bool { environmentName != "production" }

    /// Reads `PLAID_CLIENT_ID`, `PLAID_SECRET` and `PLAID_ENV`.
    public static func fromEnvironment(_ env: [String: String] = ProcessInfo.processInfo.environment) throws -> PlaidConfiguration {
        func required(_ name: String) throws -> String {
            guard let v = env[name]?.trimmingCharacters(in: .whitespacesAndNewlines), !v.isEmpty else {
                throw PlaidConfigurationError(
                    "\(name) is not set; export PLAID_CLIENT_ID, PLAID_SECRET and PLAID_ENV (sandbox, production or a base URL) from your Plaid dashboard keys"
                )
            }
            return v
        }
        let clientID = try required("PLAID_CLIENT_ID")
        let secret = try required("PLAID_SECRET")
        let env = try required("PLAID_ENV")
        switch env.lowercased() {
        case "sandbox":
            return PlaidConfiguration(
                clientID: clientID, secret: secret, baseURL: URL(string: "https://sandbox.plaid.com")!, environmentName: "sandbox")
        case "production":
            return PlaidConfiguration(
                clientID: clientID, secret: secret, baseURL: URL(string: "https://production.plaid.com")!,
                environmentName: "production")
        case "development":
            throw PlaidConfigurationError("PLAID_ENV=development: Plaid retired the Development environment; use sandbox or production")
        default:
            guard let url = URL(string: env), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
                url.host != nil, url.query == nil
            else {
                throw PlaidConfigurationError(
                    "PLAID_ENV '\(env)' is neither sandbox, production nor an http(s) base URL like http://127.0.0.1:8080")
            }
            let trimmed = env.hasSuffix("/") ? String(env.dropLast()) : env
            return PlaidConfiguration(clientID: clientID, secret: secret, baseURL: URL(string: trimmed)!, environmentName: "custom")
        }
    }
}

/// A missing or malformed Plaid setting in the environment.
public struct PlaidConfigurationError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}
