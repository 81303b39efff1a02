import Foundation
import MoneyFlowPlaid
import PlaidTestServer
import Testing

@testable import MoneyFlowServer

/// The connect page and the iOS shell's path configuration.
@Suite struct WebConnectTests {
    @Test func withoutPlaidKeysThePageSaysSoAndLoadsNoOutsideScript() async throws {
        try await InProcessServer.run { h in
            let token = try await h.addUser("nia")
            let web = WebClient(h)
            try await web.signIn(token: token)
            let page = try await web.get("/connect")
            #expect(page.status == 200 && page.html.contains("no Plaid keys") && !page.html.contains("cdn.plaid.com"))
            #expect(page.headers[.contentSecurityPolicy]?.contains("plaid.com") == false)
        }
    }

    @Test func theLinkTokenComesFromTheServerAndOnlyThisPageMayLoadPlaidsScript() async throws {
        let plaid = try await PlaidTestServer.start()
        defer { Task { await plaid.stop() } }
        let configuration = PlaidConfiguration(
            clientID: "test-client-id", secret: "test-secret", baseURL: URL(string: plaid.baseURL)!, environmentName: "test")
        try await InProcessServer.run(plaid: configuration) { h in
            let token = try await h.addUser("noor")
            let web = WebClient(h)
            try await web.signIn(token: token)
            let page = try await web.get("/connect")
            #expect(page.html.contains(#"<script src="https://cdn.plaid.com/link/v2/stable/link-initialize.js">"#))
            #expect(page.html.contains(#"data-testid="connect-start""#) && page.html.contains(#"data-testid="sync-now""#))
            #expect(page.headers[.contentSecurityPolicy]?.contains("script-src 'self' https://cdn.plaid.com") == true)
            #expect(try await web.get("/").headers[.contentSecurityPolicy]?.contains("plaid.com") == false)
            let reply = try await web.post("/connect/link-token", [])
            let json = try JSONSerialization.jsonObject(with: Data(reply.html.utf8)) as? [String: Any]
            #expect((json?["link_token"] as? String)?.hasPrefix("link-") == true, "\(reply.html)")
            #expect(try await web.post("/connect/link-token", [], csrf: false).status == 403)
        }
    }

    @Test func theHotwireNativePathConfiguration() async throws {
        try await InProcessServer.run { h in
            let web = WebClient(h)
            let reply = try await web.get("/configurations/ios_v1.json")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(reply.html.utf8)) as? [String: Any])
            let rules = try #require(json["rules"] as? [[String: Any]])
            func properties(_ pattern: String) -> [String: Any]? {
                rules.first { ($0["patterns"] as? [String])?.contains(pattern) == true }?["properties"] as? [String: Any]
            }
            #expect(properties("^/connect$")?["view_controller"] as? String == "plaid_link")
            #expect(properties("^/signin$")?["context"] as? String == "modal")
            #expect(properties("^/signout$")?["presentation"] as? String == "clear_all")
            #expect(properties("^/transactions$")?["pull_to_refresh_enabled"] as? Bool == true)
        }
    }
}
