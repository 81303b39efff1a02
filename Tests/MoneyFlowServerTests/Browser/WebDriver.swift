import Foundation
import MoneyFlowHTTPTestSupport
import MoneyFlowTestSupport
import NIOHTTP1
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A W3C WebDriver client over plain HTTP (AsyncHTTPClient through ``LoopbackHTTP``) for
/// Debian's chromedriver driving headless Chromium: no Python, no Selenium. The driver runs on
/// a loopback port of its own and is stopped at the end of each test.
final class WebDriver: @unchecked Sendable {
    static let chromium = "/usr/bin/chromium"
    static let chromedriver = "/usr/bin/chromedriver"
    static let elementKey = "element-6066-11e4-a52e-4f735466cecf"

    let process: Process
    let base: String
    let session: String

    /// True when Chromium and its driver are installed; in CI their absence fails the test
    /// (``TestEnvironment/isCI(_:)``), elsewhere the browser tests are skipped.
    static var available: Bool {
        let there = FileManager.default.isExecutableFile(atPath: chromium) && FileManager.default.isExecutableFile(atPath: chromedriver)
        if !there && TestEnvironment.isCI() {
            Issue.record("CI=true: install chromium and chromium-driver (scripts/install-deps.sh) for the browser tests")
        }
        return there
    }

    /// Starts chromedriver on a free loopback port and opens a headless Chromium `width` px wide.
    static func start(width: Int = 1280, height: Int = 900) async throws -> WebDriver {
        var lastError = ""
        for _ in 0..<5 {
            let port = Int.random(in: 20000..<60000)
            let p = Process()
            p.executableURL = URL(fileURLWithPath: chromedriver)
            p.arguments = ["--port=\(port)", "--allowed-ips=127.0.0.1"]
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            try p.run()
            let base = "http://127.0.0.1:\(port)"
            for _ in 0..<50 {
                if let (_, status) = try? await LoopbackHTTP.get(base + "/status"), status == 200 { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            let caps: [String: Any] = [
                "capabilities": [
                    "alwaysMatch": [
                        "browserName": "chrome",
                        "goog:chromeOptions": [
                            "binary": chromium,
                            "args": [
                                "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--lang=en-US",
                                "--window-size=\(width),\(height)", "--user-data-dir=" + NSTemporaryDirectory() + "mf-chrome-\(UUID().uuidString)",
                            ],
                        ],
                    ]
                ]
            ]
            do {
                let value = try await call(base, .POST, "/session", caps)
                guard let id = (value as? [String: Any])?["sessionId"] as? String else { throw HarnessError("no session: \(value)") }
                return WebDriver(process: p, base: base, session: id)
            } catch {
                lastError = "\(error)"
                Self.kill(p)
            }
        }
        throw HarnessError("chromedriver did not start: \(lastError)")
    }

    private init(process: Process, base: String, session: String) {
        self.process = process; self.base = base; self.session = session
    }

    /// Closes the browser, then ends the driver (SIGKILL: chromedriver does not always end on SIGTERM).
    func quit() async {
        _ = try? await Self.call(base, .DELETE, "/session/\(session)", nil)
        Self.kill(process)
    }

    static func kill(_ p: Process) {
        if p.isRunning { Glibc.kill(p.processIdentifier, SIGKILL) }
        p.waitUntilExit()
    }

    /// Appends `line` to the run's progress file (the artifacts folder), to see where a run stopped.
    static func note(_ line: String) {
        let path = TestPaths.repoRoot.appendingPathComponent(".build/browser-artifacts/progress.txt").path
        try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        if let h = FileHandle(forWritingAtPath: path) {
            h.seekToEndOfFile(); h.write(Data((line + "\n").utf8)); try? h.close()
        } else {
            try? (line + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        }
    }

    @discardableResult
    static func call(_ base: String, _ method: HTTPMethod, _ path: String, _ body: [String: Any]?) async throws -> Any {
        note("\(method) \(path)")
        let data = try body.map { try JSONSerialization.data(withJSONObject: $0) }
        let (reply, status) = try await LoopbackHTTP.send(
            base + path, method: method, body: data ?? (method == .POST ? Data("{}".utf8) : nil),
            headers: ["Content-Type": "application/json"])
        let json = try JSONSerialization.jsonObject(with: reply, options: [.fragmentsAllowed]) as? [String: Any]
        let value = json?["value"] ?? NSNull()
        guard status == 200 else { throw HarnessError("WebDriver \(method) \(path): \(status) \(String(decoding: reply, as: UTF8.self).prefix(400))") }
        return value
    }

    @discardableResult
    func call(_ method: HTTPMethod, _ path: String, _ body: [String: Any]? = nil) async throws -> Any {
        try await Self.call(base, method, "/session/\(session)" + path, body)
    }

    // MARK: What a test does

    func open(_ url: String) async throws { try await call(.POST, "/url", ["url": url]) }

    func currentURL() async throws -> String { try await call(.GET, "/url") as? String ?? "" }

    /// Waits (at most 10 s) until the page's address satisfies `test` (a click on a submit button
    /// returns before the next page has loaded); the address at the end.
    @discardableResult
    func waitForURL(_ test: (String) -> Bool) async throws -> String {
        var url = try await currentURL()
        for _ in 0..<100 where !test(url) {
            try await Task.sleep(for: .milliseconds(100))
            url = try await currentURL()
        }
        return url
    }

    func elements(_ css: String) async throws -> [String] {
        let value = try await call(.POST, "/elements", ["using": "css selector", "value": css])
        return (value as? [[String: Any]] ?? []).compactMap { $0[Self.elementKey] as? String }
    }

    /// The elements `css` once `test` holds for them (polled at most 10 s: a form's answer may still be loading).
    func elements(_ css: String, until test: ([String]) -> Bool) async throws -> [String] {
        var found = try await elements(css)
        for _ in 0..<100 where !test(found) {
            try await Task.sleep(for: .milliseconds(100))
            found = try await elements(css)
        }
        return found
    }

    func element(_ css: String) async throws -> String {
        guard let e = try await elements(css).first else { throw HarnessError("no element \(css) on \(try await currentURL())") }
        return e
    }

    func click(_ css: String) async throws { try await call(.POST, "/element/\(try await element(css))/click") }

    func type(_ css: String, _ text: String) async throws {
        let e = try await element(css)
        try await call(.POST, "/element/\(e)/clear")
        try await call(.POST, "/element/\(e)/value", ["text": text])
    }

    /// Chooses the `<option>` whose value is `value` in the select `css`.
    func select(_ css: String, value: String) async throws {
        try await execute(
            "var s = document.querySelector(arguments[0]); s.value = arguments[1]; s.dispatchEvent(new Event('change'));", [css, value])
    }

    func attribute(_ element: String, _ name: String) async throws -> String? {
        try await call(.GET, "/element/\(element)/attribute/\(name)") as? String
    }

    func text(_ element: String) async throws -> String { try await call(.GET, "/element/\(element)/text") as? String ?? "" }

    @discardableResult
    func execute(_ script: String, _ args: [Any] = []) async throws -> Any {
        try await call(.POST, "/execute/sync", ["script": script, "args": args])
    }

    func executeAsync(_ script: String, _ args: [Any] = []) async throws -> Any {
        try await call(.POST, "/execute/async", ["script": script, "args": args])
    }

    func pressKey(_ key: String) async throws {
        try await call(
            .POST, "/actions",
            ["actions": [["type": "key", "id": "keyboard", "actions": [["type": "keyDown", "value": key], ["type": "keyUp", "value": key]]]]])
    }

    /// The alert's text when a script opened one; nil when none is open.
    func alertText() async -> String? { try? await call(.GET, "/alert/text") as? String }

    /// Saves a PNG of the window to `path` (the tests' artifacts, never committed).
    func screenshot(_ path: String) async throws {
        guard let b64 = try await call(.GET, "/screenshot") as? String, let data = Data(base64Encoded: b64) else { return }
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try data.write(to: URL(fileURLWithPath: path))
    }
}
