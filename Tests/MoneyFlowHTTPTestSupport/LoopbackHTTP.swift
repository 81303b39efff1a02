import AsyncHTTPClient
import Foundation
import MoneyFlowTestSupport
import NIOCore
import NIOHTTP1

/// A real HTTP client for the tests' own calls on loopback.
public enum LoopbackHTTP {
    /// Every request goes on a connection of its own. `serve` closes a keep-alive connection
    /// whose next head has not come within 10 s of the previous answer, so a request sent on a
    /// pooled connection at that moment fails with `remoteConnectionClosed`. Closing idle
    /// connections after 5 s on the client's side did not prevent it: on a loaded machine the
    /// client's timer ran late and the server's did not (the whole suite in CI, after a test's
    /// 13 CLI imports between two requests). A fresh loopback connection per request costs
    /// little and leaves no such race.
    static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.maximumUsesPerConnection = 1
        configuration.connectionPool = .init(idleTimeout: .seconds(5))
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    public static func post(_ url: String, body: Data, headers: [String: String] = [:]) async throws -> (Data, Int) {
        try await send(url, method: .POST, body: body, headers: ["Content-Type": "application/json"].merging(headers) { $1 })
    }

    public static func get(_ url: String, headers: [String: String] = [:]) async throws -> (Data, Int) {
        try await send(url, method: .GET, body: nil, headers: headers)
    }

    public static func send(_ url: String, method: HTTPMethod, body: Data?, headers: [String: String] = [:]) async throws -> (Data, Int) {
        var request = HTTPClientRequest(url: url)
        request.method = method
        for (k, v) in headers { request.headers.add(name: k, value: v) }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        let response = try await client.execute(request, timeout: .seconds(120))
        let buffer = try await response.body.collect(upTo: 256 << 20)
        return (Data(buffer.readableBytesView), Int(response.status.code))
    }
}

/// Runs a blocking wait on a child (`body`) on its own thread: the cooperative pool must stay
/// free for the servers the tests run in-process.
public func offPool<T: Sendable>(_ body: @escaping @Sendable () throws(ChildTimeout) -> T) async throws(ChildTimeout) -> T {
    let result = await withCheckedContinuation { (c: CheckedContinuation<Result<T, ChildTimeout>, Never>) in
        Thread { c.resume(returning: Result { () throws(ChildTimeout) in try body() }) }.start()
    }
    return try result.get()
}

/// Waits for a started `moneyflow` process off the pool (see ``offPool(_:)``), at most
/// `timeout` (see ``BinaryChild/wait(timeout:)``).
public func waitOffPool(_ child: BinaryChild, timeout: Duration = ChildWait.commandTimeout) async throws(ChildTimeout) -> BinaryRun {
    try await offPool { () throws(ChildTimeout) in try child.wait(timeout: timeout) }
}
