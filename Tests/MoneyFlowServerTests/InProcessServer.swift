import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import MoneyFlowPlaid

@testable import MoneyFlowServer

/// The server's router in this process (HummingbirdTesting's `.router` setup): the same
/// routes, middleware and ledgers as `moneyflow serve`, without a process, a socket or a
/// port, for the tests of a route's logic. Users are added to its data folder directly.
struct InProcessServer: ServerUnderTest {
    let client: any TestClientProtocol
    let data: String
    let users: UserDirectory

    /// Runs `body` against a router over a new data folder (removed afterwards).
    /// `maxBodyBytes` is `serve --max-body-mib` in bytes; `plaid` what the Plaid variables configure;
    /// `share` the users' shares of the work (a test holds turns in it); `live` serves on a
    /// loopback port (``port``) for tests of connections; `configure` sets other limits.
    static func run<T: Sendable>(
        maxBodyBytes: Int = ServerConfiguration(dataDirectory: "").maxBodyBytes, plaid: PlaidConfiguration? = nil,
        share: FairShare? = nil, live: Bool = false, configure: (inout ServerConfiguration) -> Void = { _ in },
        _ body: @Sendable (InProcessServer) async throws -> T
    ) async throws -> T {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: data) }
        let users = try UserDirectory(dataDirectory: data)
        var logger = Logger(label: "moneyflow.serve.test")
        logger.logLevel = .critical
        var configuration = ServerConfiguration(host: "127.0.0.1", port: 0, dataDirectory: data, maxBodyBytes: maxBodyBytes)
        configure(&configuration)
        let app = MoneyFlowHTTPServer.application(
            configuration: configuration, users: users, plaid: plaid,
            logger: logger, share: share, onRunning: { _ in })
        return try await app.test(live ? .live : .router) { client in
            try await body(InProcessServer(client: client, data: data, users: users))
        }
    }

    func addUser(_ name: String) async throws -> String { try users.add(name: name).token }

    /// The loopback port of a `live` server.
    var port: Int {
        get throws {
            guard let port = client.port else { throw HarnessError("not a live server: run with live: true") }
            return port
        }
    }

    func respond(method: String, path: String, body: Data?, headers: [String: String]) async throws -> (Data, Int) {
        var fields = HTTPFields()
        for (k, v) in headers {
            guard let name = HTTPField.Name(k) else { throw HarnessError("bad header name \(k)") }
            fields[name] = v
        }
        let response = try await client.execute(
            uri: path, method: HTTPRequest.Method(method) ?? .get, headers: fields, body: body.map { ByteBuffer(bytes: $0) })
        return (Data(response.body.readableBytesView), Int(response.status.code))
    }
}
