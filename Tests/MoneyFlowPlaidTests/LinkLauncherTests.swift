import AsyncHTTPClient
import Foundation
import MoneyFlowImporters
import NIOCore
import Testing

@testable import MoneyFlowPlaid

#if canImport(Glibc)
    import Glibc
#endif

/// The Link launcher over real HTTP on loopback: what the page carries, who may post to it, and
/// how each way a Link session ends reaches `LinkLauncher.run`. Every test ends its server and
/// checks the port is closed afterwards.
@Suite struct LinkLauncherTests {
    static let linkToken = "link-sandbox-0a1b2c3d-4e5f-6789-abcd-ef0123456789"
    static let publicToken = "public-sandbox-5c224a01-8314-4491-a06f-39e193d5cddc"

    @Test func pageCarriesTokenNonceAndPlaidScriptBehindItsCSP() async throws {
        let link = try await Launched.start()
        let page = try await HTTP.get(link.url)
        #expect(page.status == 200)
        #expect(page.header("content-type")?.hasPrefix("text/html") == true)
        #expect(page.body.contains(#"data-link-token="\#(Self.linkToken)""#))
        #expect(page.body.contains(#"data-session="\#(link.nonce)""#))
        #expect(page.body.contains(#"<script src="https://cdn.plaid.com/link/v2/stable/link-initialize.js""#))
        #expect(page.body.contains("Plaid.create(config).open()"))
        #expect(page.body.contains("'/public-token'") && page.body.contains("'/exit'"))
        let csp = try #require(page.header("content-security-policy"))
        #expect(csp.contains("script-src 'nonce-") && csp.contains("https://cdn.plaid.com"))
        #expect(csp.contains("frame-src https://cdn.plaid.com"))
        // The inline script runs only with this response's CSP nonce.
        let scriptNonce = try #require(csp.split(separator: "'").first { $0.hasPrefix("nonce-") }?.dropFirst(6))
        #expect(page.body.contains(#"<script nonce="\#(scriptNonce)">"#))
        #expect(page.header("referrer-policy") == "no-referrer")
        #expect(page.header("cache-control") == "no-store")
        try await link.endAndCheckStopped()
    }

    @Test func postedPublicTokenIsWhatRunReturns() async throws {
        let link = try await Launched.start()
        let body = #"""
            {"s":"\#(link.nonce)","public_token":"\#(Self.publicToken)",
             "metadata":{"institution":{"name":"First Platypus Bank","institution_id":"ins_109508"},
                         "accounts":[{"id":"acc1","mask":"0000","type":"depository","subtype":"checking"}]}}
            """#
        let response = try await HTTP.post(link.base, "/public-token", body)
        #expect(response.status == 200)
        let result = try await link.task.value
        #expect(result.publicToken == Self.publicToken)
        let metadata = try JSONParser.parse(try #require(result.metadataJSON))
        #expect(metadata["institution"]?["institution_id"]?.stringValue == "ins_109508")
        #expect(metadata["accounts"]?.arrayValue?.first?["mask"]?.stringValue == "0000")
        #expect(!String(describing: result).contains(Self.publicToken))
        try await HTTP.expectClosed(link.url)
    }

    @Test func requestsWithoutTheNonceOrFromAnotherHostAreRejected() async throws {
        let link = try await Launched.start()
        let injected = #"{"s":"%@","public_token":"public-sandbox-injected"}"#
        // Wrong, missing and empty nonces on the page and on both POSTs.
        #expect(try await HTTP.get(URL(string: "\(link.base)/")!).status == 404)
        #expect(try await HTTP.get(URL(string: "\(link.base)/?s=\(String(repeating: "0", count: 64))")!).status == 404)
        #expect(try await HTTP.get(URL(string: "\(link.base)/?s=")!).status == 404)
        let wrong = String(link.nonce.reversed())
        #expect(try await HTTP.post(link.base, "/public-token", injected.replacingOccurrences(of: "%@", with: wrong)).status == 403)
        #expect(try await HTTP.post(link.base, "/public-token", #"{"public_token":"public-sandbox-injected"}"#).status == 403)
        #expect(try await HTTP.post(link.base, "/exit", #"{"s":"\#(wrong)","error":null}"#).status == 403)
        // The right nonce, but a form post (no CORS preflight) or another Host (DNS rebinding).
        let good = injected.replacingOccurrences(of: "%@", with: link.nonce)
        #expect(try await HTTP.post(link.base, "/public-token", good, contentType: "text/plain").status == 415)
        #expect(try await HTTP.post(link.base, "/public-token", good, host: "attacker.example").status == 403)
        #expect(try await HTTP.get(link.url, host: "attacker.example").status == 403)
        // A malformed token with the right nonce is refused, not returned.
        let spaced = #"{"s":"\#(link.nonce)","public_token":"public sandbox"}"#
        #expect(try await HTTP.post(link.base, "/public-token", spaced).status == 400)
        // Link's metadata is a few KB; a body past the cap is refused before it is parsed.
        let padding = String(repeating: "x", count: LinkLauncherRoutes.maxBodyBytes)
        let huge = #"{"s":"\#(link.nonce)","public_token":"public-sandbox-injected","metadata":"\#(padding)"}"#
        #expect(try await HTTP.post(link.base, "/public-token", huge).status == 413)
        // Other paths do not exist.
        #expect(try await HTTP.get(URL(string: "\(link.base)/public-token?s=\(link.nonce)")!).status == 404)
        // None of that ended the session: the genuine page's post still does.
        let genuine = #"{"s":"\#(link.nonce)","public_token":"\#(Self.publicToken)","metadata":null}"#
        #expect(try await HTTP.post(link.base, "/public-token", genuine).status == 200)
        let result = try await link.task.value
        #expect(result.publicToken == Self.publicToken)
        #expect(result.metadataJSON == nil)
        try await HTTP.expectClosed(link.url)
    }

    @Test func linkErrorOnExitMakesRunThrowAPrintableReason() async throws {
        let link = try await Launched.start()
        let body = #"""
            {"s":"\#(link.nonce)",
             "error":{"error_type":"INSTITUTION_ERROR","error_code":"INSTITUTION_DOWN",
                      "error_message":"this institution is not currently responding","display_message":"Try later\u001b[31m"},
             "metadata":{"status":"institution_not_responding","institution":null}}
            """#
        #expect(try await HTTP.post(link.base, "/exit", body).status == 200)
        await #expect(throws: LinkLauncherError.exited(reason: "Plaid Link reported INSTITUTION_DOWN: Try later [31m")) {
            try await link.task.value
        }
        try await HTTP.expectClosed(link.url)
    }

    @Test func closingLinkMakesRunThrow() async throws {
        let link = try await Launched.start()
        let body = #"{"s":"\#(link.nonce)","error":null,"metadata":{"status":"requires_credentials"}}"#
        #expect(try await HTTP.post(link.base, "/exit", body).status == 200)
        await #expect(
            throws: LinkLauncherError.exited(reason: "Link was closed before a bank was linked (last step: requires_credentials)")
        ) {
            try await link.task.value
        }
        try await HTTP.expectClosed(link.url)
    }

    @Test func nobodyFinishingLinkTimesOut() async throws {
        let link = try await Launched.start(timeout: .milliseconds(100))
        await #expect(throws: LinkLauncherError.timedOut) { try await link.task.value }
        try await HTTP.expectClosed(link.url)
    }

    @Test func oauthReturnServesThePageWithoutTokenOrNonce() async throws {
        let link = try await Launched.start()
        let page = try await HTTP.get(URL(string: "\(link.base)/oauth-return?oauth_state_id=4f3c1a1e-8d2b-4f8e-9a35-1b2c3d4e5f60")!)
        #expect(page.status == 200)
        #expect(page.body.contains(#"data-mode="oauth-return""#))
        #expect(page.body.contains("https://cdn.plaid.com/link/v2/stable/link-initialize.js"))
        #expect(page.body.contains("config.receivedRedirectUri = received.toString()"))
        // The redirect URL is fixed in advance and cannot carry the nonce: the page must not give
        // the session away to whoever asks for it.
        #expect(!page.body.contains(Self.linkToken))
        #expect(!page.body.contains(link.nonce))
        #expect(page.header("content-security-policy")?.contains("frame-src https://cdn.plaid.com") == true)
        try await link.endAndCheckStopped()
    }

    @Test func oauthRedirectURIIsLocalhostOnTheGivenPort() {
        #expect(LinkLauncher.oauthRedirectURI(port: 8765).absoluteString == "http://localhost:8765/oauth-return")
    }

    @Test func aTakenPortIsAServerFailure() async throws {
        let first = try await Launched.start()
        let port = try #require(first.url.port)
        let error = await #expect(throws: LinkLauncherError.self) {
            _ = try await LinkLauncher.run(linkToken: Self.linkToken, port: port) { _ in }
        }
        if case .serverFailed = error {} else { Issue.record("expected serverFailed, got \(String(describing: error))") }
        try await first.endAndCheckStopped()
    }
}

/// One launcher run in a task, with the URL it announced.
struct Launched {
    let url: URL
    let task: Task<LinkResult, any Error>

    var base: String { "http://127.0.0.1:\(url.port!)" }
    var nonce: String { URLComponents(url: url, resolvingAgainstBaseURL: false)!.queryItems!.first { $0.name == "s" }!.value! }

    static func start(timeout: Duration = .seconds(300)) async throws -> Launched {
        let (urls, sink) = AsyncStream<URL>.makeStream()
        let task = Task {
            defer { sink.finish() }
            return try await LinkLauncher.run(linkToken: LinkLauncherTests.linkToken, timeout: timeout) { sink.yield($0) }
        }
        var iterator = urls.makeAsyncIterator()
        guard let url = await iterator.next() else {
            _ = try await task.value
            throw LinkLauncherError.serverFailed("the launcher never announced a URL")
        }
        #expect(url.host == "127.0.0.1" && url.path == "/")
        return Launched(url: url, task: task)
    }

    /// Ends a run that nothing else ended (cancelling its task) and checks the port is closed.
    func endAndCheckStopped() async throws {
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        try await HTTP.expectClosed(url)
    }
}

enum HTTP {
    struct Reply {
        var status: UInt
        /// Lower-cased names.
        var headers: [String: [String]]
        var body: String

        func header(_ name: String) -> String? { headers[name.lowercased()]?.first }
    }

    static func get(_ url: URL, host: String? = nil) async throws -> Reply {
        var request = HTTPClientRequest(url: url.absoluteString)
        if let host { request.headers.replaceOrAdd(name: "Host", value: "\(host):\(url.port!)") }
        return try await send(request)
    }

    static func post(
        _ base: String, _ path: String, _ json: String, contentType: String = "application/json", host: String? = nil
    ) async throws -> Reply {
        var request = HTTPClientRequest(url: base + path)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: contentType)
        if let host { request.headers.replaceOrAdd(name: "Host", value: host) }
        request.body = .bytes(ByteBuffer(string: json))
        return try await send(request)
    }

    static func send(_ request: HTTPClientRequest) async throws -> Reply {
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(120))
        let body = try await response.body.collect(upTo: 1 << 20)
        /// Lower-cased names.
        var headers: [String: [String]] = [:]
        for header in response.headers { headers[header.name.lowercased(), default: []].append(header.value) }
        return Reply(status: response.status.code, headers: headers, body: String(buffer: body))
    }

    /// After `run` returns nothing answers on its port any more: a connect is refused, or, when
    /// a process the test suite spawned meanwhile inherited the listening socket (posix_spawn
    /// keeps descriptors), the connection is accepted by the kernel but never answered.
    /// (A plain socket, not AsyncHTTPClient: it retries a refused connection until its deadline.)
    static func expectClosed(_ url: URL) async throws {
        let port = try #require(url.port)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        if result == -1 {
            #expect(errno == ECONNREFUSED, "port \(port): connect failed with errno \(errno)")
            return
        }
        // Accepted: nothing may answer a request within a second.
        let request = Array("GET /?s=x HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 64)
        let got = recv(fd, &buffer, buffer.count, 0)
        #expect(got <= 0, "port \(port) still answers requests")
    }
}
