import Foundation
import MoneyFlowHTTPTestSupport
import MoneyFlowTestSupport
import PlaidTestServer
import Testing

/// `moneyflow plaid link` without `--sandbox`: the Link launcher page, driven the way a browser
/// running Plaid Link would (the Plaid-shaped server stands in for Link's own backend).
@Suite("plaid link through the Link launcher page", .serialized)
struct PlaidLinkLauncherEndToEndTests {
    /// Starts `moneyflow plaid link args`, waits for the launcher URL it prints, reads the page,
    /// completes Link at the server and posts the result to the page's endpoint.
    func driveLink(_ h: PlaidHarness, _ args: [String]) async throws -> BinaryRun {
        let child = try h.spawn(["plaid", "link"] + args)
        var url: URL?
        for _ in 0..<600 where url == nil {
            if let line = child.stdoutSoFar().split(separator: "\n").first(where: { $0.hasPrefix("Open http://127.0.0.1:") }) {
                url = URL(string: String(line.split(separator: " ")[1]))
            } else if child.hasExited {
                break
            } else {
                try await Task.sleep(for: .milliseconds(50))
            }
        }
        let page = try #require(url, "no launcher URL; stderr: \(child.stderrSoFar())")
        let (html, status) = try await LoopbackHTTP.get(page.absoluteString)
        #expect(status == 200)
        let text = String(decoding: html, as: UTF8.self)
        let linkToken = try #require(Self.attribute("data-link-token", in: text))
        let nonce = try #require(URLComponents(url: page, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "s" }?.value)
        // What Link's onSuccess hands the page: a public token (update mode: one nobody exchanges).
        let publicToken = try h.server.completeLink(linkToken: linkToken) ?? "public-sandbox-00000000-0000-0000-0000-000000000000"
        let body = try JSONSerialization.data(withJSONObject: [
            "s": nonce, "public_token": publicToken, "metadata": ["institution": ["institution_id": "ins_109508"]],
        ])
        let (_, posted) = try await LoopbackHTTP.post("http://127.0.0.1:\(page.port!)/public-token", body: body)
        #expect(posted == 200)
        return try await PlaidHarness.wait(child, record: h)
    }

    static func attribute(_ name: String, in html: String) -> String? {
        guard let start = html.range(of: "\(name)=\"") else { return nil }
        guard let end = html[start.upperBound...].firstIndex(of: "\"") else { return nil }
        return String(html[start.upperBound..<end])
    }

    @Test(
        "link: the launcher URL is printed, Link's public token is exchanged, the accounts come in; --update repairs an item needing login")
    func linkAndUpdate() async throws {
        let h = try await PlaidHarness.start()
        defer { Task { await h.stop() } }
        let r = try await driveLink(h, ["--days", "400"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("Linked item") && r.stdout.contains("Plaid Checking 0000"), "\(r.stdout)")
        let item = try #require(h.server.items().first)
        #expect(item.daysRequested == 400)
        let created = h.server.requests().first { $0.path == "/link/token/create" }
        let request = try #require(created.flatMap { try? JSONSerialization.jsonObject(with: Data($0.body)) as? [String: Any] })
        #expect(request["products"] as? [String] == ["transactions"])
        #expect((request["user"] as? [String: Any])?["client_user_id"] is String)

        #expect(try await h.sync().run.status == 0)
        try h.server.setItemError(itemID: item.itemID, code: "ITEM_LOGIN_REQUIRED")
        let (failed, s) = try await h.sync()
        #expect(failed.status == 1 && s[item.itemID]?["outcome"] as? String == "failed")
        let table = try await h.run(["plaid", "items"])
        #expect(table.stdout.contains("needs_user") && table.stdout.contains("plaid link --update \(item.itemID)"), "\(table.stdout)")

        let update = try await driveLink(h, ["--update", item.itemID])
        #expect(update.status == 0, "\(update.stderr)")
        let updateRequest = h.server.requests().last { $0.path == "/link/token/create" }
        let u = try #require(updateRequest.flatMap { try? JSONSerialization.jsonObject(with: Data($0.body)) as? [String: Any] })
        #expect(u["products"] == nil && u["access_token"] is String)
        #expect((u["update"] as? [String: Any])?["account_selection_enabled"] as? Bool == true)
        #expect(h.server.items().count == 1, "update mode keeps the item")
        let (again, s2) = try await h.sync()
        #expect(again.status == 0 && s2[item.itemID]?["outcome"] as? String != "failed", "\(again.stderr)")
        try await h.expectLedgerEqualsTruth(items: [item.itemID])
        h.expectNoTokenLeaked()
    }
}
