import Foundation
import MoneyFlowHTTPTestSupport
import MoneyFlowTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A real `moneyflow serve` on 127.0.0.1 (any free port) over a temporary data folder, with
/// users made by the real `moneyflow users add`; stopped with SIGTERM at the end.
final class ServeHarness: ServerUnderTest, @unchecked Sendable {
    let data: String
    let child: BinaryChild
    let baseURL: String

    /// `data`: an existing data folder (a restart), else a new one.
    static func start(env: [String: String] = [:], extraArgs: [String] = [], data existing: String? = nil) async throws -> ServeHarness {
        let data = existing ?? FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        let child = try MoneyFlowBinary.spawn(["serve", "--listen", "127.0.0.1:0", "--data", data] + extraArgs, env: env)
        let url: String?
        do throws(ChildTimeout) { url = try await offPool { () throws(ChildTimeout) in try child.listeningURL() } } catch {
            _ = try? await waitOffPool(child)
            throw error
        }
        guard let url else {
            let run = try await waitOffPool(child)
            throw HarnessError("serve did not start: \(run.stderr)")
        }
        return ServeHarness(data: data, child: child, baseURL: url)
    }

    private init(data: String, child: BinaryChild, baseURL: String) {
        self.data = data; self.child = child; self.baseURL = baseURL
    }

    /// SIGTERM, then the process's own exit (graceful shutdown); the data folder is removed
    /// unless `keepData` (to start the server again on it). A server that has not ended a
    /// minute after SIGTERM is killed and fails the test (it does not hang the run).
    @discardableResult
    func stop(keepData: Bool = false) async -> BinaryRun {
        kill(child.pid, SIGTERM)
        let run: BinaryRun
        do throws(ChildTimeout) { run = try await waitOffPool(child, timeout: ChildWait.stopTimeout) } catch {
            Issue.record("\(error)")
            run = error.run ?? BinaryRun(status: -1, signal: SIGKILL, maxRSSKiB: 0, stdout: "", stderr: "")
        }
        if !keepData { try? FileManager.default.removeItem(atPath: data) }
        return run
    }

    /// `moneyflow users add NAME --data DIR`: the token is the last line of stdout.
    func addUser(_ name: String) async throws -> String {
        let run = try await waitOffPool(try MoneyFlowBinary.spawn(["users", "add", name, "--data", data]))
        guard run.status == 0, let token = run.stdout.split(separator: "\n").last.map(String.init), !token.isEmpty else {
            throw HarnessError("users add failed: \(run.stderr)")
        }
        return token
    }

    func respond(method: String, path: String, body: Data?, headers: [String: String]) async throws -> (Data, Int) {
        try await LoopbackHTTP.send(baseURL + path, method: .init(rawValue: method), body: body, headers: headers)
    }
}
