import Foundation
import MoneyFlowTestSupport
import Testing

@testable import MoneyFlowServer

#if canImport(Glibc)
    import Glibc
#endif

/// An anonymous client keeps no connection: after a refusal decided from the headers the
/// connection ends (`Connection: close`, the rest of the body never read), and a head that is
/// not complete within the header timeout, or an idle connection, is closed.
@Suite("moneyflow serve: connections end after a refusal and at the header timeout")
struct ConnectionGuardTests {
    @Test("an anonymous upload gets 401 with Connection: close, and the server reads none of the body sent after it")
    func refusedUploadEndsTheConnection() async throws {
        try await InProcessServer.run(live: true) { h in
            let port = try h.port
            let (answer, ended, accepted) = try await RawConnection.run {
                let c = try RawConnection(port: port)
                let declared = 64 << 20
                _ = c.send(RefusedBeforeTheBodyTests.head("/v1/imports?filename=a.csv", token: nil, length: declared))
                let answer = try c.readResponse()
                // The client goes on sending its 64 MiB: the server takes little of it, then resets.
                var accepted = 0
                let chunk = Data(repeating: 0x41, count: 1 << 20)
                while accepted < declared && c.send(chunk) { accepted += chunk.count }
                return (answer, c.endsWithinTimeout(), accepted)
            }
            #expect(answer.status == 401 && answer.headers["connection"] == "close", "\(answer)")
            #expect(ended, "the connection stayed open after the 401")
            // What the kernels' socket buffers take before the server closes; never the whole body.
            #expect(accepted < 32 << 20, "the server read \(accepted) bytes of the body after its 401")
        }
    }

    @Test("a request whose body was read whole keeps its connection (a second request on it is answered)")
    func keepAliveAfterAnAnswer() async throws {
        try await InProcessServer.run(live: true) { h in
            let token = try await h.addUser("alice")
            let port = try h.port
            let (first, second) = try await RawConnection.run {
                let c = try RawConnection(port: port)
                let get = "GET /v1/accounts HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n\r\n"
                _ = c.send(get)
                let first = try c.readResponse()
                _ = c.send(get)
                return (first, try c.readResponse())
            }
            #expect(first.status == 200 && first.headers["connection"] != "close")
            #expect(second.status == 200)
        }
    }

    @Test("a head that never ends, and an idle connection, are closed at the header timeout")
    func headerTimeout() async throws {
        // Long enough that a loaded machine still reads a prompt head in time: the server reads
        // a connection only when its handler task asks, and the whole suite's tests share the
        // cooperative threads those tasks run on (CPU-bound tests held them past 5 s). The raw
        // connection waits up to 45 s for the close.
        let headerTimeout: (inout ServerConfiguration) -> Void = { $0.headerTimeout = .seconds(15) }
        try await InProcessServer.run(live: true, configure: headerTimeout) { h in
            let port = try h.port
            let (trickled, idle) = try await RawConnection.run {
                let c = try RawConnection(port: port)
                _ = c.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                let trickled = c.endsWithinTimeout()
                let d = try RawConnection(port: port)
                _ = d.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                let answer = try d.readResponse()
                return (trickled, answer.status == 200 && d.endsWithinTimeout())
            }
            #expect(trickled, "a connection whose head never ended stayed open")
            #expect(idle, "an idle connection stayed open")
        }
    }

    @Test("a body with a bad chunk size is 400 (not 500) and the connection ends")
    func badChunkedEncoding() async throws {
        try await InProcessServer.run(live: true) { h in
            let token = try await h.addUser("alice")
            let port = try h.port
            let (answer, ended) = try await RawConnection.run {
                let c = try RawConnection(port: port)
                _ = c.send(
                    "POST /v1/links HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n"
                        + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n4\r\n{\"re\r\nzz\r\ncord\r\n")
                let answer = try c.readResponse()
                return (answer, c.endsWithinTimeout())
            }
            #expect(answer.status == 400 && answer.body.contains("bad_request"), "\(answer)")
            #expect(ended)
        }
    }
}
