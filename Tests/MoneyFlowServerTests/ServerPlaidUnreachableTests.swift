import Foundation
import MoneyFlowHTTPTestSupport
import MoneyFlowTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `moneyflow serve` when Plaid accepts connections and never answers (issue #28, item 6): a
/// request ends within `--plaid-timeout`, a client that leaves takes its Plaid call with it,
/// and SIGTERM ends the server within 15 s with a Plaid call in flight.
@Suite("moneyflow serve: an unreachable Plaid", .serialized)
struct ServerPlaidUnreachableTests {
    static func environment(_ silent: SilentServer) -> [String: String] {
        [
            "PLAID_CLIENT_ID": "test-client-id", "PLAID_SECRET": "test-secret", "PLAID_ENV": silent.baseURL,
            "MONEYFLOW_KEY_FILE": FileManager.default.temporaryDirectory.appendingPathComponent("no-key-\(UUID().uuidString)").path,
            "MONEYFLOW_PLAID_BACKOFF_MS": "200",
        ]
    }

    /// Waits (bounded) until `condition` holds.
    static func eventually(_ seconds: Int = 20, _ condition: () -> Bool) async throws -> Bool {
        for _ in 0..<(seconds * 20) {
            if condition() { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return condition()
    }

    @Test("a request needing Plaid fails with 502 plaid_unreachable within --plaid-timeout, retries included")
    func failsWithinTheDeadline() async throws {
        let silent = try SilentServer()
        defer { silent.stop() }
        let h = try await ServeHarness.start(env: Self.environment(silent), extraArgs: ["--plaid-timeout", "5s"])
        let token = try await h.addUser("alice")
        let started = ContinuousClock.now
        let r = try await h.send("POST", "/v1/plaid/link-token", token: token, body: Data("{}".utf8))
        let took = ContinuousClock.now - started
        #expect(r.status == 502, "\(r.text)")
        #expect(((r.json as? [String: Any])?["error"] as? [String: Any])?["code"] as? String == "plaid_unreachable", "\(r.text)")
        #expect(r.text.contains("gave up after"), "\(r.text)")
        #expect(took < .seconds(20), "took \(took)")
        await h.stop()
    }

    @Test("a client that leaves cancels its Plaid call: the connection to Plaid closes long before the deadline")
    func departureCancels() async throws {
        let silent = try SilentServer()
        defer { silent.stop() }
        let h = try await ServeHarness.start(env: Self.environment(silent), extraArgs: ["--plaid-timeout", "2m"])
        let token = try await h.addUser("alice")
        let request = Task { _ = try await h.send("POST", "/v1/plaid/link-token", token: token, body: Data("{}".utf8)) }
        #expect(try await Self.eventually { silent.received > 0 }, "the call reached Plaid")
        request.cancel()
        _ = await request.result
        #expect(try await Self.eventually { silent.closed > 0 }, "the Plaid call was not cancelled")
        await h.stop()
    }

    @Test("SIGTERM with a Plaid call in flight: the server exits within 15 s")
    func sigtermWithACallInFlight() async throws {
        let silent = try SilentServer()
        defer { silent.stop() }
        let h = try await ServeHarness.start(env: Self.environment(silent), extraArgs: ["--plaid-timeout", "5m"])
        let token = try await h.addUser("alice")
        let request = Task { _ = try? await h.send("POST", "/v1/plaid/link-token", token: token, body: Data("{}".utf8)) }
        #expect(try await Self.eventually { silent.received > 0 }, "the call reached Plaid")
        let started = ContinuousClock.now
        let stopped = await h.stop()
        let took = ContinuousClock.now - started
        #expect(stopped.signal == 0, "\(stopped.stderr)")
        #expect(took <= .seconds(15), "took \(took)")
        request.cancel()
    }
}
