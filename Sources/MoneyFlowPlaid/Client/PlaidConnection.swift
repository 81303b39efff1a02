import AsyncHTTPClient
import Foundation
import NIOCore
import NIOPosix

/// How the Plaid client connects, and what a failed connection means to a user.
///
/// AsyncHTTPClient's shared client waits up to 90 s to connect and, meanwhile, retries a failed
/// connection (a DNS failure included) with backoff until that deadline; with our own retries on
/// top, a machine without network sat silent for over 400 s. Plaid's client instead connects
/// within ``connectTimeout``, fails a request as soon as its connection cannot be made, and
/// tells a host that does not resolve or refuses the connection from a slow network: those
/// two are not retried (the name will not resolve, or the port open, in the next seconds), a
/// connection that times out is, within ``RetryPolicy``'s bounds.
public enum PlaidConnection {
    /// Longest wait for a TCP (and TLS) connection to Plaid.
    public static let connectTimeout: TimeAmount = .seconds(10)

    /// The HTTP client every ``PlaidClient`` uses unless given another: the shared client's
    /// browser-like settings with a bounded connect and no silent connection retries. Never shut
    /// down (like ``HTTPClient/shared``), so it is made once per process.
    public static let http: HTTPClient = {
        var configuration = HTTPClient.Configuration.singletonConfiguration
        configuration.timeout.connect = connectTimeout
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    /// The failure to make a connection to `url`, in a user's words, or nil when `error` is not one.
    static func connectFailure(_ error: Error, url: URL, path: String) -> PlaidTransportError? {
        let host = url.host ?? "Plaid"
        let place = url.port.map { "\(host):\($0)" } ?? host
        let setting = "check the network connection and PLAID_ENV (\(url.absoluteString))"
        if let e = error as? NIOConnectionError {
            if e.connectionErrors.isEmpty, let dns = e.dnsAError ?? e.dnsAAAAError {
                return PlaidTransportError(
                    path: path, problem: "cannot find Plaid's host \(host) (DNS lookup failed: \(dns)); \(setting)", retryable: false)
            }
            if !e.connectionErrors.isEmpty, e.connectionErrors.allSatisfy({ isRefused($0.error) }) {
                return PlaidTransportError(path: path, problem: "\(place) refused the connection; \(setting)", retryable: false)
            }
        }
        if isRefused(error) { return PlaidTransportError(path: path, problem: "\(place) refused the connection; \(setting)", retryable: false) }
        if let e = error as? HTTPClientError, e == .connectTimeout {
            return PlaidTransportError(
                path: path, problem: "no connection to \(place) within \(connectTimeout.nanoseconds / 1_000_000_000) s; \(setting)",
                retryable: true)
        }
        return nil
    }

    static func isRefused(_ error: Error) -> Bool {
        guard let io = error as? IOError else { return false }
        return io.errnoCode == ECONNREFUSED
    }
}
